/**
 * The session gate around every action (docs/architecture.md, "Sessions"): a task the person stopped answers
 * `stopped` to everything until reopened; an action may only touch tabs of a live session of its own task;
 * navigate/open_tab to a blocked site answer `blocked`; a session follows its tab across domains, and one that
 * lands on a blocked site ends, answering `blocked` (a tab the task's page opened is closed instead).
 *
 * `before` runs ahead of the handler and names the tab the action may use;
 * `after` starts sessions for tabs the action created or opened and checks
 * where each session tab ended up — for a reading action, where its tab is when it read.
 */

import { ACTIONS, ActionError, ErrorCode } from "../protocol.js";
import { domainOf } from "./session-store.js";

/**
 * What an action's declaration says (extension/src/generated/protocol.js, app/protocol/actions/spec.py): whether it
 * opens a session (its `url` is checked first), works without a tab, may move its tab (then the gate looks where the
 * tab went, a chrome.tabs.get of ~0.7 ms; a page that moves on its own is caught by the tabs.onUpdated listener),
 * reads its page (checked where its tab is when it read), closes its tab, or says in its result's `navigated`
 * whether it moved its tab. The gate reads these, never an action's name.
 * @param {string} type
 */
function flags(type) {
  /**
   * @typedef {{opens_session: boolean, needs_tab: boolean, may_navigate: boolean, read_only: boolean,
   *   reads_page: boolean, closes_tab: boolean, says_navigated: boolean}} Flags
   */
  return /** @type {Record<string, Flags>} */ (ACTIONS)[type]
    ?? { opens_session: false, needs_tab: true, may_navigate: true, read_only: false, reads_page: false, closes_tab: false,
      says_navigated: false };
}

/**
 * Whether an action's own result says it navigated its tab (undefined: it does not say): input actions
 * report `effects.navigated`; an action whose declaration `says_navigated` adds `navigated: true` (with the url)
 * only when it did.
 * @param {string} type
 * @param {any} result
 * @returns {boolean | undefined}
 */
function navigatedPerResult(type, result) {
  if (typeof result?.effects?.navigated === "boolean") return result.effects.navigated;
  if (flags(type).says_navigated) return result?.navigated === true;
  return undefined;
}

/**
 * @typedef {import("./session-store.js").SessionStore} SessionStore
 * @typedef {import("./blocklist.js").Blocklist} Blocklist
 */

/**
 * The person stopped this task (Stop, Stop all, End, idle, a blocklist entry): every later action of it, open_tab
 * and navigate included, answers `stopped` until a new instruction from the person reopens it (`reopen_task`).
 * @param {string} reason
 */
export function stoppedError(reason) {
  return new ActionError(ErrorCode.STOPPED, `this task's session ended (${reason}) and the person ended its browser work: do nothing more `
    + "in the browser; report what you did and found so far. Only a new instruction from the person reopens it");
}

/**
 * @param {string | undefined} reason why the task's last session ended, if it did
 * @param {number} [tabId]
 */
function notFound(reason, tabId) {
  const why = reason ? `this task's session ended (${reason})` : tabId === undefined
    ? "this task has no tab yet" : `tab ${tabId} is not in a session of this task`;
  const next = reason ? "navigate or open_tab to continue, or report your partial results"
    : "navigate (without tab_id) or open_tab first";
  return new ActionError(ErrorCode.SESSION_NOT_FOUND, `${why}: ${next}`);
}

/**
 * Following a session tab failed for another reason than a blocked site: the action that asked is answered this.
 * @param {number} tabId
 * @param {unknown} err
 */
function uncheckedError(tabId, err) {
  const why = err instanceof Error ? err.message : String(err);
  return new ActionError(ErrorCode.INTERNAL_ERROR, `bua could not check which site tab ${tabId} is on now (${why}), so `
    + "the action did not run: retry it once; if it fails the same way, report it (the extension's log has the details)");
}

export class SessionGate {
  #sessions;
  #blocklist;
  #tabs;
  #taskTabs;
  /** @type {Map<number, unknown>} session tabs whose last follow failed, and why: checked again before an action */
  #unfollowed = new Map();

