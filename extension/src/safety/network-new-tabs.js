/**
 * The first requests of a tab that a session tab opens (a form with target=_blank, `window.open` and a submit into
 * it, a popup opened between actions): README "Safety model"; docs/architecture.md "Safety".
 *
 * No CDP session an extension can hold sees them: auto-attach on the tab's page reaches its frames and workers but
 * not the popups it opens (Chromium attaches those only from the browser target, which chrome.debugger may not
 * attach to), and the opener's Fetch does not see the popup's navigation. A declarativeNetRequest session rule
 * can block but not pause, so while any session tab is held, two rules block, in the tabs that did not exist
 * when the first hold began, every request that can change something (any method but GET, HEAD and OPTIONS) and
 * every top-level GET whose URL can carry data another site showed (network-url-data.js URL_DATA_PATTERNS: a query,
 * userinfo, a host label with a run of six digits, or a path that can hold what the app's data-flow memory holds,
 * app/safety/dataflow.py: digit runs, tokens that are not plain words, by a digit, a symbol or their letter case,
 * encoded phrases), and every other read with such a URL (an image, a script, a fetch, a frame: a popup's first
 * moment reads before its hold can be on, and the hold would check each such read to another host, carriesAway);
 * the held tabs, tabs known to be the person's, and requests of no tab (tabs.TAB_ID_NONE: service workers) are left
 * out. A GET whose path is plain words, such as an ordinary target=_blank link to `/help/delivery-times`, is never
 * touched; one with a digit or a mixed-case token in its path is blocked and loaded again through the hold, which asks only when it
 * carries what another site showed.
 *
 * A tab a session tab opens joins its task (sessions/opened-tabs.js), so its own hold begins
 * (network-hold.js): Fetch on in it first, then it is left out of the rules, then a top-level navigation they
 * blocked is reloaded. Chromium keeps a failed POST's body with its history entry, and a reload sends the same
 * method, body, content type and Origin again, so the request now reaches the hold whole and is judged like any
 * other: Allow lets it load, Deny fails it (the tab keeps the blocked page). What the rules block in such a tab
 * that is not a top-level navigation (a script's POST, an image of another site, in the moment before Fetch is on
 * in it) fails: webRequest.onErrorOccurred sees it fail (requestFailed); once the tab's hold is on, a tab whose
 * page is a web page is loaded again through it (network-hold.js), so what the page sends as it loads goes out
 * judged, and the task's next action says what the rules failed (`effects.unsent_requests`), so the model knows.
 *
 * A tab the person opens is left out as soon as it is known to be theirs (tabs.onCreated with an opener that is
 * no session tab; without an opener, webNavigation.onCreatedNavigationTarget from a tab that is no session tab, or
 * its first navigation with no session tab behind it), and a navigation of it the rules blocked in the meantime
 * is reloaded.
 */

import { URL_DATA_PATTERNS } from "./network-url-data.js";

/** The rules' ids among the extension's session rules: changing requests, top-level GETs that can carry data (one
 *  rule for each of network-url-data.js's patterns, from DATA_RULE_ID on), and other reads that can (one for each
 *  pattern, from READ_RULE_ID on). */
export const RULE_ID = 1901;
export const DATA_RULE_ID = 1902;
export const READ_RULE_ID = DATA_RULE_ID + URL_DATA_PATTERNS.length;
const RULE_IDS = [RULE_ID, ...URL_DATA_PATTERNS.map((_, i) => DATA_RULE_ID + i), ...URL_DATA_PATTERNS.map((_, i) => READ_RULE_ID + i)];
const CHANGING_METHODS = ["post", "put", "patch", "delete", "connect", "other"];
const BLOCKED_RESOURCES = ["main_frame", "sub_frame", "xmlhttprequest", "ping", "other"];
/** Every resource type but a top-level navigation (declarativeNetRequest's names): any read can carry data away. */
const READS = ["sub_frame", "stylesheet", "script", "image", "font", "object", "xmlhttprequest", "ping", "csp_report",
  "media", "websocket", "webtransport", "webbundle", "other"];
/** chrome.tabs.TAB_ID_NONE: requests of no tab. */
const NO_TAB = -1;
const BLOCKED_BY_CLIENT = /ERR_BLOCKED_BY_CLIENT/;
/** How long after a tab was left out a request failed as blocked by client may still be the rules' doing. */
const LEFT_OUT_GRACE_MS = 2000;

