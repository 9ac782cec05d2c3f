/**
 * click {uid|selector|point, button?, click_count?, dialog?, prompt_text?}: aim (input/aim.js), move the pointer
 * there and check the aim again once it has arrived, then press and report what really received the click and
 * what changed.
 */

import { ACTIONS } from "../protocol.js";
import { onTaskTab } from "../targets/action-target.js";
import { arrive, receiver, withPointer } from "../input/aim.js";
import { clickMouse } from "../input/mouse.js";
import { withNote } from "./support/pointer-note.js";

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 */

/** The events that tell who received a click, per button, most telling first. */
const CLICK_EVENTS = { left: ["click", "mousedown"], right: ["contextmenu", "mousedown"], middle: ["auxclick", "mousedown"] };

/**
 * @param {import("./support/context.js").ActionOf<"click">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"click">>}
 */
export async function click(action, ctx) {
  const button = action.button ?? ACTIONS.click.defaults.button;
  const clickCount = action.click_count ?? ACTIONS.click.defaults.click_count;
  return onTaskTab(action, ctx, async (tabId, dialogs, fronted) => {
    const { value: arrived, effects, recording, frame } = await withPointer(action, ctx, tabId, { dialogs, fronted }, async (aimed) => {
      const there = await arrive(ctx, tabId, aimed);
      await clickMouse(ctx, tabId, there.aim.local, { button, clickCount, sessionId: aimed.sessionId, move: false });
      return there;
    });
    const got = receiver(recording, CLICK_EVENTS[button], arrived.aim.target, arrived.changed);
    return withNote({ clicked: got.name, x: arrived.aim.point.x, y: arrived.aim.point.y, effects }, got.note, { frame, receiver: got.name });
  }, { frontConcurrently: true });
}

export { click as handler };
