/**
 * fill {fields: [{uid|selector, value}], submit?, dialog?, prompt_text?}
 *   → {as_asked?, fields?: [{field, error?, typed_into?, selected?, value?, value_length?, note?, …}], submitted?,
 *      submit_button?, submit_error?, effects}
 *
 * Each field as `type` with `clear` would fill it (actions/type.js, page/type.js): text replaces the value, a
 * select takes an option by label; a checkbox or radio takes true/false and is clicked when it differs. A field
 * that fails gets its error in its own result and the others are still filled. `submit` then submits the
 * form of the last field (its submit button's way: validation, then the submit event) or, with no form,
 * presses Enter in it — only when every field was filled. The effects cover the whole call.
 *
 * Each fact once (docs/architecture.md, "Each fact once"): a field that now shows the value asked for, in the
 * element the model named, is only counted (`as_asked`); `fields` lists the others with what differs from the
 * request — the value the field reads back (maxlength, a reformatting page), the option a select chose, the
 * element typed into when it is not the one named (a label's or wrapper's field), the key-press fallback, or
 * the error.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { onTaskTab, targetElement } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";
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
 * @typedef {{result: Record<string, unknown> | null, changed: boolean, element?: ResolvedElement, text: boolean,
 *   reported: string[], typedIn?: string}} FieldOutcome a field's result (null: as asked, only counted), whether
 *   its value changed, the element filled, the uids its result covers (REPORTED_UIDS), and the field typing
 *   focused (its description)
 */

/** What an outcome of text entry (support/text-entry.js fill) says beyond where it typed: each differs from a plain fill. */
const ENTRY_REMARKS = ["typed_with", "value_unchanged", "next_step"];

/**
 * @param {import("./support/context.js").ActionOf<"fill">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"fill">>}
 */
export async function fillForm(action, ctx) {
  const fields = action.fields;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const watch = await watchEffects(ctx, tabId, { settleMs: settleMsOf(action) });
    /** @type {FieldOutcome[]} */
    const outcomes = [];
    /** @type {Record<string, unknown>} */
    const extra = {};
    try {
      /** @type {{element: ResolvedElement, text: boolean} | null} */
      let last = null;
      for (const field of fields) {
        const done = await fillOne(ctx, tabId, field);
        outcomes.push(done);
        if (done.element) last = { element: done.element, text: done.text };
      }
      const allFilled = outcomes.every((o) => !o.result?.error);
      if (action.submit && last && allFilled) Object.assign(extra, await submit(ctx, tabId, last));
      else if (action.submit) extra.submit_error = "not submitted: a field could not be filled; fix it and fill again with submit";
    } catch (err) {
      watch.stop();
      throw err;
    }
    const effects = await watch.finish(dialogs.records, { valueChanged: outcomes.some((o) => o.changed) });
    // Focus on a field bua typed into is the fill's own doing, not the page's: not reported as an effect.
    if (effects.focus_moved_to && outcomes.some((o) => o.typedIn === effects.focus_moved_to)) delete effects.focus_moved_to;
    const listed = outcomes.flatMap((o) => (o.result ? [o.result] : []));
    const asAsked = outcomes.length - listed.length;
    /** @type {Record<string | symbol, unknown>} */
    const done = { ...(asAsked ? { as_asked: asAsked } : {}), ...(listed.length ? { fields: listed } : {}), ...extra, effects };
    const reported = outcomes.flatMap((o) => o.reported);
    if (reported.length) Object.defineProperty(done, REPORTED_UIDS, { value: reported, enumerable: true });
    return done;
  });
}

/**
 * Fill one field; an ActionError becomes that field's result.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Field} field
 * @returns {Promise<FieldOutcome>}
 */
