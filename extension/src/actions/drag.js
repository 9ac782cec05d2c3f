/**
 * drag {uid|selector|point, to_uid|to_selector|to_point|by, steps?}: press on
 * the source (aimed as a click is), move in `steps` with the left button
 * held, release on the destination.
 *
 * Real pointer events drive sliders, resize grips and script-made drags. An
 * HTML5 drag (draggable, dataTransfer) is the browser's own drag loop, which
 * CDP mouse events do not drive in a headed Chrome: with
 * Input.setInterceptDrags on, Chrome hands the drag's data to bua when the
 * page starts one (Input.dragIntercepted), and the rest of the drag is sent
 * as drag events (Input.dispatchDragEvent dragEnter, dragOver, drop), as
 * Playwright does. The result says which kind it was, what was dragged and
 * what took the drop, and (`frames`, extract/framed.js) which of those a frame
 * of another origin shows.
 */

import { ACTIONS, ActionError, ErrorCode, quoting } from "../protocol.js";
import { onTaskTab, targetElement } from "../targets/action-target.js";
import { NODE_MISSING, callOnTarget } from "../targets/element-resolver.js";
import { describeElement, hiddenReason, keptFunction } from "../page/functions.js";
import { deepElementAt, describeReceiver } from "../page/pointer.js";
import { arrive, pointOf, receiver, withPointer } from "../input/aim.js";
import { frameOffset } from "../input/frame-offset.js";
import { dragPath, offsetQuads, pressPoint } from "../input/geometry.js";
import { visiblePart } from "../input/hit-test.js";
import { leftButton } from "../input/mouse.js";
import { inWorld, onElement } from "../tabs/isolated-world.js";
import { definePageFunction } from "../page/page-code.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";
import { shownByEach } from "../extract/framed.js";
import { targetFrameOrigin } from "../extract/frame-origin.js";

/** How long a drag the page started (dragstart not prevented) is waited for from Chrome, in ms. */
export const DRAG_DATA_WAIT_MS = 1000;
/** How long a minimised window is given to be shown before a drag, and then to settle once it is, in ms. */
export const SHOW_WAIT_MS = 1000;
export const MAPPED_SETTLE_MS = 150;
const POLL_MS = 20;

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {import("../input/aim.js").Recorder} Recorder
 * @typedef {{x: number, y: number}} Point
 * @typedef {{point: Point, target: string, sessionId?: string}} Destination
 */

/**
 * @param {import("./support/context.js").ActionOf<"drag">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"drag">>}
 */
export async function drag(action, ctx) {
  const steps = action.steps ?? ACTIONS.drag.defaults.steps;
  return onTaskTab(action, ctx, async (tabId, dialogs, fronted) => {
    const { value, effects, recording, frame } = await withPointer(action, ctx, tabId, { dialogs, fronted }, async (aimed) => {
      await shownFirst(ctx, await fronted);
      const arrived = await arrive(ctx, tabId, aimed);
      const dest = await destination(action, ctx, tabId, arrived.aim.point);
      // Input goes where the source was aimed, unless the drop is in another frame: then through the top page.
      const local = action.by !== undefined || dest.sessionId === aimed.sessionId;
      const sessionId = local ? aimed.sessionId : undefined;
      const from = local ? arrived.aim.local : arrived.aim.point;
      const to = local ? { x: dest.point.x - arrived.aim.point.x + from.x, y: dest.point.y - arrived.aim.point.y + from.y } : dest.point;
      const moved = await dragAlong(ctx, tabId, { from, to, steps: /** @type {number} */ (steps), sessionId }, aimed.recorder);
      return { arrived, dest, moved };
    });
    const { arrived, dest, moved } = value;
    const dragged = receiver(recording, ["dragstart", "mousedown"], arrived.aim.target, arrived.changed);
    /** @type {import("./support/context.js").ResultOf<"drag">} */
    const result = {
      dragged: dragged.name,
      kind: moved.html5 ? "html5" : "pointer",
      from: arrived.aim.point,
      to: dest.point,
      effects,
    };
    const notes = dragged.note ? [dragged.note] : [];
    const drop = recording?.received?.drop;
    const droppedOn = moved.html5 ? drop?.name ?? "" : dest.target;
    if (droppedOn) result.dropped_on = droppedOn;
    if (moved.html5 && !drop) {
      notes.push(`the page started an HTML5 drag but nothing took the drop at (${Math.round(dest.point.x)}, ${Math.round(dest.point.y)}): `
        + "no drop zone there, or it refused this item; take a screenshot and aim at the zone itself");
    }
    if (notes.length > 0) result.note = notes.join("; ");
    // The recording is the source's document's (input/aim.js), so an HTML5 drop it saw stands there too; the
    // element given as the destination stands in its uid's frame; a receiver other than the aim stays the page's.
    const dropFrame = moved.html5 ? frame : await targetFrameOrigin(ctx, tabId, { uid: action.to_uid });
    return { ...result, ...shownByEach([{ text: dragged.note ? "" : dragged.name, frame }, { text: droppedOn, frame: dropFrame }]) };
  }, { frontConcurrently: true });
}

