/**
 * press_key {key, tab_id?, dialog?, prompt_text?}: one key or combination
 * (Enter, Tab, Escape, ArrowDown, PageDown, Control+A, Shift+Tab, …) sent to
 * whatever has focus in the tab, with the effects it had.
 */

import { onTaskTab } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { isMac, pressKey } from "../input/keyboard.js";
import { parseKeyCombo } from "../input/keys.js";
import { keepPainting } from "../input/painting.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<{pressed: string, effects: import("../input/effects.js").Effects}>}
 */
export async function pressKeyAction(action, ctx) {
  parseKeyCombo(action.key, { mac: isMac() });
  const key = /** @type {string} */ (action.key);
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    // Keys that scroll animate the scroll, which needs frames: a tab in the minimised bua window paints none.
    // The effects window keeps it painting too, but starts that alongside the watch; this is in place
    // before the key is sent (the two share one screencast).
    const stopPainting = await keepPainting(ctx, tabId);
    try {
      const watch = await watchEffects(ctx, tabId, { settleMs: settleMsOf(action) });
      try {
        await pressKey(ctx, tabId, key);
      } catch (err) {
        watch.stop();
        throw err;
      }
      return { pressed: key, effects: await watch.finish(dialogs.records) };
    } finally {
      await stopPainting();
    }
  });
}
