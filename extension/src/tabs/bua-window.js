/**
 * Where the agent's new tabs go. By default into one dedicated "bua" window,
 * created minimised and unfocused the first time it is needed (its id kept in
 * chrome.storage.session, re-created when the person closed it), so the
 * agent never takes the person's focus. `focus: true` tabs go into the
 * person's last focused normal window instead, and come to the front.
 */

export const WINDOW_KEY = "bua.window";

export class BuaWindow {
  #windows;
  #tabs;
  #storage;
  /** @type {Promise<unknown>} serialises window creation */
  #lock = Promise.resolve();
  /** @type {number | null | undefined} the stored id, read once per worker life (undefined: not read yet) */
  #storedId = undefined;

  /**
   * @param {{windows: any, tabs: any, storage: any}} deps chrome.windows, chrome.tabs, chrome.storage.session
   */
  constructor({ windows, tabs, storage }) {
    this.#windows = windows;
    this.#tabs = tabs;
    this.#storage = storage;
  }

  /**
   * A new about:blank tab in the bua window.
   * @returns {Promise<{id: number, windowId: number}>}
   */
  backgroundTab() {
    const run = this.#lock.then(async () => {
      const windowId = await this.windowId();
      // A window closing now (the person closed its last tab) is still found but takes no tab: a new one is made.
      const tab = windowId === null ? null : await this.#tabs.create({ windowId, url: "about:blank", active: false }).catch(() => null);
      if (tab) return tab;
      const created = await this.#windows.create({ url: "about:blank", state: "minimized", focused: false, type: "normal" });
      await this.#storage.set({ [WINDOW_KEY]: created.id });
      this.#storedId = created.id;
      if (created.state !== "minimized") await this.#windows.update(created.id, { state: "minimized" }).catch(() => {});
      return created.tabs?.[0] ?? (await this.#tabs.query({ windowId: created.id }))[0];
    });
    this.#lock = run.catch(() => {});
    return run;
  }

  /**
   * A new about:blank tab, active, in the person's last focused normal window, brought to the front.
   * @returns {Promise<{id: number, windowId: number}>}
   */
  async focusedTab() {
    const buaId = await this.windowId();
    let target = await this.#windows.getLastFocused({ windowTypes: ["normal"] }).catch(() => null);
    if (!target || target.id === buaId) {
      const all = await this.#windows.getAll({ windowTypes: ["normal"] });
      target = all.find((/** @type {any} */ w) => w.id !== buaId) ?? null;
    }
    if (!target) {
      const created = await this.#windows.create({ url: "about:blank", focused: true, type: "normal" });
      return created.tabs?.[0] ?? (await this.#tabs.query({ windowId: created.id }))[0];
    }
    const tab = await this.#tabs.create({ windowId: target.id, url: "about:blank", active: true });
    await this.#windows.update(target.id, { focused: true }).catch(() => {});
    return tab;
  }

  /**
   * The bua window's id while it exists.
   * @returns {Promise<number | null>}
   */
  async windowId() {
    const stored = await this.#stored();
    if (stored === null) return null;
    try {
      await this.#windows.get(stored);
      return stored;
    } catch {
      return null;
    }
  }

  /**
   * Whether a window is the bua window, with no browser round trip once the id is known (window ids are
   * not reused while the browser runs, so a closed bua window's id matches no tab's window).
   * @param {number} windowId
   */
  async isBuaWindow(windowId) {
    return (await this.#stored()) === windowId;
  }

  /** @returns {Promise<number | null>} */
  async #stored() {
    if (this.#storedId === undefined) {
      const stored = (await this.#storage.get(WINDOW_KEY))?.[WINDOW_KEY];
      this.#storedId = typeof stored === "number" ? stored : null;
    }
    return this.#storedId;
  }
}
