/**
 * Each task's current tab (task_id -> tabId) and the tabs it owns (opened,
 * navigated, or opened by its clicks), kept in chrome.storage.session so a
 * restart of the service worker keeps them (a browser restart clears them,
 * as tab ids do not survive one either).
 */

export const STORAGE_KEY = "bua.taskTabs";
export const OWNED_KEY = "bua.taskOwnedTabs";

/** @typedef {{current: Record<string, number>, owned: Record<string, number[]>}} State */

export class TaskTabs {
  #storage;
  /** @type {Promise<State> | null} */
  #loaded = null;
  /** @type {Promise<unknown>} serialises writes */
  #writes = Promise.resolve();
  #onChange;

  /**
   * @param {any} storageArea chrome.storage.session
   * @param {() => void} [onChange] told after each change (the tab state the app mirrors: tabs/tab-feed.js)
   */
  constructor(storageArea, onChange = () => {}) {
    this.#storage = storageArea;
    this.#onChange = onChange;
  }

  /**
   * @param {string} taskId
   * @returns {Promise<number | undefined>}
   */
  async get(taskId) {
    return (await this.#state()).current[taskId];
  }

  /**
   * Make the tab the task's current one (and owned by it).
   * @param {string} taskId
   * @param {number} tabId
   */
  async set(taskId, tabId) {
    await this.#update((state) => {
      const changed = state.current[taskId] !== tabId;
      state.current[taskId] = tabId;
      return addOwned(state, taskId, tabId) || changed;
    });
  }

  /**
   * The task owns the tab (e.g. its click opened it) without switching to it.
   * @param {string} taskId
   * @param {number} tabId
   */
  async own(taskId, tabId) {
    await this.#update((state) => addOwned(state, taskId, tabId));
  }

  /**
   * @param {string} taskId
   * @param {number} tabId
   */
  async owns(taskId, tabId) {
    const state = await this.#state();
    return state.current[taskId] === tabId || (state.owned[taskId] ?? []).includes(tabId);
  }

  /** @returns {Promise<Record<string, number>>} each task's current tab */
  async currentTabs() {
    return { ...(await this.#state()).current };
  }

  /**
   * @param {string} taskId
   * @returns {Promise<number[]>}
   */
  async ownedTabs(taskId) {
    return [...((await this.#state()).owned[taskId] ?? [])];
  }

  /**
   * Forget a closed tab for every task that had it.
   * @param {number} tabId
   */
  async forgetTab(tabId) {
    await this.#update((state) => {
      let changed = false;
      for (const [taskId, id] of Object.entries(state.current)) {
        if (id === tabId) {
          delete state.current[taskId];
          changed = true;
        }
      }
      for (const [taskId, ids] of Object.entries(state.owned)) {
        if (!ids.includes(tabId)) continue;
        const rest = ids.filter((id) => id !== tabId);
        if (rest.length > 0) state.owned[taskId] = rest;
        else delete state.owned[taskId];
        changed = true;
      }
      return changed;
    });
  }

  /** @param {string} taskId */
  async forgetTask(taskId) {
    await this.#update((state) => {
      if (!(taskId in state.current) && !(taskId in state.owned)) return false;
      delete state.current[taskId];
      delete state.owned[taskId];
      return true;
    });
  }

  /** @returns {Promise<State>} */
  #state() {
    if (this.#loaded) return this.#loaded;
    /** @type {Promise<State>} */
    const loading = this.#storage.get([STORAGE_KEY, OWNED_KEY]).then(
      (/** @type {Record<string, any>} */ items) => ({
        current: { ...(items?.[STORAGE_KEY] ?? {}) },
        owned: { ...(items?.[OWNED_KEY] ?? {}) },
      }),
    );
    loading.catch(() => {
      if (this.#loaded === loading) this.#loaded = null;
    });
    this.#loaded = loading;
    return loading;
  }

  /** @param {(state: State) => boolean} mutate returns whether it changed the state */
  #update(mutate) {
    const run = this.#writes.then(async () => {
      const state = await this.#state();
      if (!mutate(state)) return;
      this.#onChange();
      await this.#storage.set({ [STORAGE_KEY]: { ...state.current }, [OWNED_KEY]: { ...state.owned } });
    });
    this.#writes = run.catch(() => {});
    return run;
  }
}

/**
 * @param {State} state
 * @param {string} taskId
 * @param {number} tabId
 */
function addOwned(state, taskId, tabId) {
  const ids = state.owned[taskId] ?? [];
  if (ids.includes(tabId)) return false;
  state.owned[taskId] = [...ids, tabId];
  return true;
}