/**
 * @typedef {{updateSessionRules: (change: {removeRuleIds?: number[], addRules?: object[]}) => Promise<void>}} SessionRules
 * @typedef {(url: string) => void} BlockedListener
 * @typedef {{method: string, url: string, type: string, documentUrl: string}} BlockedRequest `documentUrl`: the page
 *   that sent it ("" when not told)
 */

export class NewTabCover {
  #rules;
  #tabs;
  #covering = 0;
  /** @type {Set<number>} tabs the rule leaves alone */
  #excluded = new Set();
  /** @type {Map<number, number>} when the rule was last written without a tab it covered before (ms since epoch;
   *   infinity while that write is under way) */
  #leftOutAt = new Map();
  /** @type {Promise<unknown>} rule writes, one at a time */
  #writes = Promise.resolve();
  /** @type {Map<number, string>} top-level navigations the rule blocked, by tab, not yet sent again */
  #blocked = new Map();
  /** @type {Map<number, BlockedListener>} */
  #listeners = new Map();
  /** @type {Set<number>} new tabs with no opener, not yet known to be a session tab's or the person's */
  #undecided = new Set();
  #isSessionTab;
  /** @type {(tabId: number, request: BlockedRequest) => void} */
  #onUnsent = () => {};

  /**
   * @param {{rules?: SessionRules, tabs: {query: (q: object) => Promise<{id?: number}[]>, reload?: (tabId: number) => Promise<unknown>},
   *   isSessionTab?: (tabId: number) => boolean}} deps `rules`: chrome.declarativeNetRequest (absent: nothing is
   *   covered); `isSessionTab`: whether a tab is a task's (absent: none is, every new tab is the person's)
   */
  constructor({ rules, tabs, isSessionTab = () => false }) {
    this.#rules = rules;
    this.#tabs = tabs;
    this.#isSessionTab = isSessionTab;
    // Session rules outlive the service worker: a worker stopped while a hold was on left the rule behind, and
    // nothing is covered at its start, so the rule goes (else the person's new tabs could never POST again).
    this.#write();
  }

  /** Whether the rule is on. */
  get covering() {
    return this.#covering > 0;
  }

