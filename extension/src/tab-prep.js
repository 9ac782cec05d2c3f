/**
 * Getting a tab ready for input before an action, once per debugger
 * attachment: the Page domain on (so dialogs are reported and answered),
 * focus emulated (a tab in the minimised bua window or behind another tab
 * behaves as focused: focus events, :focus, document.hasFocus()), the page
 * lifecycle forced to active (a frozen background tab runs again), and any
 * dialog that opened before bua listened closed.
 */

/** @typedef {import("./action-dispatcher.js").ActionContext} ActionContext */

/** @type {Map<number, Promise<void>>} */
const prepared = new Map();

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<void>}
 */
export function prepareTab(ctx, tabId) {
  if (prepared.has(tabId) && ctx.debugger.isAttached(tabId)) return /** @type {Promise<void>} */ (prepared.get(tabId));
  const pending = prepareNow(ctx, tabId);
  prepared.set(tabId, pending);
  const stopWatching = ctx.debugger.onDetach(tabId, () => {
    stopWatching();
    if (prepared.get(tabId) === pending) prepared.delete(tabId);
  });
  pending.catch(() => {
    stopWatching();
    if (prepared.get(tabId) === pending) prepared.delete(tabId);
  });
  return pending;
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
