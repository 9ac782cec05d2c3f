/**
 * Routes each message from the host by envelope `kind` (request, control,
 * event) and each request by action `type`. It never throws: every request
 * or control with an id gets exactly one response, and any unexpected
 * exception becomes `internal_error`.
 */

import {
  ACTIONS,
  ACTION_TYPES,
  CONTROL_OPS,
  ErrorCode,
  MAX_OUTBOUND_BYTES,
  PROTOCOL_VERSION,
  errorResponse,
  eventMessage,
  hasId,
  okResponse,
  toErrorBody,
} from "../protocol.js";
import { stoppableDebugger } from "./in-flight.js";

/**
 * @typedef {import("../actions/support/context.js").Services} Services
 * @typedef {import("../actions/support/context.js").ActionContext} ActionContext
 * @typedef {(action: Record<string, unknown>, ctx: ActionContext) => Promise<unknown>} ActionHandler
 */

/** @param {unknown} value */
function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** @param {unknown} value */
function describe(value) {
  return JSON.stringify(value)?.slice(0, 100) ?? String(value);
}

export class ActionDispatcher {
  #send;
  #actions;
  #services;
  #extensionVersion;
  #onHostReady;
  #log;
  #gate;
  #controls;
  #inFlight;
  #confirmations;
  #holds;
  #strict;

  /**
   * @param {object} deps
   * @param {(msg: unknown) => boolean} deps.send posts to the host; false when not connected
   * @param {Record<string, ActionHandler>} deps.actions implemented action types
   * @param {Services} deps.services
   * @param {string} deps.extensionVersion
   * @param {() => Promise<void> | void} [deps.onHostReady] the host reached the app
   * @param {{info: Function, warn: Function}} [deps.log]
   * @param {Pick<import("../sessions/session-gate.js").SessionGate, "before" | "after" | "holds"> &
   *   Partial<Pick<import("../sessions/session-gate.js").SessionGate, "claim">>} deps.gate session
   *   authorisation around each action; required (tests pass a permissive one explicitly)
   * @param {import("../sessions/session-controls.js").SessionControls} [deps.controls] stop_all, end_session, …
   * @param {import("./in-flight.js").InFlight} [deps.inFlight] running requests, aborted by those controls
   * @param {Pick<import("../safety/confirmations.js").Confirmations, "check">} [deps.confirmations]
   *   asks the person before a sensitive action reaches the page (background.js always passes it)
   * @param {import("../safety/network-hold.js").NetworkHolds} [deps.holds] holds what the page sends while an
   *   action acts on a session tab (background.js always passes it)
   * @param {import("../safety/network-strict.js").StrictSetting} [deps.strict] the person's strict-mode setting
   */
  constructor({ send, actions, services, extensionVersion, onHostReady = () => {}, log = console, gate, controls, inFlight,
    confirmations, holds, strict }) {
    if (!gate) throw new Error("ActionDispatcher needs a session gate: actions never run unchecked");
    this.#gate = gate;
    this.#controls = controls;
    this.#inFlight = inFlight;
    this.#confirmations = confirmations;
    this.#holds = holds;
    this.#strict = strict;
    this.#send = send;
    this.#actions = actions;
    this.#services = services;
    this.#extensionVersion = extensionVersion;
    this.#onHostReady = onHostReady;
    this.#log = log;
  }

  /**
   * Handle one message from the host. Resolves once it is answered.
   * @param {unknown} msg
   * @returns {Promise<void>}
   */
  async handle(msg) {
    try {
      await this.#route(msg);
    } catch (err) {
      if (hasId(msg)) {
        this.#replyError(msg.id, err);
      } else {
        this.#log.warn("bua: failed to handle message:", err);
      }
    }
  }