/**
 * Show a minimised window before a drag presses in it. A press restores the window anyway (input/window-focus.js
 * puts it back afterwards), and when the window manager maps it the real pointer's position reaches the page as
 * a move with no button held, which ends a drag already begun (measured in a headed Chromium under Xvfb and
 * openbox: the HTML5 drag never started, a slider followed 2 of 10 steps). Shown first, it is mapped before the
 * press; keepInBackground minimises it again after the drag.
 * @param {ActionContext} ctx
 * @param {chrome.tabs.Tab | null} tab the action's tab as read before (null when unknown)
 */
async function shownFirst(ctx, tab) {
  const windows = ctx.windows;
  const window = tab && windows ? await windows.get(tab.windowId).catch(() => null) : null;
  if (!windows || window?.id === undefined || window.state !== "minimized") return;
  const windowId = window.id;
  await windows.update(windowId, { state: "normal" }).catch(() => {});
  for (let waited = 0; waited < SHOW_WAIT_MS; waited += POLL_MS) {
    await sleep(ctx, POLL_MS);
    if ((await windows.get(windowId).catch(() => null))?.state !== "minimized") break;
  }
  await sleep(ctx, MAPPED_SETTLE_MS);
}

/**
 * @param {ActionContext} ctx
 * @param {number} ms
 */
function sleep(ctx, ms) {
  return new Promise((resolve) => ctx.timers.setTimeout(() => resolve(undefined), ms));
}

/**
 * Where the drag ends, in top-viewport CSS pixels: the source point moved `by`, a point, or the centre of
 * the visible part of an element. The destination is not scrolled to (that would move the source away):
 * one outside the visible area is refused.
 * @param {import("./support/context.js").ActionOf<"drag">} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Point} from top-viewport
 * @returns {Promise<Destination>}
 */
async function destination(action, ctx, tabId, from) {
  if (action.by !== undefined) {
    const by = action.by;
    return { point: { x: from.x + by.dx, y: from.y + by.dy }, target: "" };
  }
  if (action.to_point !== undefined) {
    const point = pointOf(action.to_point, "to_point");
    // what lies there is described as it takes the drop: the pixels judge its text first, held for it (pixel-reads.js)
    const at = await readJudgedByPixels(ctx.debugger, tabId, undefined, (pixels) => inWorld(ctx, tabId, whatIsAt, [point.x, point.y], { pixels }), true);
    if (at.status === "outside") {
      throw new ActionError(ErrorCode.INVALID_ACTION, `to_point (${point.x}, ${point.y}) is outside the viewport, which is `
        + `${at.width}×${at.height} CSS px; take a screenshot of the viewport and use origin + pixel / scale, or use 'by'`);
    }
    return { point, target: at.target };
  }
  const target = { uid: action.to_uid, selector: action.to_selector };
  let spot = await readJudgedByPixels(ctx.debugger, tabId, undefined, (pixels) => callOnTarget(ctx, tabId, target, keptFunction(dropPoint), [], pixels), true);
  /** @type {import("../targets/action-target.js").ResolvedElement | null} */
  let element = null;
  if (spot === NODE_MISSING) {
    const resolved = element = await targetElement({ uid: target.uid, selector: target.selector }, ctx, tabId);
    spot = await readJudgedByPixels(ctx.debugger, tabId, resolved.sessionId, (pixels) => onElement(ctx, tabId, resolved, dropPoint, [], pixels), true);
  }
  if (spot?.status === "in_frame" && element) return frameDestination(ctx, tabId, element);
  if (spot?.status === "ok") return { point: spot.point, target: spot.target };
  if (spot?.status === "detached") {
    throw new ActionError(ErrorCode.ELEMENT_STALE, "the drop target is no longer in the page (it changed); extract again and use the new uid");
  }
  throw new ActionError(ErrorCode.NOT_INTERACTABLE, spot?.status === "no_box"
    ? `the drop target ${spot.target} is ${spot.reason}; make it visible first, or drag to a point`
    : `the drop target ${spot?.target ?? ""} is outside the visible area while the dragged element is in view; scroll so `
      + "both show (scroll, then drag again), or drag in steps with 'by'", quoting(spot?.target));
}

/**
 * The drop point of an element in a frame: the centre of its visible part, through CDP.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {import("../targets/action-target.js").ResolvedElement} element
 * @returns {Promise<Destination>}
 */
async function frameDestination(ctx, tabId, element) {
  const [{ quads }, offset, { cssLayoutViewport: vp }] = await Promise.all([
    ctx.debugger.send(tabId, "DOM.getContentQuads", { objectId: element.objectId }, element.sessionId),
    element.sessionId === undefined ? { x: 0, y: 0 } : frameOffset(ctx, tabId, element.sessionId),
    ctx.debugger.send(tabId, "Page.getLayoutMetrics"),
  ]);
  const pick = pressPoint(offsetQuads(quads ?? [], offset), { x: 0, y: 0, width: vp.clientWidth, height: vp.clientHeight });
  if ("reason" in pick) {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, "the drop target (in a frame) is not in the visible area; scroll so both show, or drag with 'by'");
  }
  return { point: pick.point, target: "", sessionId: element.sessionId };
}

