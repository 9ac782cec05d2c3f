/**
 * The steps one action request goes through, in order (ACTION_STEPS): each a named function of the request's
 * state, so that what happens to an action between the wire and its handler reads as one list.
 *
 * checkRequest → openContext → passSessionGate → askPerson → holdNetwork → runHandler → recordSession
 *
 * The tab is resolved by the session gate (the tab the task may act on) and attached by the handler
 * (targets/action-target.js onTaskTab); a handler's change list is added by its wrapper (actions/index.js).
 * runAction answers the request (one response whatever happens) and then reports how it went.
 */

import { ACTIONS, ACTION_TYPES, ActionError, ErrorCode } from "../protocol.js";
import { stoppableDebugger } from "./in-flight.js";

/**
 * @typedef {import("./action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("./action-dispatcher.js").ActionHandler} ActionHandler
 * @typedef {import("./action-dispatcher.js").Services} Services
 * @typedef {ReturnType<import("./in-flight.js").InFlight["begin"]>} Flight
 * @typedef {Awaited<ReturnType<import("../safety/network-hold.js").NetworkHolds["begin"]>>} Hold
 *
 * @typedef {object} RunDeps what the steps work with (the dispatcher's)
 * @property {Record<string, ActionHandler>} actions
 * @property {Services} services
 * @property {import("./action-dispatcher.js").Gate} gate
 * @property {import("./in-flight.js").InFlight} [inFlight]
 * @property {Pick<import("../safety/confirmations.js").Confirmations, "check">} [confirmations]
 * @property {import("../safety/network-hold.js").NetworkHolds} [holds]
 *
 * @typedef {object} ActionRun one request on its way through the steps
 * @property {Record<string, unknown> & {id: string | number}} message the request envelope
 * @property {keyof typeof ACTIONS} type
 * @property {Record<string, unknown>} action as the app sent it
 * @property {Record<string, unknown>} run as it runs (the tab the gate allowed filled in)
 * @property {ActionHandler} handler
 * @property {string} taskId
 * @property {string} label the task's name for the person
 * @property {ActionContext} ctx
 * @property {Flight | undefined} flight
 * @property {number | undefined} allowedTab the tab the gate let the action work on
 * @property {Hold | undefined} hold
 * @property {unknown} result
 * @property {boolean} gated whether it passed the session gate (then the app hears how it ended)
 *
 * @typedef {(run: ActionRun, deps: RunDeps) => Promise<void>} ActionStep
 */

/** @param {unknown} value */
const describe = (value) => JSON.stringify(value)?.slice(0, 100) ?? String(value);

/** @param {string} message */
const invalid = (message) => new ActionError(ErrorCode.INVALID_ACTION, message);

/**
 * The action is an object of a known type that this build handles, with its required fields.
 * @type {ActionStep}
 */
export async function checkRequest(run, deps) {
  const action = /** @type {Record<string, unknown>} */ (run.message.action);
  if (typeof action !== "object" || action === null || Array.isArray(action) || typeof action.type !== "string") {
    throw invalid(`'action' must be an object with a string 'type', one of: ${ACTION_TYPES.join(", ")}`);
  }
  const type = /** @type {keyof typeof ACTIONS} */ (action.type);
  if (!ACTION_TYPES.includes(type)) throw invalid(`unknown action type ${describe(type)}; valid types: ${ACTION_TYPES.join(", ")}`);
  const handler = deps.actions[type];
  if (!handler) throw invalid(`'${type}' is not implemented yet in this extension version`);
  const missing = ACTIONS[type].required.filter((/** @type {string} */ field) => action[field] === undefined || action[field] === null);
  if (missing.length > 0) throw invalid(`'${type}' needs ${missing.map((f) => `'${f}'`).join(" and ")}`);
  Object.assign(run, { type, action, run: action, handler });
}

/**
 * The request is in flight (Stop and cancel can abort it) and has the context its handler works in.
 * @type {ActionStep}
 */
