/**
 * A mouse press sent through CDP makes Chrome focus the tab's window, which
 * restores a minimised window and raises it over what the person is using
 * (measured on X11: Input.dispatchMouseEvent mousePressed and
 * Input.synthesizeTapGesture do it; key events, insertText, mouse moves and
 * screenshots do not). For a press in a window that was minimised or not
 * focused, the window is put back afterwards: minimised again, and the focus
 * returned to the window that had it.
 */

import { tabPainting } from "./painting.js";

/** @typedef {import("../action-dispatcher.js").ActionContext} ActionContext */

/**
 * Call before the press; call the returned function after it.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<() => Promise<void>>}
 */
export async function keepInBackground(ctx, tabId) {
  const windows = ctx.windows;
  const { window: before } = await tabPainting(ctx, tabId);
  if (!before || (before.focused && before.state !== "minimized")) return async () => {};
  const focused = await windows.getLastFocused({ windowTypes: ["normal"] }).catch(() => null);
  return async () => {
    const after = await windows.get(before.id).catch(() => null);
    if (!after) return;
    if (before.state === "minimized" && after.state !== "minimized") {
      await windows.update(before.id, { state: "minimized" }).catch(() => {});
    }
    if (focused && focused.id !== before.id && focused.focused) {
      await windows.update(focused.id, { focused: true }).catch(() => {});
    }
  };
}