/**
 * Press at `from`, move to `to` in steps with the button held, release. When the page starts an HTML5 drag,
 * Chrome hands it over (interception on) and the rest goes as drag events, ending in a drop.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{from: Point, to: Point, steps: number, sessionId?: string}} path
 * @param {Recorder} recorder
 * @returns {Promise<{html5: boolean}>}
 */
async function dragAlong(ctx, tabId, { from, to, steps, sessionId }, recorder) {
  /** @type {unknown} the drag data Chrome intercepted (Input.DragData), passed back as it is */
  let data = null;
  const off = ctx.debugger.on(tabId, "Input.dragIntercepted", (/** @type {{data?: unknown} | undefined} */ params) => {
    data = params?.data ?? null;
  });
  let intercepting = false;
  try {
    await ctx.debugger.send(tabId, "Input.setInterceptDrags", { enabled: true }, sessionId);
    intercepting = true;
  } catch {
    // Without interception an HTML5 drag runs the browser's own loop (which does work in headless Chrome).
  }
  /** @type {unknown} */
  let dragging = null;
  const dragEvent = (/** @type {string} */ type, /** @type {Point} */ p) => ctx.debugger.send(tabId, "Input.dispatchDragEvent",
    { type, x: p.x, y: p.y, data: dragging }, sessionId);
  try {
    await leftButton(ctx, tabId, "mousePressed", from, sessionId);
    for (const p of dragPath(from, to, steps)) {
      if (dragging) {
        await dragEvent("dragOver", p);
        continue;
      }
      await leftButton(ctx, tabId, "mouseMoved", p, sessionId);
      if (data) {
        dragging = data;
        await dragEvent("dragEnter", p);
      }
    }
    if (!dragging && intercepting) {
      const seen = data ? null : await recorder.read(false).catch(() => null);
      if (data || (seen?.drag_started && !seen.drag_prevented)) dragging = await dragData(ctx, () => data);
      if (dragging) {
        await dragEvent("dragEnter", to);
        await dragEvent("dragOver", to);
      }
    }
    if (dragging) await dragEvent("drop", to);
    await leftButton(ctx, tabId, "mouseReleased", to, sessionId);
  } finally {
    off();
    if (intercepting) await ctx.debugger.send(tabId, "Input.setInterceptDrags", { enabled: false }, sessionId).catch(() => {});
  }
  return { html5: Boolean(dragging) };
}

/**
 * The intercepted drag data, waited for up to DRAG_DATA_WAIT_MS (Chrome sends it after the page's dragstart).
 * @param {ActionContext} ctx
 * @param {() => unknown} current
 * @returns {Promise<unknown>}
 */
async function dragData(ctx, current) {
  for (let waited = 0; !current() && waited < DRAG_DATA_WAIT_MS; waited += POLL_MS) await sleep(ctx, POLL_MS);
  return current();
}

/**
 * In the page: the centre of the visible part of `this` (no scrolling), or why there is none; elements in
 * frames answer in_frame. Needs visiblePart in scope.
 * @this {any}
 */
function dropPoint() {
  const el = this;
  if (!el.isConnected) return { status: "detached" };
  const view = el.ownerDocument.defaultView;
  if (!view || view !== view.top) return { status: "in_frame" };
  const target = describeElement(el);
  const rects = Array.from(el.getClientRects()).filter((r) => r.width >= 1 && r.height >= 1);
  if (rects.length === 0) return { status: "no_box", target, reason: hiddenReason(el) || "not rendered" };
  let best = null;
  for (const r of rects) {
    const part = visiblePart(el, r, view.innerWidth, view.innerHeight).box;
    if (part && (!best || part.w * part.h > best.w * best.h)) best = part;
  }
  if (!best) return { status: "outside_viewport", target };
  return { status: "ok", target, point: { x: Math.round((best.left + best.w / 2) * 100) / 100, y: Math.round((best.top + best.h / 2) * 100) / 100 } };
}
definePageFunction(dropPoint, { uses: [describeElement, hiddenReason, visiblePart] });

/**
 * In the page: what is at a point of the top viewport, or that it is outside it. Needs the pointer helpers.
 * @param {number} x
 * @param {number} y
 */
function whatIsAt(x, y) {
  const width = window.innerWidth;
  const height = window.innerHeight;
  if (!(x >= 0 && y >= 0 && x < width && y < height)) return { status: "outside", width, height };
  return { status: "ok", target: describeReceiver(deepElementAt(document, x, y)) };
}
definePageFunction(whatIsAt, { uses: [describeReceiver, deepElementAt] });

export { drag as handler };
