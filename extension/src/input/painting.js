/**
 * Tabs that paint no frames: a tab in a minimised window, or behind another
 * tab. Chrome then holds back whatever waits for a frame: a screenshot waits
 * forever, a mouse move up to a second (measured: ~1,000 ms per
 * Input.dispatchMouseEvent mouseMoved in a minimised window once the page has
 * changed). A running screencast makes Chrome keep such a tab painting while
 * it stays hidden (its 16 px frames are ignored), so bua runs one around the
 * inputs and captures that need frames.
 */

/** @typedef {import("../action-dispatcher.js").ActionContext} ActionContext */

/**
 * The tab, its window, and whether it is painting.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<{tab: any, window: any, painting: boolean}>}
 */
export async function tabPainting(ctx, tabId) {
  const tab = await ctx.tabs.get(tabId).catch(() => null);
  const window = tab && ctx.windows ? await ctx.windows.get(tab.windowId).catch(() => null) : null;
  const painting = Boolean(tab?.active) && window?.state !== "minimized";
  return { tab, window, painting };
}

/**
 * Make a tab that is not painting paint until the returned function is called.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<() => Promise<void>>} stop
 */
export async function keepPainting(ctx, tabId) {
  const { painting } = await tabPainting(ctx, tabId);
  if (painting) return async () => {};
  await ctx.debugger.send(tabId, "Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 16, maxHeight: 16 });
  return () => ctx.debugger.send(tabId, "Page.stopScreencast").then(() => {}, () => {});
}
