/**
 * The in-page half of `upload` (run with `this` = the target, helpers from
 * declared uses in scope: page/page-code.js).
 */

import { definePageFunction } from "./page-code.js";
import { describeElement, disabledReason } from "./functions.js";

/**
 * The file input the target stands for: itself, its label's control, or the
 * first one inside it (also in its open shadow root); null for a drop zone.
 * @this {any}
 */
export function pickFileInput() {
  const el = this;
  const isFile = (/** @type {any} */ e) => e && e.tagName === "INPUT" && String(e.type).toLowerCase() === "file";
  if (isFile(el)) return el;
  if (el.tagName === "LABEL" && isFile(el.control)) return el.control;
  const query = "input[type=file]";
  return (el.querySelector && el.querySelector(query)) || (el.shadowRoot && el.shadowRoot.querySelector(query)) || null;
}
definePageFunction(pickFileInput);

/** @this {HTMLInputElement} */
export function fileInputFacts() {
  const el = this;
  return {
    target: describeElement(el),
    multiple: Boolean(el.multiple),
    accept: String(el.accept || ""),
    disabled: disabledReason(el),
  };
}
definePageFunction(fileInputFacts, { uses: [describeElement, disabledReason] });

/** The files a file input holds now, as name and size. @this {HTMLInputElement} */
export function chosenFiles() {
  return Array.from(this.files || []).map((/** @type {File} */ f) => ({ name: f.name, size: f.size }));
}
definePageFunction(chosenFiles);
