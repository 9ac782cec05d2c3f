/**
 * Routes each message from the host by envelope `kind` (request, control,
 * event): a request goes through the action steps (run-action.js), a control
 * op to its entry in the ops table (control-ops.js). It never throws: every
 * request or control with an id gets exactly one response, and any unexpected
 * exception becomes `internal_error`.
 */

import {
  ACTIONS,
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
import { CONTROL_TABLE } from "./control-ops.js";
import { runAction } from "./run-action.js";

/**
 * @typedef {import("../actions/support/context.js").Services} Services
 * @typedef {import("../actions/support/context.js").ActionContext} ActionContext
 * @typedef {(action: Record<string, unknown>, ctx: ActionContext) => Promise<unknown>} ActionHandler
 * @typedef {Pick<import("../sessions/session-gate.js").SessionGate, "before" | "after" | "holds"> &
 *   Partial<Pick<import("../sessions/session-gate.js").SessionGate, "claim">>} Gate session authorisation around
 *   each action
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
  #tabFeed;

  /**
   * @param {object} deps
   * @param {(msg: unknown) => boolean} deps.send posts to the host; false when not connected
   * @param {Record<string, ActionHandler>} deps.actions implemented action types
   * @param {Services} deps.services
   * @param {string} deps.extensionVersion
   * @param {() => Promise<void> | void} [deps.onHostReady] the host reached the app
   * @param {{info: Function, warn: Function}} [deps.log]
   * @param {Gate} deps.gate session authorisation around each action; required (tests pass a permissive one
   *   explicitly)
   * @param {import("../sessions/session-controls.js").SessionControls} [deps.controls] stop_all, end_session, …
   * @param {import("./in-flight.js").InFlight} [deps.inFlight] running requests, aborted by those controls
   * @param {Pick<import("../safety/confirmations.js").Confirmations, "check">} [deps.confirmations]
   *   asks the person before a sensitive action reaches the page (background.js always passes it)
   * @param {import("../safety/network-hold.js").NetworkHolds} [deps.holds] holds what the page sends while an
   *   action acts on a session tab (background.js always passes it)
   * @param {import("../safety/network-strict.js").StrictSetting} [deps.strict] the person's strict-mode setting
   * @param {Pick<import("../tabs/tab-feed.js").TabFeed, "settle">} [deps.tabFeed] the tab state the app mirrors:
   *   settled before each answer, so an answer never overtakes the tab changes it caused
   */
  constructor({ send, actions, services, extensionVersion, onHostReady = () => {}, log = console, gate, controls, inFlight,
    confirmations, holds, strict, tabFeed }) {
    if (!gate) throw new Error("ActionDispatcher needs a session gate: actions never run unchecked");
    this.#gate = gate;
    this.#controls = controls;
    this.#inFlight = inFlight;
    this.#confirmations = confirmations;
    this.#holds = holds;
    this.#strict = strict;
    this.#tabFeed = tabFeed;
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
    const m = /** @type {Record<string, unknown>} */ (msg);
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

  /** @param {Record<string, unknown>} m */
  async #handleRequest(m) {
    if (!hasId(m)) {
      this.#log.warn("bua: ignoring a request without an id");
      return;
    }
    const deps = { actions: this.#actions, services: this.#services, gate: this.#gate, inFlight: this.#inFlight,
      confirmations: this.#confirmations, holds: this.#holds };
    await runAction(m, deps, {
      answer: async (outcome, run) => {
        // An action that may change tabs settles the tab state first, even with no change noticed yet; a
        // reading one only waits for a change already noticed (a session it ended).
        const readOnly = run.type !== undefined && /** @type {{read_only?: boolean}} */ (ACTIONS[run.type])?.read_only;
        await this.#settleTabs(run.type !== undefined && !readOnly);
        if (outcome.ok) this.#reply(okResponse(m.id, outcome.result));
        else this.#replyError(m.id, outcome.error);
      },
      report: (run, ok) => {
        const result = /** @type {{tab_id?: unknown} | null | undefined} */ (run.result);
        const resultTab = Number.isInteger(result?.tab_id) ? /** @type {number} */ (result?.tab_id) : undefined;
        this.#reportAction(run.taskId, run.type, run.flight?.tabId() ?? resultTab ?? run.allowedTab, ok);
      },
    });
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

  /** @param {Record<string, unknown>} m */
  async #handleControl(m) {
    if (!hasId(m)) {
      this.#log.warn("bua: ignoring a control message without an id");
      return;
    }
    const op = typeof m.op === "string" && Object.hasOwn(CONTROL_TABLE, m.op) ? CONTROL_TABLE[m.op] : undefined;
    if (!op) {
      this.#reject(m.id, `unknown control op ${describe(m.op)}; valid ops: ${CONTROL_OPS.join(", ")}`);
      return;
    }
    const deps = { extensionVersion: this.#extensionVersion, controls: this.#controls, inFlight: this.#inFlight,
      holds: this.#holds, strict: this.#strict };
    if (op.needs && !deps[op.needs]) {
      this.#reject(m.id, `control op '${m.op}' is not available in this extension build`);
      return;
    }
    const result = await op.run(isObject(m.args) ? m.args : {}, deps);
    await this.#settleTabs(op.needs === "controls"); // the session controls end, stop and reopen tasks' sessions
    this.#reply(okResponse(m.id, result));
  }

  /**
   * The tab state the app mirrors is sent before an answer (extension/src/tabs/tab-feed.js); a failure to read
   * it never holds the answer back.
   * @param {boolean} force
   */
  async #settleTabs(force) {
    try {
      await this.#tabFeed?.settle(force);
    } catch (err) {
      this.#log.warn("bua: could not settle the tab state before an answer:", err);
    }
  }

  /** @param {Record<string, unknown>} m */
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
   * @param {Record<string, unknown>} m
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
