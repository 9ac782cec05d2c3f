/**
 * The requests the extension is working on, so that Stop also stops the work
 * here and not only the waiting in the app: Stop all, the end of a task's
 * session and a blocklist entry abort the matching requests. An aborted
 * request's CDP commands fail from then on (each handler's next step throws
 * `stopped`, so a wait_for stops polling and an effects window stops
 * reading).
 *
 * A script still running in the page cannot be cut off from here: Chrome
 * answers Runtime.terminateExecution from an extension with "not allowed for
 * untrusted clients" (measured on Chromium 156), and the pause-then-terminate
 * route needs the Debugger domain enabled before the script starts. Such a
 * script runs until evaluate's own time limit, at which V8 ends it.
 */

import { ActionError, ErrorCode } from "../protocol.js";

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {{taskId: string, tabId: number | undefined, controller: AbortController}} Running
 */

/** @param {string} reason */
export function stoppedError(reason) {
  return new ActionError(ErrorCode.STOPPED,
    `stopped: ${reason}; the action was cut off where it was (nothing more is done in the page from here)`);
}

export class InFlight {
  /** @type {Map<string | number, Running>} */
  #running = new Map();

  /**
   * Note a request as started.
   * @param {string | number} requestId
   * @param {string} taskId
   * @param {number | undefined} tabId its tab when known up front
   * @returns {{signal: AbortSignal, setTab: (tabId: number) => void, tabId: () => number | undefined, end: () => void}}
   */
  begin(requestId, taskId, tabId) {
    const controller = new AbortController();
    /** @type {Running} */
    const running = { taskId, tabId, controller };
    this.#running.set(requestId, running);
    return {
      signal: controller.signal,
      setTab: (id) => {
        running.tabId = id;
      },
      tabId: () => running.tabId,
      end: () => {
        if (this.#running.get(requestId) === running) this.#running.delete(requestId);
      },
    };
  }

  /** @returns {number} requests running now */
  get size() {
    return this.#running.size;
  }

  /**
   * Abort these running requests (the app's `cancel`: their callers gave up on them, e.g. an MCP client's
   * cancellation); ids that are not running are skipped.
   * @param {(string | number)[]} requestIds
   * @param {string} reason
   * @returns {number} how many were running
   */
  abortRequests(requestIds, reason) {
    let aborted = 0;
    for (const id of requestIds) {
      const running = this.#running.get(id);
      if (!running) continue;
      this.#running.delete(id);
      running.controller.abort(reason);
      aborted++;
    }
    return aborted;
  }

  /**
   * Abort the running requests that match.
   * @param {(r: {taskId: string, tabId: number | undefined}) => boolean} matches
   * @param {string} reason
   * @returns {number} how many were aborted
   */
  abortWhere(matches, reason) {
    let aborted = 0;
    for (const [id, running] of this.#running) {
      if (!matches(running)) continue;
      this.#running.delete(id);
      running.controller.abort(reason);
      aborted++;
    }
    return aborted;
  }
}

/**
 * The controller as one request sees it: once `signal` is aborted, sending
 * fails with `stopped`, and so does a command that was under way.
 * @param {DebuggerController} dbg
 * @param {AbortSignal} signal
 * @returns {DebuggerController}
 */
export function stoppableDebugger(dbg, signal) {
  const stopped = () => stoppedError(String(signal.reason ?? "stopped by the person"));
  /** @type {DebuggerController["send"]} */
  const send = async (...args) => {
    if (signal.aborted) throw stopped();
    const reply = await dbg.send(...args);
    if (signal.aborted) throw stopped();
    return reply;
  };
  return new Proxy(dbg, {
    get(target, prop) {
      if (prop === "send") return send;
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
