/**
 * In-page: how a form field's value and type read in its element line.
 *
 * A value is shown exactly (JSON-quoted: leading and trailing spaces and
 * newlines kept), so a model that types back what it read types the same
 * thing; up to MAX_VALUE characters, with a cut mark that says how much
 * there is. An input whose role does not say its type (a date input is a
 * "textbox") shows `type=` and the value format the browser requires,
 * whatever the field displays (`format=yyyy-mm-dd`), with its limits.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";

definePagePart(pageFields, { uses: [pageAria] });

/**
 * Adds fieldValue, fieldType and hasFormat to lib (needs pageAria's cap at call time).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageFields(lib) {
  const TEXT_INPUTS = new Set(["text", "search", "email", "tel", "url", "number", "password"]);
  /** Input types shown in the element line (the others are said by the role: textbox, checkbox, button …). */
  const SHOWN_TYPES = new Set(["email", "tel", "url", "number", "date", "time", "datetime-local", "month", "week", "color"]);
  /** The value format the browser requires, by input type. */
  const FORMATS = /** @type {Record<string, string>} */ ({
    date: "yyyy-mm-dd", time: "HH:MM", "datetime-local": "yyyy-mm-ddTHH:MM", month: "yyyy-mm", week: "yyyy-Www",
    color: "#rrggbb",
  });
  /** Field values are shown whole up to this many characters. */
  const MAX_VALUE = 2000;

  /** @param {string} value `value="…"`, exactly, or its first MAX_VALUE characters and how many there are */
  lib.fieldValue = (value) => {
    if (value.length <= MAX_VALUE) return `value=${JSON.stringify(value)}`;
    return `value=${JSON.stringify(value.slice(0, MAX_VALUE))}… cut at ${MAX_VALUE} of ${value.length} chars`;
  };

  /** @param {any} el whether the element is an input whose value has a required format (its value is shown) */
  lib.hasFormat = (el) => el.tagName === "INPUT" && Object.hasOwn(FORMATS, el.type);

  /**
   * The type of an input whose role does not say it, the format the browser requires for its value, and
   * the limits that apply (min, max, step, maxlength, pattern).
   * @param {any} el an INPUT
   * @returns {string[]}
   */
  lib.fieldType = (el) => {
    const type = el.type;
    if (!SHOWN_TYPES.has(type)) return TEXT_INPUTS.has(type) ? limits(el) : [];
    const out = [`type=${type}`];
    const step = el.getAttribute("step");
    const seconds = (type === "time" || type === "datetime-local") && step && Number(step) % 60 !== 0;
    if (FORMATS[type]) out.push(`format=${FORMATS[type]}${seconds ? ":SS" : ""}`);
    for (const limit of ["min", "max", "step"]) {
      const v = el.getAttribute(limit);
      if (v !== null && v !== "") out.push(`${limit}=${v}`);
    }
    return [...out, ...limits(el)];
  };

  /** maxlength and pattern of a text-like input. @param {Element} el */
  const limits = (el) => {
    const out = [];
    const maxLength = el.getAttribute("maxlength");
    if (maxLength) out.push(`maxlength=${maxLength}`);
    const pattern = el.getAttribute("pattern");
    if (pattern) out.push(`pattern=${JSON.stringify(lib.cap(pattern, 60))}`);
    return out;
  };
}
