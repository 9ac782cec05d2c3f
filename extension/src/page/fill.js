/**
 * The in-page halves of `fill` besides what it shares with `type`
 * (page/type.js): ticking a checkbox or radio and submitting the form. They
 * run with `this` = the element, each with what it declares it uses in scope (page/page-code.js).
 */

import { definePageFunction } from "./page-code.js";
import { describeElement } from "./functions.js";

/**
 * Set a checkbox or radio to `want` by clicking it (click, input and change
 * fire as for a person's click), unless it already is.
 * @this {HTMLInputElement}
 * @param {boolean} want
 */
export function setChecked(want) {
  const el = this;
  if (el.checked === want) return { ok: true, checked: want, changed: false };
  if (el.type === "radio" && !want) return { ok: false, reason: "radio" };
  el.click();
  return { ok: el.checked === want, checked: el.checked, changed: true };
}
definePageFunction(setChecked);

/**
 * Submit the element's form as its submit button would (validation first),
 * or say there is no form.
 * @this {any}
 */
export function submitForm() {
  const form = this.form || this.closest?.("form");
  if (!form) return { how: "none" };
  const invalid = [...form.elements].filter((/** @type {any} */ e) => e.willValidate && !e.checkValidity());
  if (invalid.length) {
    return { how: "invalid", fields: invalid.slice(0, 10).map((/** @type {any} */ e) => `${describeElement(e)}: ${e.validationMessage}`) };
  }
  const buttons = form.querySelectorAll("button[type=submit], input[type=submit], button:not([type])");
  const button = buttons[0];
  form.requestSubmit(button && button.form === form && !button.disabled ? button : undefined);
  return { how: "form", button: button ? describeElement(button) : "", buttons: buttons.length };
}
definePageFunction(submitForm, { uses: [describeElement] });
