/**
 * Where an out-of-process iframe's viewport sits in the tab's top viewport.
 * Quads from a child session are in that frame's own coordinates; input
 * events go to the tab's session in top-viewport coordinates.
 */

import { ActionError, ErrorCode } from "../protocol.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string | undefined} sessionId a child session, or undefined for the tab itself
 * @returns {Promise<{x: number, y: number}>}
 */
export async function frameOffset(ctx, tabId, sessionId) {
  let x = 0;
  let y = 0;
  let session = sessionId;
  for (let depth = 0; session !== undefined; depth++) {
    const child = ctx.debugger.childTargets(tabId).find((c) => c.sessionId === session);
    if (!child || depth > 10) {
      throw new ActionError(ErrorCode.ELEMENT_STALE, "the element's frame is gone (the iframe was removed or navigated); extract again");
    }
    const parent = child.parentSessionId;
    const { backendNodeId } = await ctx.debugger.send(tabId, "DOM.getFrameOwner", { frameId: child.targetId }, parent);
    const { model } = await ctx.debugger.send(tabId, "DOM.getBoxModel", { backendNodeId }, parent);
    x += model.content[0];
    y += model.content[1];
    session = parent;
  }
  return { x, y };
}