  /**
   * A hold begins: the rules are on from now until the last hold ends (every tab that exists when the first
   * begins is left out). A later hold's tab stays covered until the hold leaves it out (once Fetch is on in it).
   */
  async cover() {
    this.#covering += 1;
    if (this.#covering > 1) return this.#writes;
    const tabs = await this.#tabs.query({}).catch(() => []);
    this.#excluded = new Set([NO_TAB, ...tabs.map((t) => t.id).filter((id) => typeof id === "number")]);
    return this.#write();
  }

  /** A hold ended; the last one takes the rule away. */
  uncover() {
    if (this.#covering === 0) return;
    this.#covering -= 1;
    if (this.#covering > 0) return;
    this.#excluded.clear();
    this.#leftOutAt.clear();
    this.#blocked.clear();
    this.#listeners.clear();
    this.#undecided.clear();
    this.#write();
  }

  /**
   * chrome.tabs.onCreated: a tab opened by a tab that is no session tab is the person's; one with no opener is
   * decided by what comes next.
   * @param {{id?: number, openerTabId?: number}} tab
   */
  tabCreated(tab) {
    if (this.#covering === 0 || tab.id === undefined) return;
    if (tab.openerTabId === undefined) this.#undecided.add(tab.id);
    else if (!this.#isSessionTab(tab.openerTabId)) this.#forPerson(tab.id);
  }

  /**
   * webNavigation.onCreatedNavigationTarget (also for links and window.open with noopener): opened by a session
   * tab, it stays covered until its own hold is on; opened by another tab, it is the person's.
   * @param {{sourceTabId: number, tabId: number}} details
   */
  navigationTarget(details) {
    if (this.#covering === 0) return;
    this.#undecided.delete(details.tabId);
    if (!this.#isSessionTab(details.sourceTabId)) this.#forPerson(details.tabId);
  }

  /**
   * webNavigation.onCommitted: a tab with no opener whose first navigation commits with no session tab behind it
   * (a new tab the person opened and typed into) is the person's.
   * @param {{tabId: number, frameId: number}} details
   */
  committed(details) {
    if (details.frameId === 0 && this.#undecided.delete(details.tabId) && !this.#isSessionTab(details.tabId)) {
      this.#forPerson(details.tabId);
    }
  }

  /**
   * Leave the person's tab out, and reload a navigation of it the rules blocked before that.
   * @param {number} tabId
   */
  #forPerson(tabId) {
    this.leaveOut(tabId).then(() => {
      if (this.#covering === 0) return;
      this.onBlocked(tabId, () => this.#tabs.reload?.(tabId).catch(() => {}));
    });
  }

  /**
   * Leave a tab out of the rule (its requests are held by Fetch now).
   * @param {number} tabId
   */
  async leaveOut(tabId) {
    if (this.#covering === 0 || this.#excluded.has(tabId)) return this.#writes;
    this.#excluded.add(tabId);
    // the rule still covers the tab until the write reaches the network: a failure while it is written is the rule's
    this.#leftOutAt.set(tabId, Number.POSITIVE_INFINITY);
    await this.#write();
    this.#leftOutAt.set(tabId, Date.now());
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
   * Be told of each request the rules failed in a covered tab that is not its top-level navigation (which is
   * loaded again instead): it is not sent again.
   * @param {(tabId: number, request: BlockedRequest) => void} fn
   */
  onUnsent(fn) {
    this.#onUnsent = fn;
  }

  /**
   * chrome.webRequest.onErrorOccurred: a request of a covered tab failed as blocked by client before its hold was
   * on (a script's POST in the first moment of a new tab); a top-level navigation is left to navigationFailed.
   * @param {{tabId: number, type: string, method: string, url: string, error: string, timeStamp: number,
   *   documentUrl?: string, initiator?: string}} details
   */
  requestFailed(details) {
    if (this.#covering === 0 || details.type === "main_frame" || details.tabId === NO_TAB) return;
    if (!BLOCKED_BY_CLIENT.test(details.error)) return;
    // a tab left out since the first hold began (no time: it existed then) is not the rules'; one left out
    // later is theirs until a moment after (the rule change reaches the network a little after it resolves);
    // the hold's own Deny in that moment is told apart by the hold (network-hold.js)
    const leftOut = this.#leftOutAt.get(details.tabId);
    if (this.#excluded.has(details.tabId) && (leftOut === undefined || details.timeStamp > leftOut + LEFT_OUT_GRACE_MS)) return;
    this.#onUnsent(details.tabId, { method: details.method, url: details.url, type: details.type,
      documentUrl: details.documentUrl ?? details.initiator ?? "" });
  }

  /**
   * chrome.webNavigation.onErrorOccurred: a top-level navigation of a covered tab failed as blocked by client.
   * @param {{tabId: number, frameId: number, error: string, url: string}} details
   */
  navigationFailed(details) {
    if (this.#covering === 0 || details.frameId !== 0 || !BLOCKED_BY_CLIENT.test(details.error)) return;
    if (this.#undecided.has(details.tabId) && !this.#isSessionTab(details.tabId)) {
      // no session tab opened it (that would have been told before its navigation began): the person's
      this.#undecided.delete(details.tabId);
      this.#blocked.set(details.tabId, details.url);
      this.#forPerson(details.tabId);
      return;
    }
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
    const excludedTabIds = [...this.#excluded];
    const addRules = this.#covering === 0 ? [] : [{
      id: RULE_ID, priority: 1, action: { type: "block" },
      condition: { requestMethods: CHANGING_METHODS, resourceTypes: BLOCKED_RESOURCES, excludedTabIds },
    }, ...URL_DATA_PATTERNS.map(({ regex, caseSensitive }, i) => ({
      id: DATA_RULE_ID + i, priority: 1, action: { type: "block" },
      condition: { requestMethods: ["get"], resourceTypes: ["main_frame"], regexFilter: regex,
        isUrlFilterCaseSensitive: caseSensitive, excludedTabIds },
    })), ...URL_DATA_PATTERNS.map(({ regex, caseSensitive }, i) => ({
      // any host's, the page's own too (`/app.js?v=3`: such a popup is loaded twice): `domainType: "thirdParty"`
      // let a popup's image from another site through (measured, tests/e2e/test_network_hold_between.py)
      id: READ_RULE_ID + i, priority: 1, action: { type: "block" },
      condition: { requestMethods: ["get"], resourceTypes: READS, regexFilter: regex,
        isUrlFilterCaseSensitive: caseSensitive, excludedTabIds },
    }))];
    const written = this.#writes.then(() => rules.updateSessionRules({ removeRuleIds: RULE_IDS, addRules }));
    this.#writes = written.catch((err) => console.warn("bua: could not write the new-tab rule:", err));
    return this.#writes;
  }
}
