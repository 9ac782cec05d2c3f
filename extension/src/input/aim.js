/**
 * Aiming a pointer action (click, hover, drag) at its target: an element
 * (uid or selector: scrolled into view with every scrolling ancestor, the
 * centre of its visible part chosen and hit-tested, refusing with
 * not_interactable when something else would get the event or it is
 * disabled) or a point of the viewport. Aiming also starts the effects watch
 * and the record of which elements receive the events (page/pointer.js);
 * `arrive` moves the pointer there and checks the aim again, because hover
 * can change a target under the pointer.
 */

import { frameOrigin } from "../extract/frame-origin.js";
import { ACTIONS, ActionError, ErrorCode, quoting } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { nodeError, targetElement } from "../targets/action-target.js";
import { NODE_MISSING, callOnTarget } from "../targets/element-resolver.js";
import { describeElement, hiddenReason, keptFunction } from "../page/functions.js";
import { definePageFunction } from "../page/page-code.js";
import { aimAtPoint, pointNamedAgain, readRecording, recheckAim, redescribeRecording, startRecording } from "../page/pointer.js";
import { judgedAgain, readJudgedByPixels } from "../extract/pixel-reads.js";
import { unjudged } from "../extract/run-in-page.js";
import { newEffectsToken, settleMsOf, startCounting, watchEffects } from "./effects.js";
import { inWorld, onElement } from "../tabs/isolated-world.js";
import { frameOffset } from "./frame-offset.js";
import { topPageCover } from "./frame-cover.js";
import { offsetQuads, pressPoint, quadBounds } from "./geometry.js";
import { aimInPage, hitProblem, hitTestInPage, visiblePart } from "./hit-test.js";
import { moveMouse } from "./mouse.js";
import { keepPainting } from "./painting.js";
import { keepInBackground } from "./window-focus.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../targets/action-target.js").ResolvedElement} ResolvedElement
 * @typedef {string} Verb the action's name, as its messages say it ("a click there would …")
 * @typedef {{verb: Verb, presses: boolean}} Pointing what the action's declaration says of its pointer (presses:
 *   app/protocol/actions/spec.py)
 * @typedef {{x: number, y: number}} Point
 * @typedef {{point: Point, local: Point, target: string}} Aim point in top-viewport CSS pixels; local in the
 *   viewport of the session the input goes to
 * @typedef {{received: Record<string, {name: string, outside: boolean}>, drag_started: boolean,
 *   drag_prevented: boolean}} Recording
 * @typedef {{read: (stop: boolean) => Promise<Recording | null>,
 *   recheck: ((x: number, y: number) => Promise<any>) | null}} Recorder
 * @typedef {{aim: Aim, watch: Awaited<ReturnType<typeof watchEffects>>, sessionId: string | undefined,
 *   recorder: Recorder, pointing: Pointing}} Aimed
 */

/** @param {Record<string, unknown>} action @returns {Pointing} read from its declaration, never its name */
function pointingOf(action) {
  const type = String(action.type);
  return { verb: type, presses: /** @type {Record<string, {presses?: boolean}>} */ (ACTIONS)[type]?.presses === true };
}

/**
 * Resolve the action's target (`uid`, `selector` or `point`), aim at it and start watching effects. The usual
 * case, a uid in the tab's own session that can take the event, is one page call (lookup, scroll, hit-test,
 * start the effects counter and the recording); anything else goes the long way, which also explains a
 * failure. What the action reached is described as it aims, once: when that description left texts to the pixels
 * (page-pixels.js) and any is hidden, it is made again with their verdicts, which stay held for the action's page
 * functions (judgedAim).
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<Aimed>}
 */
export async function aimAndWatch(action, ctx, tabId) {
  const token = newEffectsToken();
  const settleMs = settleMsOf(action);
  const pointing = pointingOf(action);
  if (action.point !== undefined) return aimAtViewportPoint(ctx, tabId, pointOf(action.point, "point"), token, settleMs, pointing);
  const target = { uid: /** @type {any} */ (action.uid), selector: /** @type {any} */ (action.selector) };
  const pixels = unjudged();
  const fast = await callOnTarget(ctx, tabId, target, keptFunction(aimAndCount), [token], pixels);
  if (fast !== NODE_MISSING && fast?.counting === true) {
    const aim = await judgedAim(ctx, tabId, undefined, fast, pixels, (p) => callOnTarget(ctx, tabId, target, keptFunction(aimedAgain), [token], p));
    const watch = await watchEffects(ctx, tabId, { settleMs, token, countedBy: Promise.resolve(true) });
    return { aim: { point: aim.point, local: aim.point, target: aim.target }, watch, sessionId: undefined, recorder: topRecorder(ctx, tabId, token), pointing };
  }
  const element = await targetElement(action, ctx, tabId);
  const aiming = aimAt(ctx, tabId, element, pointing.verb, token);
  const [aim, watch] = await allOrUndo([aiming,
    watchEffects(ctx, tabId, { element, settleMs, token, countedBy: aiming.then((a) => a.counting) })]);
  const recorder = aim.counting ? elementRecorder(ctx, tabId, element, token, true) : await frameRecorder(ctx, tabId, element, token);
  return { aim, watch, sessionId: element.sessionId, recorder, pointing };
}