  /** @param {unknown} msg */
  async #route(msg) {
    if (!isObject(msg)) {
      this.#log.warn("bua: ignoring a message that is not an object:", describe(msg));
      return;
    }
    const m = /** @type {Record<string, any>} */ (msg);
    if (m.v !== PROTOCOL_VERSION) {
      this.#rejectIfAnswerable(m, `unsupported protocol version ${describe(m.v)}; this extension speaks v: ${PROTOCOL_VERSION}`);
      return;
    }
    switch (m.kind) {
      case "request":
        return this.#handleRequest(m);
      case "control":
        return this.#handleControl(m);
      case "event":
        return this.#handleEvent(m);
      case "response":
        this.#log.warn("bua: ignoring a response sent to the extension:", describe(m.id));
        return;
      default:
        this.#rejectIfAnswerable(m, `unknown kind ${describe(m.kind)}; the extension accepts 'request', 'control' and 'event'`);
    }
  }

  /** @param {Record<string, any>} m */
  async #handleRequest(m) {
    if (!hasId(m)) {
      this.#log.warn("bua: ignoring a request without an id");
      return;
    }
    const action = m.action;
    if (!isObject(action) || typeof action.type !== "string") {
      this.#reject(m.id, `'action' must be an object with a string 'type', one of: ${ACTION_TYPES.join(", ")}`);
      return;
    }
    const type = /** @type {keyof typeof ACTIONS} */ (action.type);
    if (!ACTION_TYPES.includes(type)) {
      this.#reject(m.id, `unknown action type ${describe(type)}; valid types: ${ACTION_TYPES.join(", ")}`);
      return;
    }
    const handler = this.#actions[type];
    if (!handler) {
      this.#reject(m.id, `'${type}' is not implemented yet in this extension version`);
      return;
    }
    const missing = ACTIONS[type].required.filter((/** @type {string} */ field) => action[field] === undefined || action[field] === null);
    if (missing.length > 0) {
      this.#reject(m.id, `'${type}' needs ${missing.map((f) => `'${f}'`).join(" and ")}`);
      return;
    }
    const taskId = typeof m.task_id === "string" ? m.task_id : "";
    const flight = this.#inFlight?.begin(m.id, taskId, Number.isInteger(action.tab_id) ? action.tab_id : undefined);
    try {
      const label = typeof m.task_label === "string" && m.task_label ? m.task_label : taskId;
      /** @type {ActionContext} */
      const ctx = { ...this.#services, taskId, requestId: m.id,
        claimTab: (tabId, windowId) => this.#gate.claim?.(taskId, label, tabId, windowId) ?? Promise.resolve() };
      if (flight) {
        Object.assign(ctx, { signal: flight.signal, noteTab: flight.setTab,
          debugger: stoppableDebugger(this.#services.debugger, flight.signal) });
      }
      const allowedTab = await this.#gate.before(type, action, taskId);
      const run = allowedTab !== undefined && action.tab_id === undefined ? { ...action, tab_id: allowedTab } : action;
      if (allowedTab !== undefined) flight?.setTab(allowedTab);
      let ok = false;
      /** @type {number | undefined} */
      let resultTab;
      try {
        await this.#confirmations?.check(type, action, run, ctx, m.approval);
        const hold = allowedTab !== undefined && !ACTIONS[type].read_only
          ? await this.#holds?.begin(ctx, allowedTab, type, { approved: typeof m.approval === "string" }) : undefined;
        let result;
        try {
          const done = await handler(run, ctx);
          result = hold ? await hold.settle(done) : done;
        } finally {
          hold?.linger();
        }
        resultTab = Number.isInteger(/** @type {any} */ (result)?.tab_id) ? /** @type {any} */ (result).tab_id : undefined;
        await this.#gate.after(type, taskId, label, allowedTab, result ?? {});
        this.#reply(okResponse(m.id, result ?? {}));
        ok = true;
      } catch (err) {
        this.#replyError(m.id, err);
      }
      this.#reportAction(taskId, type, flight?.tabId() ?? resultTab ?? allowedTab, ok);
    } finally {
      flight?.end();
    }
  }

  /**
   * @param {string | number} id
   * @param {unknown} err
   */
  #replyError(id, err) {
    const { code, message, ...details } = toErrorBody(err);
    this.#reply(errorResponse(id, code, message, details));
  }

  /**
   * After the answer: tell the app which session tab an action worked on (its "last action" column).
   * @param {string} taskId
   * @param {string} type
   * @param {number | undefined} tabId
   * @param {boolean} ok
   */
  #reportAction(taskId, type, tabId, ok) {
    if (tabId === undefined || !this.#gate.holds(taskId, tabId)) return;
    this.#send(eventMessage("action_done", { task_id: taskId, tab_id: tabId, action: type, ok }));
  }

  /** @param {Record<string, any>} m */
  async #handleControl(m) {
    if (!hasId(m)) {
      this.#log.warn("bua: ignoring a control message without an id");
      return;
    }
    switch (m.op) {
      case "ping":
        this.#reply(okResponse(m.id, { pong: true, extension_version: this.#extensionVersion }));
        return;
      case "cancel": {
        // The app settled these requests already (their callers gave up on them); stop their work here too.
        const args = isObject(m.args) ? m.args : {};
        const ids = args.request_ids;
        if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
          this.#reject(m.id, "cancel needs 'request_ids': a list of the ids of requests in flight");
          return;
        }
        const reason = typeof args.reason === "string" ? args.reason : "cancelled";
        this.#reply(okResponse(m.id, { aborted: this.#inFlight?.abortRequests(ids, reason) ?? 0 }));
        return;
      }
      case "answer_hold": {
        const args = isObject(m.args) ? m.args : {};
        if (typeof args.hold_id !== "string" || (args.decision !== "allow" && args.decision !== "deny")) {
          this.#reject(m.id, "answer_hold needs 'hold_id' (from a request_held event) and 'decision': 'allow' or 'deny'");
          return;
        }
        const why = Array.isArray(args.why) ? args.why.map(String) : [];
        const waited = this.#holds?.answer(args.hold_id, { decision: args.decision, asked: args.asked === true, why }) ?? false;
        this.#reply(okResponse(m.id, { hold_id: args.hold_id, waited }));
        return;
      }
      case "set_strict_mode":
        if (!this.#strict) {
          this.#reject(m.id, "control op 'set_strict_mode' is not available in this extension build");
          return;
        }
        this.#reply(okResponse(m.id, await this.#strict.set(isObject(m.args) ? m.args : {})));
        return;
      case "stop_all":
      case "end_session":
      case "set_blocklist":
      case "configure":
      case "show_tab":
      case "reopen_task": {
        if (!this.#controls) {
          this.#reject(m.id, `control op '${m.op}' is not available in this extension build`);
          return;
        }
        const args = isObject(m.args) ? m.args : {};
        // Stop the work in the browser first, then end the sessions.
        if (m.op === "stop_all") {
          this.#inFlight?.abortWhere(() => true, "Stop all");
          this.#holds?.endWhere(() => true, "Stop all");
        }
        if (m.op === "end_session" && typeof args.task_id === "string") {
          this.#inFlight?.abortWhere((r) => r.taskId === args.task_id
            && (args.tab_id === undefined || r.tabId === undefined || r.tabId === args.tab_id), "the session was ended");
          this.#holds?.endWhere((h) => h.taskId === args.task_id && (args.tab_id === undefined || h.tabId === args.tab_id),
            "the session was ended");
        }
        const controls = this.#controls;
        /** @type {Record<string, () => Promise<any>>} */
        const ops = {
          stop_all: () => controls.stopAll(),
          end_session: () => controls.endSession(args),
          set_blocklist: () => controls.setBlocklist(args),
          configure: () => controls.configure(args),
          show_tab: () => controls.showTab(args),
          reopen_task: () => controls.reopenTask(args),
        };
        const answer = await ops[m.op]();
        const ended = Array.isArray(answer?.ended) ? answer.ended : [];
        if (m.op === "set_blocklist" && ended.length > 0) {
          this.#inFlight?.abortWhere((r) => ended.some((/** @type {any} */ s) => s.tab_id === r.tabId), "the site was blocked");
        }
        this.#reply(okResponse(m.id, answer));
        return;
      }
      default:
        this.#reject(m.id, `unknown control op ${describe(m.op)}; valid ops: ${CONTROL_OPS.join(", ")}`);
    }
  }

  /** @param {Record<string, any>} m */
  async #handleEvent(m) {
    switch (m.type) {
      case "host_ready":
        await this.#onHostReady();
        return;
      case "host_error":
        this.#log.warn("bua: native host reported an error:", describe(m.data));
        return;
      default:
        this.#log.info("bua: ignoring event", describe(m.type));
    }
  }

  /**
   * @param {Record<string, any>} m
   * @param {string} message
   */
  #rejectIfAnswerable(m, message) {
    if (hasId(m)) this.#reject(m.id, message);
    else this.#log.warn(`bua: ignoring message: ${message}`);
  }

  /**
   * @param {string | number} id
   * @param {string} message
   */
  #reject(id, message) {
    this.#reply(errorResponse(id, ErrorCode.INVALID_ACTION, message));
  }

  /**
   * Post a response; if posting throws (e.g. a result over Chrome's 64 MiB
   * limit), answer the same id with an error instead so the app is not left waiting.
   * @param {{id: string | number} & Record<string, unknown>} response
   */
  #reply(response) {
    try {
      if (!this.#send(response)) this.#log.warn(`bua: not connected; dropped the response to ${describe(response.id)}`);
      return;
    } catch (err) {
      const size = JSON.stringify(response)?.length ?? 0;
      const fallback = size > MAX_OUTBOUND_BYTES
        ? errorResponse(response.id, ErrorCode.PAYLOAD_TOO_LARGE,
          `the result is ${size} bytes, over the ${MAX_OUTBOUND_BYTES}-byte limit; ask for less (a smaller screenshot, a selector, max_chars)`)
        : errorResponse(response.id, ErrorCode.INTERNAL_ERROR, `could not send the response: ${toErrorBody(err).message}`);
      try {
        this.#send(fallback);
      } catch (again) {
        this.#log.warn("bua: could not send a response:", again);
      }
    }
  }
}
