/**
 * Every tab a session tab opens joins the task, whoever opened it: a click (also handled by the action's own
 * effects), a link with target=_blank, or `window.open` from a page script or from evaluate, between actions too.
 * A new tab headed for a blocked site is closed at once and never joins; one that gets there later is closed by
 * the session gate's check (its session carries `opener_tab_id`). A stopped task's page opening a tab gets it
 * closed too: the task may not act there.
 *
 * Fed by chrome.tabs.onCreated (openerTabId) and chrome.webNavigation.onCreatedNavigationTarget (sourceTabId, also
 * for links opened with noopener); both may report the same tab, joining is idempotent. A tab can close while its
 * join waits (for the store, the blocklist): chrome.tabs.onRemoved reports it (`closed`), and a join that finds
 * its tab gone, before or after starting the session, leaves no session behind (else the app's sessions table
 * keeps a row for a tab that no longer exists).
 */

/** How many closed tab ids are remembered for joins still waiting (tab ids are never reused in a run). */
const CLOSED_KEPT = 256;

/**
 * @typedef {import("./session-store.js").SessionStore} SessionStore
 * @typedef {import("./blocklist.js").Blocklist} Blocklist
 */

export class OpenedTabs {
  #sessions;
  #blocklist;
  #tabs;
  #taskTabs;
  /** @type {Promise<unknown>} joins run one at a time: onCreated and onCreatedNavigationTarget race for a tab */
  #queue = Promise.resolve();
  /** @type {Set<number>} tabs closed lately, oldest first */
  #closed = new Set();

  /**
   * @param {{sessions: SessionStore, blocklist: Blocklist, tabs: any, taskTabs: any}} deps
   */
  constructor({ sessions, blocklist, tabs, taskTabs }) {
    this.#sessions = sessions;
    this.#blocklist = blocklist;
    this.#tabs = tabs;
    this.#taskTabs = taskTabs;
  }

  /** @param {{id?: number, openerTabId?: number, pendingUrl?: string, url?: string}} tab chrome.tabs.onCreated */
  async onCreated(tab) {
    if (tab.id === undefined || tab.openerTabId === undefined) return "ignored";
    return this.#serial(/** @type {number} */ (tab.openerTabId), tab.id, tab.pendingUrl || tab.url || "");
  }

  /** @param {{sourceTabId: number, tabId: number, url: string}} details webNavigation.onCreatedNavigationTarget */
  async onCreatedNavigationTarget(details) {
    return this.#serial(details.sourceTabId, details.tabId, details.url ?? "");
  }

  /**
   * chrome.tabs.onRemoved: a join of this tab that is still waiting must not start its session.
   * @param {number} tabId
   */
  closed(tabId) {
    this.#closed.add(tabId);
    if (this.#closed.size > CLOSED_KEPT) this.#closed.delete(/** @type {number} */ (this.#closed.values().next().value));
  }

  /** @param {number} openerId @param {number} tabId @param {string} url */
  #serial(openerId, tabId, url) {
    const joined = this.#queue.then(() => this.#join(openerId, tabId, url));
    this.#queue = joined.catch(() => {});
    return joined;
  }

  /**
   * @param {number} openerId
   * @param {number} tabId
   * @param {string} url where the new tab is headed ("" or about:blank when a script fills it in later)
   * @returns {Promise<"joined" | "closed" | "ignored">}
   */
  async #join(openerId, tabId, url) {
    await this.#sessions.ready();
    const source = this.#sessions.get(openerId);
    if (!source) return "ignored";
    const mine = this.#sessions.get(tabId);
    if (mine && mine.task_id !== source.task_id) return "ignored";
    const stopped = this.#sessions.stopReason(source.task_id);
    if (stopped || (await this.#blocklist.check(url))) {
      if (mine) await this.#sessions.end(tabId, "blocked_tab_closed");
      await this.#tabs.remove(tabId).catch(() => {});
      return "closed";
    }
    if (!mine) {
      if (this.#closed.has(tabId)) return "closed";
      await this.#sessions.start({ taskId: source.task_id, tabId, url, label: source.label, openedByAgent: true,
        openerTabId: openerId });
      await this.#taskTabs.own(source.task_id, tabId);
      if (this.#closed.has(tabId)) {
        await this.#sessions.end(tabId, "tab_closed");
        await this.#taskTabs.forgetTab?.(tabId);
        return "closed";
      }
    }
    return "joined";
  }
}
