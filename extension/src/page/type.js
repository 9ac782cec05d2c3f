/**
 * The in-page halves of `type` (run with `this` = the element, helpers from
 * what each declares it uses in scope: page/page-code.js). They run in bua's isolated world: setting
 * `value` there bypasses framework value trackers on the page's wrappers, so
 * the input/change events that follow are seen as real changes.
 */

import { definePageFunction } from "./page-code.js";
import { deepActiveElement, describeElement, disabledReason, hiddenReason } from "./functions.js";

/**
 * The field to type into: the element itself, the control of a label, or the
 * first field inside a wrapper (also in its open shadow root).
 * @this {any}
 */
export function pickEditable() {
  const el = this;
  if (takesInput(el)) return el;
  if (el.tagName === "LABEL" && el.control) return el.control;
  const query = "input:not([type=hidden]), textarea, select, [contenteditable]:not([contenteditable=false])";
  return (el.querySelector && el.querySelector(query)) || (el.shadowRoot && el.shadowRoot.querySelector(query)) || null;
}
definePageFunction(pickEditable, { uses: [takesInput] });

/**
 * Whether an element takes a value itself (an input, textarea, select or contenteditable), so that pickEditable
 * would choose it and no other.
 * @param {any} el
 */
export function takesInput(el) {
  return Boolean(el && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.isContentEditable));
}
definePageFunction(takesInput);

/** `this` takes a value itself (takesInput). @this {any} */
export function takesInputItself() {
  return takesInput(this);
}
definePageFunction(takesInputItself, { uses: [takesInput] });

/** @this {any} */
export function editFacts() {
  const el = this;
  const textTypes = ["text", "search", "email", "url", "tel", "password", "number", ""];
  const valueTypes = ["date", "time", "datetime-local", "month", "week", "color", "range"];
  const facts = {
    target: describeElement(el),
    disabled: disabledReason(el),
    readOnly: Boolean(el.readOnly) && el.tagName !== "SELECT",
    hidden: hiddenReason(el),
    kind: "other",
    inputType: "",
    value: "",
  };
  if (el.tagName === "SELECT") facts.kind = "select";
  else if (el.tagName === "TEXTAREA") facts.kind = "text";
  else if (el.tagName === "INPUT") {
    facts.inputType = String(el.type || "text").toLowerCase();
    facts.kind = textTypes.includes(facts.inputType) ? "text" : valueTypes.includes(facts.inputType) ? "value" : "other";
  } else if (el.isContentEditable) facts.kind = "contenteditable";
  facts.value = facts.kind === "contenteditable" ? String(el.innerText).replace(/\n$/, "") : String(el.value ?? "");
  return facts;
}
definePageFunction(editFacts, { uses: [describeElement, disabledReason, hiddenReason] });

/**
 * Focus the field and place the caret at the end, or select all of it with `clear`.
 * @this {any}
 * @param {boolean} clear
 */
export function focusForTyping(clear) {
  const el = this;
  el.focus();
  const active = deepActiveElement();
  if (active !== el && !(el.isContentEditable && el.contains(active))) return { focused: false, now: describeElement(active) };
  if (el.isContentEditable && !/^(INPUT|TEXTAREA)$/.test(el.tagName)) {
    const selection = el.ownerDocument.getSelection();
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (!clear) range.collapse(false);
    selection.removeAllRanges();
    selection.addRange(range);
    return { focused: true, caretPlaced: true };
  }
  if (clear) {
    el.select();
    return { focused: true, caretPlaced: true };
  }
  try {
    const end = el.value.length;
    el.setSelectionRange(end, end);
    return { focused: true, caretPlaced: true };
  } catch {
    return { focused: true, caretPlaced: false };
  }
}
definePageFunction(focusForTyping, { uses: [deepActiveElement, describeElement] });

/**
 * Choose the option whose label matches (exactly, then by value, then the only
 * label containing the text), firing input and change.
 * @this {HTMLSelectElement}
 * @param {string} text
 */
export function chooseOption(text) {
  const el = this;
  const want = text.replace(/\s+/g, " ").trim().toLowerCase();
  const label = (/** @type {HTMLOptionElement} */ o) => String(o.label || o.textContent || "").replace(/\s+/g, " ").trim();
  // An option the list does not show (hidden, display:none, in a hidden optgroup, coloured like its background)
  // is neither offered nor named (extract/page-visibility.js optionsShown).
  const lib = /** @type {any} */ (globalThis).__bua;
  const options = /** @type {HTMLOptionElement[]} */ (lib.optionsShown(el));
  const containing = options.filter((o) => label(o).toLowerCase().includes(want));
  const match = options.find((o) => label(o).toLowerCase() === want)
    || options.find((o) => String(o.value).toLowerCase() === want)
    || (want && containing.length === 1 ? containing[0] : null);
  if (!match) return { ok: false, labels: options.map(label).slice(0, 100) };
  if (match.disabled) return { ok: false, disabled: label(match), labels: [] };
  if (el.multiple) match.selected = true;
  else el.value = match.value;
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  return { ok: true, label: label(match) };
}
definePageFunction(chooseOption);

/**
 * Set a date/time/color/range value, firing input and change.
 * @this {HTMLInputElement}
 * @param {string} text
 */
export function setValue(text) {
  const el = this;
  /** @type {Record<string, string>} */
  const formats = {
    date: "YYYY-MM-DD", time: "HH:MM", "datetime-local": "YYYY-MM-DDTHH:MM", month: "YYYY-MM",
    week: "YYYY-Www", color: "#rrggbb", range: `a number from ${el.min || 0} to ${el.max || 100}`,
  };
  el.focus();
  el.value = text;
  if (el.type !== "range" && el.value.toLowerCase() !== text.toLowerCase()) return { ok: false, format: formats[el.type] || "the input's format" };
  el.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  el.dispatchEvent(new Event("change", { bubbles: true }));
  return { ok: true };
}
definePageFunction(setValue);

/**
 * The field's value after typing, and whether a person sees it (`shown`, the library's judgement:
 * extract/page-seen.js): a field whose text does not show (transparent, hidden) has its value's length told,
 * not its text; a contenteditable's value is the text it shows.
 * @this {any}
 */
export function readValue() {
  const el = this;
  const lib = globalThis.__bua;
  const editable = el.isContentEditable && !/^(INPUT|TEXTAREA)$/.test(el.tagName);
  const st = lib && typeof lib.seenState === "function" ? lib.seenState(el) : null;
  const shown = Boolean(st && !st.invisible && !st.hideText);
  const value = editable ? (lib ? lib.shownText(el) : "") : String(el.value ?? "");
  // The element's registry key (extract/page-registry.js): which uid the result reports on (action-changes.js).
  const key = lib && typeof lib.idOf === "function" ? { doc: lib.doc, id: lib.idOf(el) } : null;
  return { value, password: el.type === "password", shown, key };
}
definePageFunction(readValue);
