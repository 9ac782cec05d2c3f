/**
 * A mouse press sent through CDP makes Chrome focus the tab's window, which
 * restores a minimised window and raises it over what the person is using
 * (measured on X11: Input.dispatchMouseEvent mousePressed and
 * Input.synthesizeTapGesture do it; key events, insertText, mouse moves and
 * screenshots do not). For a press in a window that was minimised or not
 * focused, the window is put back afterwards: minimised again, and the focus
 * returned to the window that had it.
 *
 * The restore is asynchronous: on a loaded machine the window manager maps
 * the window tens to hundreds of milliseconds after the press, when
 * chrome.windows still reported "minimized" right after it (seen in CI). So
 * the check runs once when the press is done and again, without holding up
 * the action, a few times over the next two seconds. A deliberate "Show tab"
 * releases the window from that guard.
 *
 * A press that comes while an earlier press's guard still runs puts the
 * window back to what it was before that earlier press, not to what it reads
 * now: it may be in the middle of being restored by the earlier press (read
 * as "normal", and then it would be left so), and the focused window may
 * already be the bua window.
 */

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/** Delays (ms, each after the previous check) of the re-checks after a press. */
export const GUARD_DELAYS_MS = [40, 120, 300, 600, 1000];
/** How long past its last re-check a guard's record of the window is trusted, should it never be run out. */
const GUARD_SLACK_MS = 1000;

/**
 * window id → the record of its running guard: the window and the person's focused window as they were
 * before the first press of the burst, trusted until `until` (a guard that was never run out does not
 * linger). A guard stops once its window holds another record, or none.
 * @type {Map<number, {before: any, focused: Promise<any>, until: number}>}
 */
const guarded = new Map();

/**
 * Stop putting a window back (the person or "Show tab" brought it forward on purpose).
 * @param {number} windowId
 */
export function releaseWindow(windowId) {
  guarded.delete(windowId);
}

/**
 * Call before the press; call the returned function after it.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{delays?: number[], sleep?: (ms: number) => Promise<void>, tab?: Promise<any>}} [options]
 *   tab: the tab as already read for this action (saves asking again)
 * @returns {Promise<() => Promise<void>>}
 */
export async function keepInBackground(ctx, tabId, options = {}) {
  const windows = ctx.windows;
  if (!windows) return async () => {};
  const tab = (await options.tab) ?? (await ctx.tabs.get(tabId).catch(() => null));
  if (!tab) return async () => {};
  const delays = options.delays ?? GUARD_DELAYS_MS;
  const running = guarded.get(tab.windowId);
  let before;
  let focused;
  if (running && Date.now() < running.until) {
    ({ before, focused } = running);
  } else {
    before = await windows.get(tab.windowId).catch(() => null);
    if (!before || (before.focused && before.state !== "minimized")) return async () => {};
    // Asked now, answered before the press can move the focus (both go through the browser in order); not
    // awaited here, so it costs the action no time.
    focused = windows.getLastFocused({ windowTypes: ["normal"] }).catch(() => null);
  }
  const record = { before, focused, until: Date.now() + delays.reduce((a, b) => a + b, 0) + GUARD_SLACK_MS };
  guarded.set(before.id, record);
  const putBackNow = async () => putBack(windows, before, await focused);
  return async () => {
    await putBackNow();
    const sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    void (async () => {
      for (const ms of delays) {
        await sleep(ms);
        if (guarded.get(before.id) !== record) return;
        await putBackNow();
      }
      if (guarded.get(before.id) === record) guarded.delete(before.id);
    })();
  };
}

/**
 * @param {any} windows chrome.windows
 * @param {any} before the window as it was before the press
 * @param {any} focused the person's focused window before the press, if any
 */
async function putBack(windows, before, focused) {
  const after = await windows.get(before.id).catch(() => null);
  if (!after) return;
  if (before.state === "minimized" && after.state !== "minimized") {
    await windows.update(before.id, { state: "minimized" }).catch(() => {});
  }
  if (focused && focused.id !== before.id && focused.focused && after.focused) {
    await windows.update(focused.id, { focused: true }).catch(() => {});
  }
}
