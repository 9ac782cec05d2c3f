/**
 * fill {fields: [{uid|selector, value}], submit?, dialog?, prompt_text?}
 *   → {fields: [{field, ok, typed_into?, selected?, checked?, value?, error?}], submitted?, submit_error?, effects}
 *
 * Each field as `type` with `clear` would fill it (actions/type.js, page/type.js): text replaces the value, a
 * select takes an option by label; a checkbox or radio takes true/false and is clicked when it differs. A field
 * that fails gets its error in its own result and the others are still filled. `submit` then submits the
 * form of the last field (its submit button's way: validation, then the submit event) or, with no form,
 * presses Enter in it — only when every field was filled. The effects cover the whole call.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { onTaskTab, targetElement } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { onElement } from "../tabs/isolated-world.js";
import { pressKey } from "../input/keyboard.js";
import { editFacts, readValue } from "../page/type.js";
import { setChecked, submitForm } from "../page/fill.js";
import { editableOf, fill as enterValue, guarded, refuseUnusable, reporting, shownValue } from "./support/text-entry.js";
import { REPORTED_UIDS } from "../extract/action-changes.js";
import { definePageFunction } from "../page/page-code.js";

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {import("../targets/action-target.js").ResolvedElement} ResolvedElement
 * @typedef {import("../generated/protocol-types.js").FillField} Field
 */

/**
 * @param {import("./support/context.js").ActionOf<"fill">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"fill">>}
 */
export async function fillForm(action, ctx) {
  const fields = action.fields;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const watch = await watchEffects(ctx, tabId, { settleMs: settleMsOf(action) });
    /** @type {Record<string, unknown>[]} */
    const results = [];
    /** @type {Record<string, unknown>} */
    const extra = {};
    try {
      /** @type {{element: ResolvedElement, text: boolean} | null} */
      let last = null;
      for (const field of fields) {
        const done = await fillOne(ctx, tabId, field);
        results.push(done.result);
        if (done.element) last = { element: done.element, text: done.text };
      }
      if (action.submit && last && results.every((r) => r.ok)) Object.assign(extra, await submit(ctx, tabId, last));
      else if (action.submit) extra.submit_error = "not submitted: a field could not be filled; fix it and fill again with submit";
    } catch (err) {
      watch.stop();
      throw err;
    }
    const effects = await watch.finish(dialogs.records, { valueChanged: results.some((r) => r.ok && r.changed !== false) });
    for (const r of results) delete r.changed;
    const reported = results.flatMap((r) => /** @type {{[REPORTED_UIDS]?: string[]}} */ (r)[REPORTED_UIDS] ?? []);
    /** @type {Record<string | symbol, unknown>} */
    const done = { fields: results, ...extra, effects };
    if (reported.length) Object.defineProperty(done, REPORTED_UIDS, { value: reported, enumerable: true });
    return done;
  });
}

/**
 * Fill one field; an ActionError becomes that field's result.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Field} field
 * @returns {Promise<{result: Record<string, unknown>, element?: ResolvedElement, text: boolean}>}
 */
async function fillOne(ctx, tabId, field) {
  const name = field.uid ?? /** @type {string} */ (field.selector);
  try {
    const element = await editableOf(ctx, tabId, await targetElement(field, ctx, tabId));
    const facts = await guarded(onElement(ctx, tabId, element, editFacts));
    if (facts.inputType === "checkbox" || facts.inputType === "radio") {
      const result = { field: name, ok: true, ...(await tick(ctx, tabId, element, facts, field.value)) };
      const after = await onElement(ctx, tabId, element, readValue).catch(() => null);
      return { result: reporting(tabId, element, after, result), element, text: false };
    }
    if (typeof field.value !== "string") {
      throw new ActionError(ErrorCode.INVALID_ACTION, `${facts.target} takes text, not ${field.value}; give the value as a string`, quoting(facts.target));
    }
    refuseUnusable(facts);
    if (facts.kind !== "select" && facts.kind !== "value") {
      await guarded(ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId));
    }
    const outcome = await enterValue(ctx, tabId, element, facts, field.value, true);
    const after = await onElement(ctx, tabId, element, readValue).catch(() => null);
    /** @type {Record<string, unknown>} */
    const result = { field: name, ok: true, ...outcome, ...(after ? shownValue(after) : {}) };
    if (after && facts.kind !== "select" && !after.password && after.value !== field.value && !outcome.value_unchanged) {
      result.note = "the field does not show the value as given; it may have rejected or reformatted it";
    }
    return { result: reporting(tabId, element, after, result), element, text: facts.kind === "text" || facts.kind === "contenteditable" };
  } catch (err) {
    if (!(err instanceof ActionError)) throw err;
    return { result: { field: name, ok: false, error: { code: err.code, message: err.message, ...quoted(err) } }, text: false };
  }
}

/**
 * The page text a field's error quotes, kept with it in the field's result (app/protocol/page_data.py marks it).
 * @param {ActionError} err
 */
function quoted(err) {
  return err.details?.page_text ? { page_text: err.details.page_text } : {};
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {import("./support/text-entry.js").EditFacts} facts
 * @param {string | boolean} value
 */
async function tick(ctx, tabId, element, facts, value) {
  const want = value === true || value === "true" ? true : value === false || value === "false" ? false : null;
  if (want === null) {
    throw new ActionError(ErrorCode.INVALID_ACTION, `${facts.target} is a ${facts.inputType}: give true or false, not ${JSON.stringify(value)}`, quoting(facts.target));
  }
  if (facts.disabled) throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} cannot be changed: ${facts.disabled}`, quoting(facts.target));
  const set = await guarded(onElement(ctx, tabId, element, setChecked, [want]));
  if (!set.ok && set.reason === "radio") {
    throw new ActionError(ErrorCode.INVALID_ACTION, `${facts.target} is a checked radio; a radio is cleared by choosing another option of its group (true on that one)`, quoting(facts.target));
  }
  if (!set.ok) throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} did not change when clicked (a script may keep it ${set.checked ? "checked" : "unchecked"})`, quoting(facts.target));
  return { checked: set.checked, element: facts.target, changed: set.changed };
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{element: ResolvedElement, text: boolean}} last
 * @returns {Promise<Record<string, unknown>>}
 */
async function submit(ctx, tabId, last) {
  const how = await guarded(onElement(ctx, tabId, last.element, submitForm));
  if (how.how === "form") return { submitted: how.button ? `form (as ${how.button})` : "form" };
  if (how.how === "invalid") return { submit_error: `the form did not accept its values: ${how.fields.join("; ")}` };
  await onElement(ctx, tabId, last.element, focusThis);
  await pressKey(ctx, tabId, "Enter");
  return { submitted: "Enter (the field is in no form)" };
}

/** In the page: focus `this`. @this {any} */
function focusThis() {
  this.focus();
  return true;
}
definePageFunction(focusThis, { uses: [] });

export { fillForm as handler };
