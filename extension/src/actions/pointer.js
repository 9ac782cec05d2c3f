/**
 * click {uid|selector, button?, click_count?, dialog?, prompt_text?} and
 * hover {uid|selector}: scroll the element into view, pick a point inside
 * its visible box, hit-test that point (refusing with not_interactable when
 * something else would get the event, or the element is disabled), then
 * send real mouse events and report what changed.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { nodeError, onTaskTab, targetElement } from "../targets/action-target.js";
import { NODE_MISSING, callOnTarget } from "../targets/element-resolver.js";
import { keptFunction } from "../page/functions.js";
import { newEffectsToken, settleMsOf, startCounting, watchEffects } from "../input/effects.js";
import { onElement } from "../tabs/isolated-world.js";
import { frameOffset } from "../input/frame-offset.js";
import { topPageCover } from "../input/frame-cover.js";
import { offsetQuads, pressPoint, quadBounds } from "../input/geometry.js";
import { aimInPage, hitProblem, hitTestInPage } from "../input/hit-test.js";
import { clickMouse, moveMouse } from "../input/mouse.js";
import { keepInBackground } from "../input/window-focus.js";
import { keepPainting } from "../input/painting.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../targets/action-target.js").ResolvedElement} ResolvedElement
 * @typedef {import("../input/effects.js").Effects} Effects
 */

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<{clicked: string, x: number, y: number, effects: Effects}>}
 */
export async function click(action, ctx) {
  const button = /** @type {"left" | "right" | "middle"} */ (action.button ?? "left");
  if (!["left", "right", "middle"].includes(button)) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "'button' must be left, right or middle");
  }
  const clickCount = action.click_count ?? 1;
  if (!Number.isSafeInteger(clickCount) || /** @type {number} */ (clickCount) < 1 || /** @type {number} */ (clickCount) > 3) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "'click_count' must be 1, 2 or 3");
  }
  return onTaskTab(action, ctx, async (tabId, dialogs, fronted) => {
    // keepInBackground waits for the tab to be in front (`fronted`) before it reads the window.
    const [{ aim, watch, sessionId }, restore] = await allOrUndo([
      aimAndWatch(action, ctx, tabId, "click"), keepInBackground(ctx, tabId, { tab: fronted })]);
    try {
      await clickMouse(ctx, tabId, aim.local, { button, clickCount: /** @type {number} */ (clickCount), sessionId });
    } catch (err) {
      watch.stop();
      await restore();
      throw err;
    }
    const [effects] = await Promise.all([watch.finish(dialogs.records), restore()]);
    return { clicked: aim.target, x: aim.point.x, y: aim.point.y, effects };
  }, { frontConcurrently: true });
}

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<{hovered: string, x: number, y: number, effects: Effects}>}
 */
export async function hover(action, ctx) {
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const [{ aim, watch, sessionId }, stopPainting] = await allOrUndo([
      aimAndWatch(action, ctx, tabId, "hover"), keepPainting(ctx, tabId)]);
    try {
      await moveMouse(ctx, tabId, aim.local, sessionId);
    } catch (err) {
      watch.stop();
      throw err;
    } finally {
      await stopPainting();
    }
    const effects = await watch.finish(dialogs.records);
    return { hovered: aim.target, x: aim.point.x, y: aim.point.y, effects };
  });
}

/**
 * Resolve the target, aim at it and start watching effects. The usual case,
 * a uid in the tab's own session that can take the event, is one page call
 * (lookup, scroll, hit-test, start the effects counter); anything else goes
 * the long way, which also explains a failure.
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {"click" | "hover"} verb
 * @returns {Promise<{aim: {point: {x: number, y: number}, local: {x: number, y: number}, target: string},
 *   watch: Awaited<ReturnType<typeof watchEffects>>, sessionId: string | undefined}>}
 */
async function aimAndWatch(action, ctx, tabId, verb) {
  const token = newEffectsToken();
  const settleMs = settleMsOf(action);
  const fast = await callOnTarget(ctx, tabId, { uid: /** @type {any} */ (action.uid), selector: /** @type {any} */ (action.selector) },
    keptFunction(aimAndCount, [aimInPage, hitTestInPage, startCounting]), [token]);
  if (fast !== NODE_MISSING && fast?.counting === true) {
    const watch = await watchEffects(ctx, tabId, { settleMs, token, countedBy: Promise.resolve(true) });
    return { aim: { point: fast.point, local: fast.point, target: fast.target }, watch, sessionId: undefined };
  }
  const element = await targetElement(action, ctx, tabId);
  const aiming = aimAt(ctx, tabId, element, verb, token);
  const [aim, watch] = await allOrUndo([aiming,
    watchEffects(ctx, tabId, { element, settleMs, token, countedBy: aiming.then((a) => a.counting) })]);
  return { aim, watch, sessionId: element.sessionId };
}

