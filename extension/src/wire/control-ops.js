/**
 * The control ops the app sends (app/protocol/envelope.py ControlOp, generated into CONTROL_OPS), one entry
 * each: what the op needs of this extension build and what it does. The dispatcher looks an op up here and
 * nowhere else; test/control-ops.test.js checks that the table and CONTROL_OPS hold the same ops.
 */

import { ActionError, ErrorCode } from "../protocol.js";

/**
 * @typedef {object} ControlDeps what the ops work with (the dispatcher's)
 * @property {string} extensionVersion
 * @property {import("../sessions/session-controls.js").SessionControls} [controls] stop_all, end_session, …
 * @property {import("./in-flight.js").InFlight} [inFlight] running requests, aborted by Stop and friends
 * @property {import("../safety/network-hold.js").NetworkHolds} [holds] requests the page made during an action
 * @property {import("../safety/network-strict.js").StrictSetting} [strict] the person's strict-mode setting
 *
 * @typedef {"controls" | "strict"} ControlNeed a part of the build an op cannot work without
 * @typedef {{needs?: ControlNeed, run: (args: Record<string, unknown>, deps: ControlDeps) => unknown}} ControlOp
 *   `run` answers the op's result (or a promise of it); bad args throw invalid_action naming what is valid
 */

/**
 * An invalid_action error for an op's arguments.
 * @param {string} message what the op needs, and the valid values
 */
const invalid = (message) => new ActionError(ErrorCode.INVALID_ACTION, message);

/**
 * The session controls (the op's entry says it needs them: the dispatcher checked they are there).
 * @param {ControlDeps} deps
 */
const controlsOf = (deps) => /** @type {import("../sessions/session-controls.js").SessionControls} */ (deps.controls);

/** @type {Readonly<Record<string, ControlOp>>} */
export const CONTROL_TABLE = Object.freeze({
  ping: {
    run: (_args, deps) => ({ pong: true, extension_version: deps.extensionVersion }),
  },
  cancel: {
    // The app settled these requests already (their callers gave up on them); stop their work here too.
    run: (args, deps) => {
      const ids = args.request_ids;
      if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
        throw invalid("cancel needs 'request_ids': a list of the ids of requests in flight");
      }
      const reason = typeof args.reason === "string" ? args.reason : "cancelled";
      return { aborted: deps.inFlight?.abortRequests(ids, reason) ?? 0 };
    },
  },
  answer_hold: {
    run: (args, deps) => {
      if (typeof args.hold_id !== "string" || (args.decision !== "allow" && args.decision !== "deny")) {
        throw invalid("answer_hold needs 'hold_id' (from a request_held event) and 'decision': 'allow' or 'deny'");
      }
      const why = Array.isArray(args.why) ? args.why.map(String) : [];
      const waited = deps.holds?.answer(args.hold_id, { decision: args.decision, asked: args.asked === true, why }) ?? false;
      return { hold_id: args.hold_id, waited };
    },
  },
  set_strict_mode: {
    needs: "strict",
    run: (args, deps) => /** @type {import("../safety/network-strict.js").StrictSetting} */ (deps.strict).set(args),
  },
  stop_all: {
    needs: "controls",
    run: (_args, deps) => {
      // Stop the work in the browser first, then end the sessions.
      deps.inFlight?.abortWhere(() => true, "Stop all");
      deps.holds?.endWhere(() => true, "Stop all");
      return controlsOf(deps).stopAll();
    },
  },
  end_session: {
    needs: "controls",
    run: (args, deps) => {
      if (typeof args.task_id === "string") {
        const ends = (/** @type {number | undefined} */ tabId) => args.tab_id === undefined || tabId === undefined || tabId === args.tab_id;
        deps.inFlight?.abortWhere((r) => r.taskId === args.task_id && ends(r.tabId), "the session was ended");
        deps.holds?.endWhere((h) => h.taskId === args.task_id && (args.tab_id === undefined || h.tabId === args.tab_id),
          "the session was ended");
      }
      return controlsOf(deps).endSession(args);
    },
  },
  set_blocklist: {
    needs: "controls",
    run: async (args, deps) => {
      const answer = await controlsOf(deps).setBlocklist(args);
      const ended = Array.isArray(answer?.ended) ? answer.ended : [];
      if (ended.length > 0) {
        deps.inFlight?.abortWhere((r) => ended.some((/** @type {{tab_id?: number}} */ s) => s.tab_id === r.tabId), "the site was blocked");
      }
      return answer;
    },
  },
  configure: { needs: "controls", run: (args, deps) => controlsOf(deps).configure(args) },
  show_tab: { needs: "controls", run: (args, deps) => controlsOf(deps).showTab(args) },
  reopen_task: { needs: "controls", run: (args, deps) => controlsOf(deps).reopenTask(args) },
});
