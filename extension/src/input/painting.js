/**
 * Tabs that paint no frames: a tab in a minimised window, or behind another
 * tab. Chrome then holds back whatever waits for a frame: a screenshot waits
 * forever, a mouse move up to a second (measured: ~1,000 ms per
 * Input.dispatchMouseEvent mouseMoved in a minimised window once the page has
 * changed). A running screencast makes Chrome keep such a tab painting while
 * it stays hidden (its 16 px frames are ignored), so bua runs one around the
 * inputs and captures that need frames.
 *
 * A capture (Page.captureScreenshot) waits for a frame the tab paints after
 * it is asked: in a tab that paints none it never answers (measured,
 * bench/capture_bench.py with the screencast left out: every capture in the
 * minimised window hung, headless and headful). Whether a tab paints cannot be
 * told from its window's state: a window just created minimised may still
 * report "normal", and a person's window covered by another application is
 * "normal" while Chrome's occlusion tracking stops its frames. So a capture
 * (`forCapture`) always runs the screencast.
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

/** @type {Map<number, {count: number, started: Promise<boolean>, framed?: Promise<boolean>}>} tab id → the callers
 *  keeping it painting (framed: a screencast started whatever the window's state) */
const holders = new Map();

/**
 * Make a tab that is not painting paint until the returned function is
 * called. Callers may overlap (an action's effects window around its own
 * input): one screencast starts with the first and stops with the last.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{forCapture?: boolean}} [options] forCapture: a screencast runs whatever the window's state
 * @returns {Promise<() => Promise<void>>} stop (once)
 */
export async function keepPainting(ctx, tabId, { forCapture = false } = {}) {
  let entry = holders.get(tabId);
  if (!entry) {
    entry = { count: 0, started: forCapture ? Promise.resolve(false) : startPainting(ctx, tabId) };
    holders.set(tabId, entry);
  }
  const held = entry;
  if (forCapture && !held.framed) {
    // One screencast per tab: when a holder's is running already the tab paints; one that started none (the tab
    // looked painting) is started now.
    const before = held.started;
    held.framed = before.catch(() => false).then((running) => running || startScreencast(ctx, tabId));
    held.started = held.framed.then(() => true);
  }
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

/** A screencast's smallest frames: only its keeping the tab painting is wanted. */
const SCREENCAST = { format: "jpeg", quality: 1, maxWidth: 16, maxHeight: 16 };

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<boolean>} whether a screencast was started
 */
async function startPainting(ctx, tabId) {
  const { painting } = await tabPainting(ctx, tabId);
  if (painting) return false;
  return startScreencast(ctx, tabId);
}

/** @param {ActionContext} ctx @param {number} tabId @returns {Promise<true>} */
async function startScreencast(ctx, tabId) {
  await ctx.debugger.send(tabId, "Page.startScreencast", SCREENCAST);
  return true;
}
