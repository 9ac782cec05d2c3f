/**
 * The tab state the app mirrors (docs/architecture.md, "Wire protocol"): what `get_tabs` reads — every tab of a
 * normal window in chrome.tabs.query order, each with its window, URL, title, whether it is active and which task's
 * session holds it, and each task's current tab and the stopped tasks — pushed to the app as `tab_state` events
 * over the native port, so the app answers get_tabs without a round trip here (app/bridge/tab_mirror.py).
 *
 * The feed never reconstructs state from events: any tab, window or session change (or an action's answer) runs
 * one `chrome.tabs.query` — the same query get_tabs runs — and posts what differs from what the app last got. The
 * first frame on a connection is `full`; then deltas, numbered by `seq`, so the app can tell it missed one.
 *
 * Ordering: the dispatcher awaits `settle()` before it posts an action's or a control's answer, so that answer
 * never overtakes the tab state the action caused (open_tab then get_tabs shows the new tab).
 */

import { eventMessage } from "../protocol.js";

/**
 * @typedef {object} TabRow one tab as the app mirrors it
 * @property {number} tab_id
 * @property {number} window_id
 * @property {string} url
 * @property {string} title
 * @property {boolean} active
 * @property {string | null} task_id the task whose session holds the tab
 *
 * @typedef {object} TabState
 * @property {TabRow[]} rows in chrome.tabs.query order
 * @property {number} unnamed tabs chrome.tabs.query listed without an id (counted by get_tabs, never listed)
 * @property {Record<string, number>} current each task's current tab
 * @property {string[]} stopped tasks the person stopped (their get_tabs answers `stopped`)
 *
 * @typedef {object} FeedDeps
 * @property {(msg: unknown) => boolean} post posts to the host; false when not connected
 * @property {{query: (q: object) => Promise<any[]>}} tabs chrome.tabs
 * @property {{get: (tabId: number) => ({task_id: string} | undefined), stopped: () => string[]}} sessions
 * @property {{currentTabs: () => Promise<Record<string, number>>}} taskTabs
 * @property {{warn: Function}} [log]
 */

/**
 * One tab as get_tabs reports it (actions/get-tabs.js uses the same projection).
 * @param {any} tab a chrome.tabs.Tab
 * @returns {Omit<TabRow, "task_id">}
 */
export function tabFields(tab) {
  return {
    tab_id: /** @type {number} */ (tab.id),
    window_id: tab.windowId,
    url: tab.url || tab.pendingUrl || "",
    title: tab.title ?? "",
    active: Boolean(tab.active),
  };
}

/** What get_tabs queries: tabs of normal windows (not popups, app or devtools windows). */
export const TAB_QUERY = Object.freeze({ windowType: "normal" });

/** @param {TabRow} a @param {TabRow} b */
function sameRow(a, b) {
  return a.window_id === b.window_id && a.url === b.url && a.title === b.title && a.active === b.active
    && a.task_id === b.task_id;
}

/** @param {Record<string, number>} a @param {Record<string, number>} b */
function sameMap(a, b) {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** @param {unknown[]} a @param {unknown[]} b */
function sameList(a, b) {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

export class TabFeed {
  #post;
  #tabs;
  #sessions;
  #taskTabs;
  #log;
  /** @type {TabState | null} what the app has on this connection (null: it has nothing, the next frame is full) */
  #sent = null;
  #seq = 0;
  /** whether the app is there (host_ready seen, no disconnect since) */
  #connected = false;
  /** bumped at each connect and disconnect: a reconcile started under another connection does not post */
  #generation = 0;
  #dirty = false;
  /** @type {Promise<void> | null} */
  #running = null;

  /** @param {FeedDeps} deps */
  constructor({ post, tabs, sessions, taskTabs, log = console }) {
    this.#post = post;
    this.#tabs = tabs;
    this.#sessions = sessions;
    this.#taskTabs = taskTabs;
    this.#log = log;
  }

  /** The host reached the app (after hello): the app gets the whole state, then deltas. */
  connected() {
    this.#generation += 1;
    this.#connected = true;
    this.#sent = null;
    this.#seq = 0;
    this.changed();
  }

  /** The port closed: nothing is posted until the next connect, which starts over with a full frame. */
  disconnected() {
    this.#generation += 1;
    this.#connected = false;
    this.#sent = null;
  }

  /** Something get_tabs reads may have changed: reconcile soon (coalesced). Never throws. */
  changed() {
    this.#dirty = true;
    if (this.#connected) this.#kick();
  }

  /**
   * Resolves once the app has been sent the state as it is now (called before an answer is posted).
   * @param {boolean} [force] reconcile even when no change was noticed (an action may have changed what no event
   *   reported yet)
   */
  async settle(force = false) {
    if (!this.#connected) return;
    if (force) this.#dirty = true;
    if (!this.#dirty && !this.#running) return;
    await this.#kick();
  }

  #kick() {
    if (!this.#running) this.#running = this.#drain();
    return this.#running;
  }

  async #drain() {
    await null; // never settles synchronously: #running is assigned before the finally below clears it
    try {
      while (this.#dirty && this.#connected) {
        this.#dirty = false;
        await this.#reconcile();
      }
    } catch (err) {
      // The app keeps its mirror as it was; asking get_tabs still works, and the next change reconciles again.
      this.#log.warn("bua: could not read the tab state for the app:", err);
    } finally {
      this.#running = null;
    }
  }

  async #reconcile() {
    const generation = this.#generation;
    const [tabs, current] = await Promise.all([this.#tabs.query(TAB_QUERY), this.#taskTabs.currentTabs()]);
    if (generation !== this.#generation || !this.#connected) return;
    /** @type {TabRow[]} */
    const rows = [];
    let unnamed = 0;
    for (const tab of tabs) {
      if (tab.id === undefined) {
        unnamed += 1;
        continue;
      }
      rows.push({ ...tabFields(tab), task_id: this.#sessions.get(tab.id)?.task_id ?? null });
    }
    /** @type {TabState} */
    const state = { rows, unnamed, current, stopped: [...this.#sessions.stopped()].sort() };
    const frame = this.#frame(state);
    if (!frame) return;
    this.#seq += 1;
    if (this.#post(eventMessage("tab_state", { seq: this.#seq, ...frame }))) {
      this.#sent = state;
    } else {
      this.disconnected();
    }
  }

  /**
   * What to send for `state`: everything on a new connection, else only what changed (null: nothing did).
   * @param {TabState} state
   * @returns {Record<string, unknown> | null}
   */
  #frame(state) {
    const sent = this.#sent;
    const order = state.rows.map((r) => r.tab_id);
    if (!sent) return { full: true, order, tabs: state.rows, unnamed: state.unnamed, current: state.current, stopped: state.stopped };
    const before = new Map(sent.rows.map((r) => [r.tab_id, r]));
    /** @type {Record<string, unknown>} */
    const frame = { full: false };
    const changedRows = state.rows.filter((r) => !before.has(r.tab_id) || !sameRow(/** @type {TabRow} */ (before.get(r.tab_id)), r));
    if (changedRows.length > 0) frame.tabs = changedRows;
    if (!sameList(order, sent.rows.map((r) => r.tab_id))) frame.order = order;
    if (state.unnamed !== sent.unnamed) frame.unnamed = state.unnamed;
    if (!sameMap(state.current, sent.current)) frame.current = state.current;
    if (!sameList(state.stopped, sent.stopped)) frame.stopped = state.stopped;
    return Object.keys(frame).length > 1 ? frame : null;
  }
}