async function fillOne(ctx, tabId, field) {
  const name = field.uid ?? /** @type {string} */ (field.selector);
  try {
    const element = await editableOf(ctx, tabId, await targetElement(field, ctx, tabId));
    const facts = await guarded(readJudgedByPixels(ctx.debugger, tabId, element.sessionId, (pixels) => onElement(ctx, tabId, element, editFacts, [], pixels)));
    /** @type {Record<string, unknown>} */
    const differs = element.instead ? { typed_into: facts.target } : {};
    if (facts.inputType === "checkbox" || facts.inputType === "radio") {
      const changed = await tick(ctx, tabId, element, facts, field.value);
      const after = await onElement(ctx, tabId, element, readValue).catch(() => null);
      return { ...outcomeOf(tabId, element, after, name, differs), changed, element, text: false };
    }
    if (typeof field.value !== "string") {
      throw new ActionError(ErrorCode.INVALID_ACTION, `${facts.target} takes text, not ${field.value}; give the value as a string`, quoting(facts.target));
    }
    refuseUnusable(facts);
    if (facts.kind !== "select" && facts.kind !== "value") {
      await guarded(ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId));
    }
    const entered = await enterValue(ctx, tabId, element, facts, field.value, true);
    const after = await onElement(ctx, tabId, element, readValue).catch(() => null);
    for (const key of ENTRY_REMARKS) if (key in entered) differs[key] = entered[key];
    if (facts.kind === "select") {
      if (!sameText(String(entered.selected), field.value)) differs.selected = entered.selected;
    } else if (!after) {
      differs.note = "the field could not be read back (the page may have replaced it); extract to see it";
    } else if (after.value !== field.value) {
      Object.assign(differs, shownValue(after));
      if (!entered.value_unchanged) differs.note = "the field does not show the value as given; it may have rejected or reformatted it";
    }
    const changed = !after || after.value !== facts.value;
    const text = facts.kind === "text" || facts.kind === "contenteditable";
    return { ...outcomeOf(tabId, element, after, name, differs), changed, element, text, ...(text ? { typedIn: facts.target } : {}) };
  } catch (err) {
    if (!(err instanceof ActionError)) throw err;
    return { result: { field: name, error: { code: err.code, message: err.message, ...quoted(err) } }, changed: false, text: false, reported: [] };
  }
}

/**
 * A filled field's result: null when it is as asked (nothing differs), and the uids it covers either way.
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {Parameters<typeof reporting>[2]} after
 * @param {string} name the field as the model named it
 * @param {Record<string, unknown>} differs
 */
function outcomeOf(tabId, element, after, name, differs) {
  const result = reporting(tabId, element, after, { field: name, ...differs });
  const reported = /** @type {{[REPORTED_UIDS]?: string[]}} */ (result)[REPORTED_UIDS] ?? [];
  return { result: Object.keys(differs).length ? result : null, reported };
}

/**
 * Whether two texts are the same but for runs of white space (an option's label as a select shows it).
 * @param {string} a
 * @param {string} b
 */
function sameText(a, b) {
  const norm = (/** @type {string} */ t) => t.replace(/\s+/g, " ").trim();
  return norm(a) === norm(b);
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
 * @returns {Promise<boolean>} whether it was clicked (it was not already as asked)
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
  return Boolean(set.changed);
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{element: ResolvedElement, text: boolean}} last
 * @returns {Promise<{submitted?: string, submit_button?: string, submit_error?: string}>}
 */
async function submit(ctx, tabId, last) {
  const how = await guarded(onElement(ctx, tabId, last.element, submitForm));
  // The button is named only when the form has others: then which one submitted it is news.
  if (how.how === "form") return { submitted: "form", ...(how.buttons > 1 && how.button ? { submit_button: how.button } : {}) };
  if (how.how === "invalid") return { submit_error: `the form did not accept its values: ${how.fields.join("; ")}` };
  await onElement(ctx, tabId, last.element, focusThis);
  await pressKey(ctx, tabId, "Enter");
  return { submitted: "Enter (no form)" };
}

/** In the page: focus `this`. @this {any} */
function focusThis() {
  this.focus();
  return true;
}
definePageFunction(focusThis, { uses: [] });

export { fillForm as handler };