export async function openContext(run, deps) {
  const m = run.message;
  run.taskId = typeof m.task_id === "string" ? m.task_id : "";
  run.label = typeof m.task_label === "string" && m.task_label ? m.task_label : run.taskId;
  run.flight = deps.inFlight?.begin(m.id, run.taskId, Number.isInteger(run.action.tab_id) ? /** @type {number} */ (run.action.tab_id) : undefined);
  const { taskId, label, flight } = run;
  // a tab the action opens is the task's, and held (network-hold.js), before anything loads in it
  const claim = async (/** @type {number} */ tabId, /** @type {number | undefined} */ windowId) => {
    await deps.gate.claim?.(taskId, label, tabId, windowId);
    await deps.holds?.hold(taskId, tabId);
  };
  /** @type {ActionContext} */
  const ctx = { ...deps.services, taskId, requestId: m.id, claimTab: claim };
  if (flight) {
    Object.assign(ctx, { signal: flight.signal, noteTab: flight.setTab, debugger: stoppableDebugger(deps.services.debugger, flight.signal) });
  }
  run.ctx = ctx;
}

/**
 * The session gate: may this task act here, and on which tab (it fills in the tab an action without one works on).
 * @type {ActionStep}
 */
export async function passSessionGate(run, deps) {
  const allowedTab = await deps.gate.before(run.type, run.action, run.taskId);
  run.allowedTab = allowedTab;
  if (allowedTab !== undefined && run.action.tab_id === undefined) run.run = { ...run.action, tab_id: allowedTab };
  if (allowedTab !== undefined) run.flight?.setTab(allowedTab);
  run.gated = true;
}

/**
 * A sensitive action waits for the person's yes (or the app's approval token) before it reaches the page.
 * @type {ActionStep}
 */
export async function askPerson(run, deps) {
  await deps.confirmations?.check(run.type, run.action, run.run, run.ctx, run.message.approval);
}

/**
 * What the page sends while an action that can change things acts on a session tab is held for the app.
 * @type {ActionStep}
 */
export async function holdNetwork(run, deps) {
  if (run.allowedTab === undefined || ACTIONS[run.type].read_only) return;
  run.hold = await deps.holds?.begin(run.ctx, run.allowedTab, run.type, { approved: typeof run.message.approval === "string" });
}

/**
 * The handler does the action; a hold settles on its result, then lingers (network-hold.js).
 * @type {ActionStep}
 */
export async function runHandler(run, deps) {
  const hold = run.hold;
  try {
    const done = await run.handler(run.run, run.ctx);
    // an action on no held tab (a read, a tab closed) still tells what the task's held requests became
    run.result = hold ? await hold.settle(done) : (deps.holds?.report(run.taskId, done) ?? done);
  } finally {
    hold?.linger();
  }
}

/**
 * The session gate notes what the action did (a new session, a navigation).
 * @type {ActionStep}
 */
export async function recordSession(run, deps) {
  await deps.gate.after(run.type, run.taskId, run.label, run.allowedTab, /** @type {Record<string, unknown>} */ (run.result ?? {}));
}

/** The steps, in order. */
export const ACTION_STEPS = Object.freeze([checkRequest, openContext, passSessionGate, askPerson, holdNetwork, runHandler,
  recordSession]);

/**
 * @typedef {{ok: true, result: unknown} | {ok: false, error: unknown}} Outcome
 */

/**
 * Take a request through the steps; `answer` gets its outcome (exactly once), then `report` the tab it worked
 * on when it passed the session gate.
 * @param {Record<string, unknown> & {id: string | number}} message a request with an id
 * @param {RunDeps} deps
 * @param {{answer: (outcome: Outcome, run: ActionRun) => void | Promise<void>,
 *   report: (run: ActionRun, ok: boolean) => void}} out
 * @param {readonly ActionStep[]} [steps]
 */
export async function runAction(message, deps, out, steps = ACTION_STEPS) {
  const run = /** @type {ActionRun} */ ({ message, gated: false });
  let ok = false;
  try {
    for (const step of steps) await step(run, deps);
    ok = true;
  } catch (error) {
    await out.answer({ ok: false, error }, run);
  }
  try {
    if (ok) await out.answer({ ok: true, result: run.result ?? {} }, run);
    if (run.gated) out.report(run, ok);
  } finally {
    run.flight?.end();
  }
}
