/**
 * Tabs that paint no frames: a tab in a minimised window, or behind another
 * tab. Chrome then holds back whatever waits for a frame: a screenshot waits
 * forever, a mouse move up to a second (measured: ~1,000 ms per
 * Input.dispatchMouseEvent mouseMoved in a minimised window once the page has
 * changed). A running screencast makes Chrome keep such a tab painting while
 * it stays hidden (its 16 px frames are ignored), so bua runs one around the
 * inputs and captures that need frames.
 */

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

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

/** @type {Map<number, {count: number, started: Promise<boolean>}>} tab id → the callers keeping it painting */
const holders = new Map();

/**
 * Make a tab that is not painting paint until the returned function is
 * called. Callers may overlap (an action's effects window around its own
 * input): one screencast starts with the first and stops with the last.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<() => Promise<void>>} stop (once)
 */
export async function keepPainting(ctx, tabId) {
  let entry = holders.get(tabId);
  if (!entry) {
    entry = { count: 0, started: startPainting(ctx, tabId) };
    holders.set(tabId, entry);
  }
  const held = entry;
  held.count++;
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    held.count--;
    if (held.count > 0) return;
    if (holders.get(tabId) === held) holders.delete(tabId);
    if (await held.started.catch(() => false)) {
      await ctx.debugger.send(tabId, "Page.stopScreencast").then(() => {}, () => {});
    }
  };
  try {
    await held.started;
  } catch (err) {
    await stop();
    throw err;
  }
  return stop;
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<boolean>} whether a screencast was started
 */
async function startPainting(ctx, tabId) {
  const { painting } = await tabPainting(ctx, tabId);
  if (painting) return false;
  await ctx.debugger.send(tabId, "Page.startScreencast", { format: "jpeg", quality: 1, maxWidth: 16, maxHeight: 16 });
  return true;
}