  /**
   * @param {{sessions: SessionStore, blocklist: Blocklist, tabs: any, taskTabs: any}} deps
   */
  constructor({ sessions, blocklist, tabs, taskTabs }) {
    this.#sessions = sessions;
    this.#blocklist = blocklist;
    this.#tabs = tabs;
    this.#taskTabs = taskTabs;
  }

  /**
   * Whether a tab is in a live session of this task.
   * @param {string} taskId
   * @param {number} tabId
   */
  holds(taskId, tabId) {
    return this.#sessions.get(tabId)?.task_id === taskId;
  }

  /**
   * @param {string} type
   * @param {Record<string, any>} action
   * @param {string} taskId
   * @returns {Promise<number | undefined>} the tab the action works on, when it needs one
   */
  async before(type, action, taskId) {
    await this.#sessions.ready();
    const stop = this.#sessions.stopReason(taskId);
    if (stop) throw stoppedError(stop);
    const spec = flags(type);
    if (spec.opens_session && typeof action.url === "string") {
      const pattern = await this.#blocklist.check(action.url);
      if (pattern) {
        throw new ActionError(ErrorCode.BLOCKED, `${domainOf(action.url)} is on the person's blocklist (${pattern}); `
          + "do not try to reach it another way: report that the site is blocked");
      }
    }
    if (!spec.needs_tab) return undefined;
    const live = this.#sessions.forTask(taskId);
    const current = await this.#taskTabs.get(taskId);
    const fallback = live.some((s) => s.tab_id === current) ? current : live[0]?.tab_id;
    if (spec.opens_session && action.tab_id === undefined) return fallback;
    const tabId = action.tab_id ?? fallback;
    const session = tabId === undefined ? undefined : this.#sessions.get(tabId);
    if (!session || session.task_id !== taskId) {
      if (action.tab_id !== undefined && !(await this.#tabs.get(action.tab_id).then(() => true, () => false))) {
        throw new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${action.tab_id} does not exist; call get_tabs`);
      }
      throw notFound(live.length === 0 ? this.#sessions.endReason(taskId) : undefined, action.tab_id);
    }
    if (this.#unfollowed.has(tabId)) {
      // Where the tab went was not checked (followTab failed): check now, and do not act on a site unchecked.
      try {
        await this.check(tabId);
      } catch (err) {
        if (err instanceof ActionError) throw err;
        throw uncheckedError(tabId, err);
      }
      this.#unfollowed.delete(tabId);
    }
    if (flags(type).closes_tab) await this.#sessions.end(tabId, "closed_by_agent");
    return tabId;
  }

  /**
   * The browser says a session tab moved (tabs.onUpdated): follow it. Never rejects. A blocked site ends the
   * session (session_ended tells the app why, and the next action answers it), which is the check working, not a
   * failure. Any other failure is logged, and the next action on the tab checks again before it runs, answering
   * internal_error with the next step if it still cannot (uncheckedError).
   * @param {number} tabId
   * @param {{info: Function, warn: Function}} [log]
   * @returns {Promise<"followed" | "blocked" | "failed">}
   */
  async followTab(tabId, log = console) {
    try {
      await this.check(tabId);
      this.#unfollowed.delete(tabId);
      return "followed";
    } catch (err) {
      if (err instanceof ActionError && err.code === ErrorCode.BLOCKED) {
        this.#unfollowed.delete(tabId);
        log.info(`bua: session tab ${tabId} reached a blocked site: ${err.message}`);
        return "blocked";
      }
      this.#unfollowed.set(tabId, err);
      log.warn(`bua: could not check where session tab ${tabId} went; the next action on it checks again:`, err);
      return "failed";
    }
  }

  /** Forget a tab that is gone. @param {number} tabId */
  forgetTab(tabId) {
    this.#unfollowed.delete(tabId);
  }

  /**
   * A tab an action of this task just opened is the task's from that moment (a session on it starts before it
   * has loaded), so that a first navigate that times out still leaves the task its tab.
   * @param {string} taskId
   * @param {string} label
   * @param {number} tabId
   * @param {number} [windowId]
   */
  async claim(taskId, label, tabId, windowId) {
    if (this.#sessions.get(tabId)) return;
    await this.#sessions.start({ taskId, tabId, windowId, url: "", label, openedByAgent: true });
  }

  /**
   * @param {string} type
   * @param {string} taskId
   * @param {string} label
   * @param {number | undefined} tabId the tab `before` allowed (undefined for navigate-new / open_tab)
   * @param {Record<string, any>} result the handler's result
   */
  async after(type, taskId, label, tabId, result) {
    if (flags(type).closes_tab) return;
    // Stopped while the action ran (or by where it went): no session starts for what it opened.
    const stopped = () => this.#sessions.stopReason(taskId);
    const touched = new Set();
    if (!stopped() && flags(type).opens_session && Number.isInteger(result?.tab_id)) {
      const created = tabId === undefined && !this.#sessions.get(result.tab_id);
      if (created) {
        await this.#sessions.start({ taskId, tabId: result.tab_id, windowId: result.window_id, url: result.url ?? "",
          title: result.title ?? "", label, openedByAgent: true });
      }
      touched.add(result.tab_id);
    } else if (stopped() && flags(type).opens_session && Number.isInteger(result?.tab_id)) {
      // The tab it opened stays open for the person, but the stopped task no longer holds it.
      await this.#taskTabs.forgetTab?.(result.tab_id);
    }
    if (tabId !== undefined) touched.add(tabId);
    for (const opened of result?.effects?.new_tabs ?? []) {
      if (stopped() || !Number.isInteger(opened?.tab_id) || this.#sessions.get(opened.tab_id)) continue;
      await this.#sessions.start({ taskId, tabId: opened.tab_id, url: opened.url ?? "", label, openedByAgent: true,
        ...(tabId !== undefined ? { openerTabId: tabId } : {}) });
      touched.add(opened.tab_id);
    }
    // The action's own tab is checked even if the tabs.onUpdated listener already ended its session.
    const reported = [result?.effects?.url, result?.url].filter((u) => typeof u === "string");
    // A reading action is checked where its tab is now (the committed URL, and the URL it read): a redirect chain
    // that ended on a blocked site while it read answers `blocked`, and what it read is dropped.
    const reads = flags(type).reads_page;
    for (const id of touched) {
      if (id === tabId && !reads && !flags(type).may_navigate) continue;
      if (id === tabId && !reads && navigatedPerResult(type, result) === false) continue;
      await this.check(id, id === tabId ? reported : [], id === tabId);
    }
    const stop = stopped();
    if (stop) throw stoppedError(stop);
  }

  /**
   * Where did a session tab end up? Follow it, or end it when it reached a blocked site.
   * @param {number} tabId
   * @param {string[]} [reported] URLs the action itself saw the tab reach (chrome.tabs may lag behind)
   * @param {boolean} [own] the tab the action ran on: checked even when its session already ended
   * @throws {ActionError} blocked
   */
  async check(tabId, reported = [], own = false) {
    const session = this.#sessions.get(tabId);
    if (!session && !own) return;
    let tab;
    try {
      tab = await this.#tabs.get(tabId);
    } catch {
      await this.#sessions.end(tabId, "tab_closed");
      return;
    }
    let url = tab.url || tab.pendingUrl || "";
    let pattern = await this.#blocklist.check(url);
    for (const seen of [tab.pendingUrl, ...reported].filter(Boolean)) {
      if (pattern) break;
      pattern = await this.#blocklist.check(seen);
      if (pattern) url = seen;
    }
    if (pattern && session?.opener_tab_id !== undefined) {
      // A tab the task's page opened (a click, target=_blank, window.open): closed at once; the task goes on.
      await this.#sessions.end(tabId, "blocked_tab_closed");
      await this.#tabs.remove(tabId).catch(() => {});
      throw new ActionError(ErrorCode.BLOCKED, `a tab this page opened went to ${domainOf(url)}, which is on the `
        + `person's blocklist (${pattern}); bua closed that tab: go on in your own tab, do not try to reach it `
        + "another way");
    }
    if (pattern) {
      if (session) await this.#sessions.end(tabId, "blocked");
      throw new ActionError(ErrorCode.BLOCKED, `the tab went to ${domainOf(url)}, which is on the person's blocklist `
        + `(${pattern}); the session ended and no further action runs there: report it`);
    }
    if (session) await this.#sessions.follow(tabId, url, tab.title);
  }
}