/**
 * Await preparations together; when one fails, undo those that finished (a
 * function is called, an object with `stop` or a `watch` is stopped) and
 * rethrow the first failure.
 * @template {readonly unknown[]} T
 * @param {T} preparations
 * @returns {Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }>}
 */
async function allOrUndo(preparations) {
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
 * top-frame call also starts the effects counter under `token` when the aim
 * is good (`counting: true`), saving the effects watch its own round trip.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {"click" | "hover"} verb
 * @param {string} token from newEffectsToken()
 * @returns {Promise<{point: {x: number, y: number}, local: {x: number, y: number}, target: string, counting: boolean}>}
 *   point in top-viewport CSS pixels; local in the element's session's viewport
 */
export async function aimAt(ctx, tabId, element, verb, token) {
  if (element.sessionId === undefined) {
    let fast;
    try {
      fast = await onElement(ctx, tabId, element, aimAndCount, [token], [aimInPage, hitTestInPage, startCounting]);
    } catch (err) {
      throw await explained(ctx, tabId, element, err);
    }
    if (fast.status !== "in_frame") return { ...checked(fast, fast.point, fast.point, verb), counting: fast.counting === true };
  }
  return { ...(await aimThroughCdp(ctx, tabId, element, verb)), counting: false };
}

/**
 * In the page: aimInPage, then, when the element can take the event, start the effects counter.
 * @this {any} the element
 * @param {string} token
 */
function aimAndCount(token) {
  const aim = aimInPage.call(this);
  if (aim.status === "ok") aim.counting = startCounting.call(this, token);
  return aim;
}

/**
 * The result of a hit-test, or the not_interactable / element_stale error it means.
 * @param {any} hit
 * @param {{x: number, y: number}} point top-viewport
 * @param {{x: number, y: number}} local the element's session's viewport
 * @param {"click" | "hover"} verb
 */
function checked(hit, point, local, verb) {
  if (hit.status === "detached") throw nodeError(new CdpError("hit-test", "Node is detached from document"));
  if (hit.status === "no_box") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE,
      `${hit.target} is ${hit.reason}; make it visible first (open its menu or section), or extract to find a visible one`);
  }
  if (hit.status === "outside_viewport") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE,
      `${hit.target} stays outside the visible area even after scrolling (inside a clipped region); scroll its container or extract again`);
  }
  const problem = hitProblem(hit, point, verb);
  if (problem) throw new ActionError(ErrorCode.NOT_INTERACTABLE, problem);
  return { point, local, target: hit.target };
}

/**
 * Aim through CDP, for elements in frames (out-of-process ones included):
 * scroll into view, take the quads, offset them into the top viewport, pick
 * the point, hit-test it in the element's frame.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {"click" | "hover"} verb
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
      : `${what.split(" is ")[0]} stays outside the visible area even after scrolling (inside a clipped region); scroll its container or extract again`);
  }
  const union = (quads ?? []).map(quadBounds).reduce((a, b) => ({ x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) }));
  const local = { x: pick.point.x - offset.x, y: pick.point.y - offset.y };
  let hit;
  try {
    hit = await onElement(ctx, tabId, element, hitTestInPage, [local.x, local.y, union.x, union.y]);
  } catch (err) {
    throw err instanceof CdpError ? nodeError(err) : err;
  }
  const aimed = checked(hit, pick.point, local, verb);
  const cover = await topPageCover(ctx, tabId, pick.point).catch(() => "");
  if (cover) {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${aimed.target} (in a frame) is covered by ${cover} of the page at `
      + `(${Math.round(pick.point.x)}, ${Math.round(pick.point.y)}): a ${verb} there would reach that element instead; `
      + "close or dismiss it first (a dialog, cookie banner or overlay), or scroll, then retry");
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
  return new ActionError(ErrorCode.NOT_INTERACTABLE, `${what}; make it visible first (open its menu or section), or extract to find a visible one`);
}
