/**
 * click {uid|selector|point, button?, click_count?, dialog?, prompt_text?} and
 * hover {uid|selector|point}: aim (input/aim.js), move the pointer there and
 * check the aim again once it has arrived, then press (click) and report
 * what really received the input and what changed.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { onTaskTab } from "../targets/action-target.js";
import { arrive, receiver, withPointer } from "../input/aim.js";
import { clickMouse } from "../input/mouse.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../input/effects.js").Effects} Effects
 * @typedef {{x: number, y: number, effects: Effects, note?: string}} PointerResult
 */

/** The events that tell who received a click, per button, most telling first. */
const CLICK_EVENTS = { left: ["click", "mousedown"], right: ["contextmenu", "mousedown"], middle: ["auxclick", "mousedown"] };

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<PointerResult & {clicked: string}>}
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
    const { value: arrived, effects, recording } = await withPointer(action, ctx, tabId, "click", { dialogs, fronted }, async (aimed) => {
      const there = await arrive(ctx, tabId, aimed, "click");
      await clickMouse(ctx, tabId, there.aim.local, { button, clickCount: /** @type {number} */ (clickCount), sessionId: aimed.sessionId, move: false });
      return there;
    });
    const got = receiver(recording, CLICK_EVENTS[button], arrived.aim.target, arrived.changed);
    return withNote({ clicked: got.name, x: arrived.aim.point.x, y: arrived.aim.point.y, effects }, got.note);
  }, { frontConcurrently: true });
}

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<PointerResult & {hovered: string}>}
 */
export async function hover(action, ctx) {
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const { value: arrived, effects, recording } = await withPointer(action, ctx, tabId, "hover", { dialogs },
      (aimed) => arrive(ctx, tabId, aimed, "hover"));
    const got = receiver(recording, ["mousemove", "mouseover"], arrived.aim.target, arrived.changed);
    return withNote({ hovered: got.name, x: arrived.aim.point.x, y: arrived.aim.point.y, effects }, got.note);
  });
}

/**
 * @template {Record<string, unknown>} T
 * @param {T} result
 * @param {string} note
 * @returns {T & {note?: string}}
 */
function withNote(result, note) {
  return note ? { ...result, note } : result;
}
