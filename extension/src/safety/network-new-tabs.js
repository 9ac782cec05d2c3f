/**
 * The first request of a tab that a held action opens (a form with target=_blank that POSTs, `window.open` and a
 * submit into it): README "Safety model"; docs/architecture.md "Safety".
 *
 * No CDP session an extension can hold sees it: auto-attach on the tab's page reaches its frames and workers but
 * not the popups it opens (Chromium attaches those only from the browser target, which chrome.debugger may not
 * attach to), and the opener's Fetch does not see the popup's navigation. A declarativeNetRequest session rule
 * can block but not pause, so while any hold is on, one rule blocks every request that can change something
 * (any method but GET, HEAD and OPTIONS) in the tabs that did not exist when the holds began; the tabs the holds
 * act on, and requests of no tab (tabs.TAB_ID_NONE: service workers), are left out. A GET, such as an ordinary
 * target=_blank link, is never touched.
 *
 * When a held tab opens a tab, the hold takes it over (network-action-hold.js ActionHold.adopt): Fetch on in it first,
 * then it is left out of the rule, then a top-level navigation the rule blocked is reloaded. Chromium keeps a
 * failed POST's body with its history entry, and a reload sends the same method, body, content type and Origin
 * again, so the request now reaches the hold whole and is judged like any other: Allow lets it load, Deny fails it
 * (the tab keeps the blocked page). What the rule blocks in such a tab that is not a top-level navigation (a
 * script's POST in the moment before Fetch is on in it) fails and is not sent again.
 */

/** The rule's id among the extension's session rules. */
export const RULE_ID = 1901;
const CHANGING_METHODS = ["post", "put", "patch", "delete", "connect", "other"];
const BLOCKED_RESOURCES = ["main_frame", "sub_frame", "xmlhttprequest", "ping", "other"];
/** chrome.tabs.TAB_ID_NONE: requests of no tab. */
const NO_TAB = -1;
const BLOCKED_BY_CLIENT = /ERR_BLOCKED_BY_CLIENT/;

/**
 * @typedef {{updateSessionRules: (change: {removeRuleIds?: number[], addRules?: object[]}) => Promise<void>}} SessionRules
 * @typedef {(url: string) => void} BlockedListener
 */

export class NewTabCover {
  #rules;
  #tabs;
  #covering = 0;
  /** @type {Set<number>} tabs the rule leaves alone */
  #excluded = new Set();
  /** @type {Promise<unknown>} rule writes, one at a time */
  #writes = Promise.resolve();
  /** @type {Map<number, string>} top-level navigations the rule blocked, by tab, not yet sent again */
  #blocked = new Map();
  /** @type {Map<number, BlockedListener>} */
  #listeners = new Map();

  /**
   * @param {{rules?: SessionRules, tabs: {query: (q: object) => Promise<{id?: number}[]>}}} deps `rules`:
   *   chrome.declarativeNetRequest (absent: nothing is covered)
   */
  constructor({ rules, tabs }) {
    this.#rules = rules;
    this.#tabs = tabs;
    // Session rules outlive the service worker: a worker stopped while a hold was on left the rule behind, and
    // nothing is covered at its start, so the rule goes (else the person's new tabs could never POST again).
    this.#write();
  }

  /** Whether the rule is on. */
  get covering() {
    return this.#covering > 0;
  }

  /**
   * A hold begins: the rule is on from now until the last hold ends (every tab that exists now is left out).
   * @param {number} heldTabId the tab the hold acts on (left out also when it is newer than the rule)
   */
  async cover(heldTabId) {
    this.#covering += 1;
    if (this.#covering === 1) {
      const tabs = await this.#tabs.query({}).catch(() => []);
      this.#excluded = new Set([NO_TAB, heldTabId, ...tabs.map((t) => t.id).filter((id) => typeof id === "number")]);
      await this.#write();
      return;
    }
    await this.leaveOut(heldTabId);
  }

  /** A hold ended; the last one takes the rule away. */
  uncover() {
    if (this.#covering === 0) return;
    this.#covering -= 1;
    if (this.#covering > 0) return;
    this.#excluded.clear();
    this.#blocked.clear();
    this.#listeners.clear();
    this.#write();
  }

  /**
   * Leave a tab out of the rule (its requests are held by Fetch now).
   * @param {number} tabId
   */
  async leaveOut(tabId) {
    if (this.#covering === 0 || this.#excluded.has(tabId)) return this.#writes;
    this.#excluded.add(tabId);
    return this.#write();
  }

  /**
   * Call `fn` with the URL of the tab's top-level navigation the rule blocked, now if it already was, or when it
   * is; once.
   * @param {number} tabId
   * @param {BlockedListener} fn
   * @returns {() => void} stop listening
   */
  onBlocked(tabId, fn) {
    const url = this.#blocked.get(tabId);
    if (url !== undefined) {
      this.#blocked.delete(tabId);
      fn(url);
      return () => {};
    }
    this.#listeners.set(tabId, fn);
    return () => {
      if (this.#listeners.get(tabId) === fn) this.#listeners.delete(tabId);
    };
  }

  /**
   * chrome.webNavigation.onErrorOccurred: a top-level navigation of a covered tab failed as blocked by client.
   * @param {{tabId: number, frameId: number, error: string, url: string}} details
   */
  navigationFailed(details) {
    if (this.#covering === 0 || details.frameId !== 0 || !BLOCKED_BY_CLIENT.test(details.error)) return;
    const fn = this.#listeners.get(details.tabId);
    if (fn) {
      this.#listeners.delete(details.tabId);
      fn(details.url);
    } else {
      this.#blocked.set(details.tabId, details.url);
    }
  }

  /** Write the rule as it stands now (removed when nothing is covered), after the writes before it. */
  #write() {
    const rules = this.#rules;
    if (!rules) return Promise.resolve();
    const addRules = this.#covering === 0 ? [] : [{
      id: RULE_ID, priority: 1, action: { type: "block" },
      condition: { requestMethods: CHANGING_METHODS, resourceTypes: BLOCKED_RESOURCES, excludedTabIds: [...this.#excluded] },
    }];
    const written = this.#writes.then(() => rules.updateSessionRules({ removeRuleIds: [RULE_ID], addRules }));
    this.#writes = written.catch((err) => console.warn("bua: could not write the new-tab rule:", err));
    return this.#writes;
  }
}
