/**
 * Getting a tab ready for input before an action, once per debugger
 * attachment: the Page domain on (so dialogs are reported and answered),
 * focus emulated (a tab in the minimised bua window or behind another tab
 * behaves as focused: focus events, :focus, document.hasFocus()), the page
 * lifecycle forced to active (a frozen background tab runs again), and any
 * dialog that opened before bua listened closed.
 */

import { perAttachment } from "./attachment-cache.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/** Each tab is prepared once per debugger attachment. */
const prepared = perAttachment();

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<void>}
 */
export function prepareTab(ctx, tabId) {
  return prepared(ctx.debugger, tabId, () => prepareNow(ctx, tabId));
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 */
async function prepareNow(ctx, tabId) {
  await ctx.debugger.send(tabId, "Page.enable");
  await ctx.dialogs?.closeStray(tabId);
  await Promise.all([
    ctx.debugger.send(tabId, "Emulation.setFocusEmulationEnabled", { enabled: true }).catch(() => {}),
    ctx.debugger.send(tabId, "Page.setWebLifecycleState", { state: "active" }).catch(() => {}),
  ]);
}
