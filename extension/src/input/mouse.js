/**
 * Mouse input through Input.dispatchMouseEvent, in the CSS pixels of the
 * session's viewport: the tab's own session (top viewport) or, for an
 * element in an out-of-process iframe, that frame's session (its own
 * viewport), which does not depend on the browser's hit-test data being up
 * to date after a scroll.
 */

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

const BUTTON_BITS = { left: 1, right: 2, middle: 4 };

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{x: number, y: number}} point
 * @param {string} [sessionId] an out-of-process iframe's session
 */
export async function moveMouse(ctx, tabId, { x, y }, sessionId = undefined) {
  await ctx.debugger.send(tabId, "Input.dispatchMouseEvent", { type: "mouseMoved", x, y, button: "none", buttons: 0 }, sessionId);
}

/**
 * One step of a drag with the left button: pressed there, moved there with it held, or released there.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {"mousePressed" | "mouseMoved" | "mouseReleased"} type
 * @param {{x: number, y: number}} point
 * @param {string} [sessionId]
 */
export async function leftButton(ctx, tabId, type, { x, y }, sessionId = undefined) {
  const buttons = type === "mouseReleased" ? 0 : 1;
  await ctx.debugger.send(tabId, "Input.dispatchMouseEvent", { type, x, y, button: "left", buttons, clickCount: 1 }, sessionId);
}

/**
 * Move there, then press and release `clickCount` times (a double click is
 * two press/release pairs with clickCount 1 and 2, as a real one is). The
 * events are sent one after the other without waiting for each
 * acknowledgement: CDP keeps their order on a session and the renderer
 * handles them in that order, so a press is always handled before its
 * release; waiting only made each click a round trip longer. (Chrome
 * acknowledges a move only at the next frame, which a hidden tab may not
 * paint for a second, so waiting for the move would also be slow.)
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{x: number, y: number}} point
 * @param {{button?: "left" | "right" | "middle", clickCount?: number, sessionId?: string, move?: boolean}} [options]
 *   `move: false` when the pointer is already there
 */
export async function clickMouse(ctx, tabId, { x, y }, { button = "left", clickCount = 1, sessionId = undefined, move = true } = {}) {
  const sent = move ? [moveMouse(ctx, tabId, { x, y }, sessionId)] : [];
  const buttons = BUTTON_BITS[button] ?? 1;
  for (let count = 1; count <= clickCount; count++) {
    sent.push(ctx.debugger.send(tabId, "Input.dispatchMouseEvent", { type: "mousePressed", x, y, button, buttons, clickCount: count }, sessionId));
    sent.push(ctx.debugger.send(tabId, "Input.dispatchMouseEvent", { type: "mouseReleased", x, y, button, buttons: 0, clickCount: count }, sessionId));
  }
  const settled = await Promise.allSettled(sent);
  const failed = settled.find((r) => r.status === "rejected");
  if (failed) throw /** @type {PromiseRejectedResult} */ (failed).reason;
}