/**
 * An aim (a hit-test result) with its descriptions judged by the pixels: when the call that made it left texts to
 * them (pixel-reads.js) and any is hidden, `again` describes it anew with their verdicts, held for the action's page
 * functions that follow (the recording names what received the input). An ordinary page asks nothing, and this
 * costs it nothing.
 * @template {Record<string, any>} H
 * @param {ActionContext} ctx @param {number} tabId @param {string | undefined} sessionId the call's session
 * @param {H} hit @param {import("../extract/run-in-page.js").Pixels} pixels the call's
 * @param {(pixels: import("../extract/run-in-page.js").Pixels) => Promise<any>} again the same descriptions, made
 *   by a call that acts on nothing
 * @returns {Promise<H>}
 */
async function judgedAim(ctx, tabId, sessionId, hit, pixels, again) {
  const judged = await judgedAgain(ctx.debugger, tabId, sessionId, pixels, again, true);
  if (!judged || !judged.value || typeof judged.value !== "object") return hit;
  /** @type {Record<string, any>} */
  const described = {};
  for (const key of ["target", "by", "reason"]) if (typeof judged.value[key] === "string") described[key] = judged.value[key];
  return { ...hit, ...described };
}

/**
 * A `{x, y}` of the action as numbers, or invalid_action.
 * @param {unknown} value
 * @param {string} field
 * @returns {Point}
 */
export function pointOf(value, field) {
  const p = /** @type {any} */ (value);
  if (!p || typeof p !== "object" || !Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new ActionError(ErrorCode.INVALID_ACTION, `'${field}' must be {x, y}: numbers in CSS pixels of the viewport`);
  }
  return { x: p.x, y: p.y };
}

/**
 * Aim at a point of the top viewport: no scrolling, no refusal (whatever is there gets the event, as for a
 * person); the result names it.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Point} point
 * @param {string} token
 * @param {number} settleMs
 * @param {Pointing} pointing
 * @returns {Promise<Aimed>}
 */
async function aimAtViewportPoint(ctx, tabId, point, token, settleMs, pointing) {
  const pixels = unjudged();
  let at = await inWorld(ctx, tabId, aimAtPoint, [point.x, point.y, token], { pixels });
  if (at.status === "ok") {
    at = await judgedAim(ctx, tabId, undefined, at, pixels, (p) => inWorld(ctx, tabId, pointNamedAgain, [point.x, point.y], { pixels: p }));
  }
  if (at.status === "outside") {
    throw new ActionError(ErrorCode.INVALID_ACTION, `point (${point.x}, ${point.y}) is outside the viewport, which is `
      + `${at.width}×${at.height} CSS px (x from 0 to ${at.width - 1}, y from 0 to ${at.height - 1}); take a screenshot of `
      + "the viewport and use origin + pixel / scale, or scroll first");
  }
  if (at.status === "missed") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `nothing in the page is at (${point.x}, ${point.y}); take a screenshot and aim again`);
  }
  const watch = await watchEffects(ctx, tabId, { settleMs, token, countedBy: Promise.resolve(true) });
  const recorder = { read: judgedRead(ctx, tabId, undefined, (p, stop) => inWorld(ctx, tabId, readRecording, [token, stop], { pixels: p })), recheck: null };
  return { aim: { point, local: point, target: at.target }, watch, sessionId: undefined, recorder, pointing };
}

/**
 * A recording's read (or a recheck) with the names it quotes judged by the pixels (pixel-reads.js): a read leaves
 * the recording as it was, even the one that stops it (page/pointer.js readRecording), so it can be made again.
 * @param {ActionContext} ctx @param {number} tabId @param {string | undefined} sessionId where `call` runs
 * @param {(pixels: import("../extract/run-in-page.js").Pixels, ...args: any[]) => Promise<any>} call
 * @returns {(...args: any[]) => Promise<any>}
 */
function judgedRead(ctx, tabId, sessionId, call) {
  return (...args) => readJudgedByPixels(ctx.debugger, tabId, sessionId, (p) => call(p, ...args));
}

