/**
 * press_key {key, tab_id?, dialog?, prompt_text?}: one key or combination
 * (Enter, Tab, Escape, ArrowDown, PageDown, Control+A, Shift+Tab, …) sent to
 * whatever has focus in the tab, with the effects it had.
 *
 * A copy or cut chord (Control/Meta+C or X, Control+Insert, Shift+Delete) also answers `copied`: the text it
 * put on the clipboard (the focused field's selected value, else the page's selection, read in bua's world just
 * before the key). The declaration marks it as the page's text that is now on the clipboard
 * (app/protocol/actions/press_key.py), so the app remembers it under the copying site and checks a later paste
 * as typing it (app/safety/guard.py).
 */

import { onTaskTab } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { isMac, pressKey } from "../input/keyboard.js";
import { copiesSelection, parseKeyCombo } from "../input/keys.js";
import { keepPainting } from "../input/painting.js";
import { inWorld } from "../tabs/isolated-world.js";
import { definePageFunction } from "../page/page-code.js";
import { deepActiveElement } from "../page/functions.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"press_key">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"press_key">>}
 */
export async function pressKeyAction(action, ctx) {
  const copies = copiesSelection(parseKeyCombo(action.key, { mac: isMac() }));
  const key = action.key;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    // Keys that scroll animate the scroll, which needs frames: a tab in the minimised bua window paints none.
    // The effects window keeps it painting too, but starts that alongside the watch; this is in place
    // before the key is sent (the two share one screencast).
    const stopPainting = await keepPainting(ctx, tabId);
    try {
      const copied = copies ? String(await readJudgedByPixels(ctx.debugger, tabId, undefined,
        (pixels) => inWorld(ctx, tabId, copiedText, [], { pixels })).catch(() => "")) : "";
      const watch = await watchEffects(ctx, tabId, { settleMs: settleMsOf(action) });
      try {
        await pressKey(ctx, tabId, key);
      } catch (err) {
        watch.stop();
        throw err;
      }
      return { pressed: key, ...(copied ? { copied } : {}), effects: await watch.finish(dialogs.records) };
    } finally {
      await stopPainting();
    }
  });
}

/**
 * In the page (bua's world): what a copy takes now, as a person sees it: the focused field's selected value, else
 * the text the selection shows (the library's seenRuns, extract/page-seen.js: the one visibility judgement), never
 * Selection.toString(), which holds the selection's hidden text too (what the clipboard gets, and a paste types,
 * is the page's business: the model is told only what it could read). "" where the library is missing.
 * @returns {string}
 */
function copiedText() {
  const el = deepActiveElement();
  if (el && typeof el.value === "string" && typeof el.selectionStart === "number" && el.selectionEnd > el.selectionStart) {
    return el.type === "password" ? "" : el.value.slice(el.selectionStart, el.selectionEnd);
  }
  const selection = (el?.ownerDocument?.defaultView ?? window).getSelection();
  const lib = globalThis.__bua;
  if (!selection || selection.rangeCount === 0 || !lib || typeof lib.seenRuns !== "function") return "";
  let out = "";
  for (let i = 0; i < selection.rangeCount; i++) {
    const range = selection.getRangeAt(i);
    if (range.collapsed) continue;
    lib.seenRuns(range.commonAncestorContainer, (/** @type {string} */ text, /** @type {Text | null} */ node) => {
      // a line break, a block's edge or an image's alt text between the selected texts
      if (node === null) {
        if (out) out += text;
        return false;
      }
      if (!range.intersectsNode(node)) return false;
      const start = node === range.startContainer ? range.startOffset : 0;
      const end = node === range.endContainer ? range.endOffset : text.length;
      out += text.slice(start, end);
      return out.length > 100_000;
    });
    out += " ";
  }
  return out.replace(/[ \t]+/g, " ").replace(/ *\n */g, "\n").trim();
}
definePageFunction(copiedText, { uses: [deepActiveElement] });

export { pressKeyAction as handler };
