/**
 * hover {uid|selector|point}: aim (input/aim.js), move the pointer there and check the aim again once it has
 * arrived, then report what really received the pointer and what changed.
 */

import { onTaskTab } from "../targets/action-target.js";
import { arrive, receiver, withPointer } from "../input/aim.js";
import { withNote } from "./support/pointer-note.js";

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 */

/**
 * @param {import("./support/context.js").ActionOf<"hover">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"hover">>}
 */
export async function hover(action, ctx) {
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const { value: arrived, effects, recording, frame } = await withPointer(action, ctx, tabId, { dialogs },
      (aimed) => arrive(ctx, tabId, aimed));
    const got = receiver(recording, ["mousemove", "mouseover"], arrived.aim.target, arrived.changed);
    return withNote({ hovered: got.name, x: arrived.aim.point.x, y: arrived.aim.point.y, effects }, got.note, { frame, receiver: got.name });
  });
}

export { hover as handler };
