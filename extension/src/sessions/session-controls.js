/**
 * The person's controls arriving from the app: stop_all, end_session,
 * set_blocklist, configure (idle threshold). Each answers what it ended.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { blockedBy } from "./blocklist.js";
import { releaseWindow } from "../input/window-focus.js";
import { forgetTab as forgetSnapshots } from "../extract/snapshots.js";

/**
 * @typedef {import("./session-store.js").SessionStore} SessionStore
 * @typedef {import("./blocklist.js").Blocklist} Blocklist
 */

export class SessionControls {
  #sessions;
  #blocklist;
  #idle;
  #taskTabs;
  #tabs;
  #windows;
  #debugger;

  /**
   * @param {{sessions: SessionStore, blocklist: Blocklist, idle?: any, taskTabs?: any, tabs?: any, windows?: any,
   *   debugger?: {detach: (tabId: number) => Promise<void>}}} deps
   */
  constructor({ sessions, blocklist, idle, taskTabs, tabs, windows, debugger: debuggerController }) {
    this.#tabs = tabs;
    this.#windows = windows;
    this.#sessions = sessions;
    this.#blocklist = blocklist;
    this.#idle = idle;
    this.#taskTabs = taskTabs;
    this.#debugger = debuggerController;
  }

  /**
   * The ended sessions' tabs are the person's again: forgotten by the task and no longer debugged (a debugger
   * left attached to every tab a task ever used is what a long run would pile up).
   * @param {import("./session-store.js").Session[]} ended
   */
  async #forget(ended) {
    for (const s of ended) {
      await this.#taskTabs?.forgetTab?.(s.tab_id);
      await this.#debugger?.detach(s.tab_id);
      forgetSnapshots(s.tab_id); // what the task last saw of the page (extract changes) goes with the session
    }
    return { ended: ended.map((s) => ({ task_id: s.task_id, tab_id: s.tab_id, domain: s.domain })) };
  }

  async stopAll() {
    return this.#forget(await this.#sessions.endWhere(() => true, "stopped"));
  }

  /** @param {Record<string, any>} args */
  async endSession(args) {
    if (typeof args.task_id !== "string") {
      throw new ActionError(ErrorCode.INVALID_ACTION, "end_session needs 'task_id' (and optionally 'tab_id')");
    }
    const reason = typeof args.reason === "string" ? args.reason : "ended_by_user";
    const answer = await this.#forget(await this.#sessions.endWhere(
      (s) => s.task_id === args.task_id && (args.tab_id === undefined || s.tab_id === args.tab_id), reason));
    // Stopping a task that holds no tab right now still stops it (ending one of several tabs does not).
    if (args.tab_id === undefined) await this.#sessions.markStopped(args.task_id, reason);
    return answer;
  }

  /**
   * A new instruction from the person for this task: its stop is lifted (sessions still start one by one).
   * @param {Record<string, any>} args
   */
  async reopenTask(args) {
    if (typeof args.task_id !== "string" || !args.task_id) {
      throw new ActionError(ErrorCode.INVALID_ACTION, "reopen_task needs 'task_id'");
    }
    const was = await this.#sessions.reopen(args.task_id);
    return { task_id: args.task_id, reopened: was !== undefined, ...(was ? { was_stopped: was } : {}) };
  }

  /** @param {Record<string, any>} args */
  async setBlocklist(args) {
    if (!Array.isArray(args.patterns) || !args.patterns.every((p) => typeof p === "string")) {
      throw new ActionError(ErrorCode.INVALID_ACTION, "set_blocklist needs 'patterns': a list of domains");
    }
    await this.#blocklist.replace(args.patterns);
    const patterns = await this.#blocklist.patterns();
    const blocked = (/** @type {{url: string}} */ s) => blockedBy(patterns, s.url) !== null;
    return { patterns, ...(await this.#forget(await this.#sessions.endWhere(blocked, "blocked"))) };
  }

  /** @param {Record<string, any>} args */
  async configure(args) {
    const seconds = Number(args.idle_threshold_s);
    if (!Number.isFinite(seconds) || seconds < 15) {
      throw new ActionError(ErrorCode.INVALID_ACTION, "idle_threshold_s must be a number of seconds, at least 15");
    }
    this.#idle?.setDetectionInterval(Math.round(seconds));
    return { idle_threshold_s: Math.round(seconds) };
  }

  /**
   * Bring a session tab to the front for the person (a hand-off: "Show tab"). Only tabs in a session.
   * @param {Record<string, any>} args
   */
  async showTab(args) {
    const session = this.#sessions.get(args.tab_id);
    if (!session) {
      throw new ActionError(ErrorCode.SESSION_NOT_FOUND, `tab ${args.tab_id} is not in a live session; see the sessions list`);
    }
    const tab = await this.#tabs.update(args.tab_id, { active: true });
    releaseWindow(tab.windowId);
    await this.#windows?.update(tab.windowId, { focused: true, state: "normal" });
    return { tab_id: args.tab_id, window_id: tab.windowId };
  }

  /** The person went idle or locked the screen: every session ends. */
  async onIdle() {
    return this.#forget(await this.#sessions.endWhere(() => true, "idle"));
  }
}
