/**
 * Key presses through Input.dispatchKeyEvent; they go to the focused
 * element of the tab (in whichever frame has focus).
 */

import { keyEvents, parseKeyCombo } from "./keys.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/**
 * Whether the browser runs on macOS (shortcuts then need editing commands).
 * @param {any} [nav] the worker's navigator
 */
export function isMac(nav = globalThis.navigator) {
  const platform = nav?.userAgentData?.platform ?? nav?.platform ?? "";
  return /mac/i.test(platform);
}

/**
 * Press a key or combination such as "Enter" or "Control+A".
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} combo
 * @returns {Promise<void>}
 * @throws {import("../protocol.js").ActionError} invalid_action for an unknown key
 */
export async function pressKey(ctx, tabId, combo) {
  const stroke = parseKeyCombo(combo, { mac: isMac() });
  for (const event of keyEvents(stroke)) {
    await ctx.debugger.send(tabId, "Input.dispatchKeyEvent", event);
  }
}
