/**
 * type {uid|selector, text, clear?, submit?, dialog?, prompt_text?}
 *
 * - text inputs, textareas, contenteditable: focus, put the caret at the end
 *   (or select everything with `clear`), then Input.insertText, which fires
 *   beforeinput/input like real typing, so framework-controlled fields
 *   (React, Vue) update. `clear` with empty text deletes with Backspace.
 *   The native change event follows on commit (blur, Enter), as for a person.
 * - <select>: chooses the option whose label (else value) matches and fires
 *   input + change; no match → element_not_found listing the labels.
 * - date/time/color/range inputs: set the value and fire input + change.
 * - `submit` presses Enter afterwards.
 */

import { onTaskTab, targetElement } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";
import { onElement } from "../tabs/isolated-world.js";
import { pressKey } from "../input/keyboard.js";
import { editFacts, readValue } from "../page/type.js";
import { editableOf, fill, guarded, refuseUnusable, reporting, shownValue } from "./support/text-entry.js";

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 */

/**
 * @param {import("./support/context.js").ActionOf<"type">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"type">>}
 */
export async function typeText(action, ctx) {
  const text = action.text;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const element = await editableOf(ctx, tabId, await targetElement(action, ctx, tabId));
    const facts = await guarded(readJudgedByPixels(ctx.debugger, tabId, element.sessionId, (pixels) => onElement(ctx, tabId, element, editFacts, [], pixels)));
    refuseUnusable(facts);
    // Scrolled to before the effects are watched: bua's own scroll is not an effect of the typing.
    if (facts.kind !== "select" && facts.kind !== "value") {
      await guarded(ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId));
    }
    const watch = await watchEffects(ctx, tabId, { element, settleMs: settleMsOf(action) });
    /** @type {Record<string, unknown>} */
    let outcome;
    try {
      outcome = await fill(ctx, tabId, element, facts, text, Boolean(action.clear));
      if (action.submit) await pressKey(ctx, tabId, "Enter");
    } catch (err) {
      watch.stop();
      throw err;
    }
    // The field's text read back is page text: the pixels judge what page code could not (pixel-reads.js).
    const after = action.submit ? null : await readJudgedByPixels(ctx.debugger, tabId, element.sessionId,
      (pixels) => onElement(ctx, tabId, element, readValue, [], pixels)).catch(() => null);
    const valueChanged = after ? after.value !== facts.value : true;
    const effects = await watch.finish(dialogs.records, { valueChanged });
    /** @type {import("./support/context.js").ResultOf<"type">} */
    const result = { ...outcome, ...(after ? shownValue(after) : {}), effects };
    if (after && text && facts.kind !== "select" && !after.value.includes(text) && !after.password && !outcome.value_unchanged) {
      result.note = "the field does not show the typed text as given; it may have rejected or reformatted it (maxlength, pattern, a number field)";
    }
    return reporting(tabId, element, after, result);
  });
}

export { typeText as handler };