/**
 * The recording of an element of the top document, read in the top frame's world.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} token
 * @returns {Recorder}
 */
function topRecorder(ctx, tabId, token) {
  return {
    read: judgedRead(ctx, tabId, undefined, (p, stop) => inWorld(ctx, tabId, readRecording, [token, stop], { pixels: p })),
    recheck: judgedRead(ctx, tabId, undefined, (p, x, y) => inWorld(ctx, tabId, recheckAim, [token, x, y], { pixels: p })),
  };
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {string} token
 * @param {boolean} topDocument the element is in the top document (its points are top-viewport points)
 * @returns {Recorder}
 */
function elementRecorder(ctx, tabId, element, token, topDocument) {
  const { sessionId } = element;
  return {
    read: judgedRead(ctx, tabId, sessionId, (p, stop) => onElement(ctx, tabId, element, readRecording, [token, stop], p)),
    recheck: topDocument ? judgedRead(ctx, tabId, sessionId, (p, x, y) => onElement(ctx, tabId, element, recheckAim, [token, x, y], p)) : null,
  };
}

/**
 * The recording of an element in a frame: started now, in the frame's world.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {string} token
 * @returns {Promise<Recorder>}
 */
async function frameRecorder(ctx, tabId, element, token) {
  const started = await onElement(ctx, tabId, element, startRecording, [token]).catch(() => false);
  if (!started) return { read: async () => null, recheck: null };
  return elementRecorder(ctx, tabId, element, token, false);
}

/**
 * Move the pointer to the aim and wait until the page has handled the move; then check the aim again (hover
 * may have swapped, hidden, moved or covered the target), following a target that moved once. A click or
 * drag that would now reach something outside the target's control is refused (its declaration `presses`); a
 * hover has happened anyway and only says so.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Aimed} aimed
 * @returns {Promise<{aim: Aim, changed: string}>} the aim to press at; `changed` says how hover changed the
 *   target ("" when it did not)
 */
export async function arrive(ctx, tabId, aimed) {
  const { verb, presses } = aimed.pointing;
  let aim = aimed.aim;
  await moveMouse(ctx, tabId, aim.local, aimed.sessionId);
  if (!aimed.recorder.recheck) return { aim, changed: "" };
  for (let attempt = 0; ; attempt++) {
    const check = await aimed.recorder.recheck(aim.point.x, aim.point.y);
    if (check?.status === "ok") {
      return { aim, changed: check.now ? `${check.was} was ${check.why} when the pointer arrived (on hover)` : "" };
    }
    if (check?.status === "moved" && attempt === 0) {
      aim = { ...aim, point: check.point, local: check.point };
      await moveMouse(ctx, tabId, aim.local, aimed.sessionId);
      continue;
    }
    const at = `(${Math.round(aim.point.x)}, ${Math.round(aim.point.y)})`;
    const message = check?.status === "moved"
      ? `${aim.target} moves away from the pointer on hover`
      : check?.why
        ? `${check.was} was ${check.why} when the pointer arrived (on hover), and ${check.by} is at ${at} now`
        : `once the pointer arrived, ${check?.by ?? "something else"} covered ${check?.was ?? aim.target} at ${at} (it appeared on hover)`;
    if (!presses) return { aim, changed: message };
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${message}; a ${verb} there would not reach what you aimed at: `
      + "take a screenshot or extract again to see the changed page, then aim at what is there now",
    quoting(aim.target, check?.was, check?.by));
  }
}

/**
 * What received the action's input, from its recording: the element aimed at (when the events landed in it)
 * or the element that did get them; `note` explains a difference.
 * @param {Recording | null} recording
 * @param {string[]} types event types in order of preference ("click", "mousedown", ...)
 * @param {string} fallback the aim's own description
 * @param {string} changed from arrive()
 * @returns {{name: string, note: string}}
 */
export function receiver(recording, types, fallback, changed) {
  const seen = types.map((t) => recording?.received?.[t]).find(Boolean);
  const name = seen?.name || fallback;
  if (seen?.outside) {
    const why = changed ? `${changed}, and` : `${fallback} did not get it:`;
    return { name, note: `${why} the input went to ${name}` };
  }
  return { name, note: changed };
}

/**
 * A pointer action's frame: aim (with the effects watch and the recording), keep the tab painting (Chrome
 * answers a move at the next frame) and, for a press, put its window back afterwards (keepInBackground waits
 * for the tab to be in front, `fronted`); run `input`, which moves and presses; then wait out the effects and
 * read who received the input. A failure anywhere undoes all of it. `frame`: the origin of the frame of another
 * origin that the aimed element stands in (frame-origin.js).
 * @template T
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{dialogs: {records: () => any[]}, fronted?: Promise<any>}} on from onTaskTab
 * @param {(aimed: Aimed) => Promise<T>} input
 * @returns {Promise<{value: T, effects: import("./effects.js").Effects, recording: Recording | null,
 *   frame: string | undefined}>}
 */
export async function withPointer(action, ctx, tabId, on, input) {
  const [aimed, restore, stopPainting] = await allOrUndo([aimAndWatch(action, ctx, tabId),
    on.fronted ? keepInBackground(ctx, tabId, { tab: on.fronted }) : async () => {}, keepPainting(ctx, tabId)]);
  let value;
  try {
    value = await input(aimed);
  } catch (err) {
    aimed.watch.stop();
    aimed.recorder.read(true).catch(() => null);
    await Promise.all([restore(), stopPainting()]);
    throw err;
  }
  const [effects, recording, frame] = await Promise.all([aimed.watch.finish(on.dialogs.records),
    aimed.recorder.read(true).catch(() => null), frameOrigin(ctx, tabId, aimed.sessionId), restore(), stopPainting()]);
  return { value, effects, recording, frame };
}

/**
 * Await preparations together; when one fails, undo those that finished (a
 * function is called, an object with `stop` or a `watch` is stopped) and
 * rethrow the first failure.
 * @template {readonly unknown[]} T
 * @param {T} preparations
 * @returns {Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }>}
 */
export async function allOrUndo(preparations) {
  const settled = await Promise.allSettled(preparations);
  const failed = settled.find((r) => r.status === "rejected");
  if (!failed) return /** @type {any} */ (settled.map((r) => /** @type {PromiseFulfilledResult<any>} */ (r).value));
  for (const result of settled) {
    if (result.status !== "fulfilled") continue;
    const value = /** @type {any} */ (result.value);
    if (typeof value === "function") await value();
    else if (typeof value?.stop === "function") value.stop();
    else if (typeof value?.watch?.stop === "function") value.watch.stop();
  }
  throw /** @type {PromiseRejectedResult} */ (failed).reason;
}

/**
 * Scroll into view, choose the point, hit-test it: in one page call for
 * elements of the top frame, through CDP for elements in frames. The
 * top-frame call also starts the effects counter and the recording under
 * `token` when the aim is good (`counting: true`), saving the effects watch
 * its own round trip.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {Verb} verb
 * @param {string} token from newEffectsToken()
 * @returns {Promise<Aim & {counting: boolean}>}
 */
export async function aimAt(ctx, tabId, element, verb, token) {
  if (element.sessionId === undefined) {
    let fast;
    try {
      const pixels = unjudged();
      fast = await onElement(ctx, tabId, element, aimAndCount, [token], pixels);
      fast = await judgedAim(ctx, tabId, undefined, fast, pixels, (p) => onElement(ctx, tabId, element, aimedAgain, [token], p));
    } catch (err) {
      throw await explained(ctx, tabId, element, err);
    }
    if (fast.status !== "in_frame") return { ...checked(fast, fast.point, fast.point, verb), counting: fast.counting === true };
  }
  return { ...(await aimThroughCdp(ctx, tabId, element, verb)), counting: false };
}

/**
 * In the page: aimInPage, then, when the element can take the event, start the effects counter and the
 * recording of who receives the events.
 * @this {any} the element
 * @param {string} token
 */
function aimAndCount(token) {
  const aim = aimInPage.call(this);
  if (aim.status === "ok") aim.counting = startCounting.call(this, token) && startRecording.call(this, token, aim.target);
  return aim;
}
definePageFunction(aimAndCount, { uses: [aimInPage, startCounting, startRecording] });

/**
 * In the page: aimInPage's descriptions made again (the pixels' verdicts held: judgedAim), and the recording's name
 * of the target with them; it starts nothing. Aiming again where aimAndCount aimed scrolls nothing more.
 * @this {any} the element
 * @param {string} token
 */
function aimedAgain(token) {
  const aim = aimInPage.call(this);
  redescribeRecording(token);
  return aim;
}
definePageFunction(aimedAgain, { uses: [aimInPage, redescribeRecording] });

/**
 * The result of a hit-test, or the not_interactable / element_stale error it means.
 * @param {any} hit
 * @param {Point} point top-viewport
 * @param {Point} local the element's session's viewport
 * @param {Verb} verb
 * @returns {Aim}
 */
function checked(hit, point, local, verb) {
  if (hit.status === "detached") throw nodeError(new CdpError("hit-test", "Node is detached from document"));
  if (hit.status === "no_box") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE,
      `${hit.target} is ${hit.reason}; make it visible first (open its menu or section), or extract to find a visible one`,
      quoting(hit.target));
  }
  if (hit.status === "outside_viewport") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, hit.reason
      ? `${hit.target} stays outside the visible part of ${hit.reason} even after scrolling it (nothing covers it); `
        + "scroll that container (scroll with its uid or selector), or extract again"
      : `${hit.target} stays outside the visible area even after scrolling; scroll its container or extract again`,
    quoting(hit.target, hit.reason));
  }
  const problem = hitProblem(hit, point, verb);
  if (problem) throw new ActionError(ErrorCode.NOT_INTERACTABLE, problem, quoting(hit.target, hit.by));
  return { point, local, target: hit.target };
}

/**
 * Aim through CDP, for elements in frames (out-of-process ones included):
 * scroll into view, take the quads, offset them into the top viewport, pick
 * the point, hit-test it in the element's frame.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {Verb} verb
 * @returns {Promise<Aim>}
 */
async function aimThroughCdp(ctx, tabId, element, verb) {
  const { objectId, sessionId } = element;
  let quads;
  try {
    await ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId }, sessionId);
    ({ quads } = await ctx.debugger.send(tabId, "DOM.getContentQuads", { objectId }, sessionId));
  } catch (err) {
    throw await explained(ctx, tabId, element, err);
  }
  const [offset, { cssLayoutViewport: vp }] = await Promise.all([
    sessionId === undefined ? { x: 0, y: 0 } : frameOffset(ctx, tabId, sessionId),
    ctx.debugger.send(tabId, "Page.getLayoutMetrics"),
  ]);
  const viewport = { x: 0, y: 0, width: vp.clientWidth, height: vp.clientHeight };
  const pick = pressPoint(offsetQuads(quads ?? [], offset), viewport);
  if ("reason" in pick) {
    const what = await describe(ctx, tabId, element);
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, pick.reason === "no_box"
      ? `${what}; make it visible first (open its menu or section), or extract to find a visible one`
      : `${what.split(" is ")[0]} stays outside the visible area even after scrolling (inside a clipped region); scroll its container or extract again`,
    quoting(pick.reason === "no_box" ? what : what.split(" is ")[0]));
  }
  const union = (quads ?? []).map(quadBounds).reduce((/** @type {{x: number, y: number}} */ a, /** @type {{x: number, y: number}} */ b) => ({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) }));
  const local = { x: pick.point.x - offset.x, y: pick.point.y - offset.y };
  let hit;
  try {
    const pixels = unjudged();
    const hitTest = (/** @type {import("../extract/run-in-page.js").Pixels} */ p) => onElement(ctx, tabId, element, hitTestInPage, [local.x, local.y, union.x, union.y], p);
    hit = await judgedAim(ctx, tabId, sessionId, await hitTest(pixels), pixels, hitTest);
  } catch (err) {
    throw err instanceof CdpError ? nodeError(err) : err;
  }
  const aimed = checked(hit, pick.point, local, verb);
  const cover = await topPageCover(ctx, tabId, pick.point).catch(() => "");
  if (cover) {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${aimed.target} (in a frame) is covered by ${cover} of the page at `
      + `(${Math.round(pick.point.x)}, ${Math.round(pick.point.y)}): a ${verb} there would reach that element instead; `
      + "close or dismiss it first (a dialog, cookie banner or overlay), or scroll, then retry", quoting(aimed.target, cover));
  }
  return aimed;
}

/**
 * "button#save "Save" is hidden (display:none on div#menu)".
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 */
async function describe(ctx, tabId, element) {
  try {
    return await onElement(ctx, tabId, element, whyNotRendered);
  } catch {
    return "the element is not rendered";
  }
}

/** In the page: `this` and why it has no box. @this {any} */
function whyNotRendered() {
  return `${describeElement(this)} is ${hiddenReason(this) || "not rendered"}`;
}
definePageFunction(whyNotRendered, { uses: [describeElement, hiddenReason] });

/**
 * A CDP failure while measuring the element, as the error the model can act on.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {unknown} err
 */
async function explained(ctx, tabId, element, err) {
  const mapped = err instanceof CdpError ? nodeError(err) : err;
  if (!(mapped instanceof ActionError) || mapped.code !== ErrorCode.NOT_INTERACTABLE) return mapped;
  const what = await describe(ctx, tabId, element);
  return new ActionError(ErrorCode.NOT_INTERACTABLE, `${what}; make it visible first (open its menu or section), or extract to find a visible one`,
    quoting(what));
}
