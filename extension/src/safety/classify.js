/**
 * Which actions are sensitive: the one place that decides it, from the action declaration's `sensitive_by`
 * (generated into ../generated/protocol.js) and the facts page-facts.js read about the real target. What a label
 * commands is label-rules.js; which fields make a form sensitive is card-fields.js; the words of both are
 * app/protocol/safety/sensitive-words.json (generated into ../generated/sensitive-words.js).
 *
 * What asks:
 * - click (or Enter/Space on a focused control): a control any reading of which (its accessible name, its visible
 *   text with CSS generated content, its value, title or icon title; for a text-less control its class and symbol
 *   names) commands to pay, send, delete, transfer or change an account in one of 20 languages, the most sensitive
 *   reading winning; a submit button of a form holding a payment-card, password or ID-number field; a link
 *   downloading an executable;
 * - `type` or `fill` with `submit`, or Enter in a field: the form that is submitted (fill: its last field's) as
 *   above, with what the action types (a card number asks), or the form's submit button or the field's own label
 *   saying so ("Write a reply…");
 * - drag: its source as a click, and its drop target, where a destination ("Trash") deletes;
 * - `evaluate`: a page that holds any such control or form (a script can reach all of them, in closed shadow
 *   roots too);
 * - `type` into a <select>: an option whose label says so, or any option of a select that submits a form as above
 *   on change.
 * The label of a control that switches a setting or a view (switch, checkbox, radio, tab, option: "Publish
 * immediately" names a setting) is not read as a command.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";
import { SEVERITY, hintWords, labelCategory } from "./label-rules.js";
import { formFieldReason } from "./card-fields.js";

export { formFieldReason, labelCategory };

/**
 * @typedef {import("./page-facts.js").ControlFacts} ControlFacts
 * @typedef {import("./page-facts.js").FormFacts} FormFacts
 * @typedef {{category: string, reason: string, element: string}} Finding
 * @typedef {"click" | "submit" | "drop"} Mode
 */

/** Controls that switch a setting or a view rather than run a command: their label names the setting. */
const TOGGLES = /^(switch|checkbox|radio|tab|option|menuitemcheckbox|menuitemradio|treeitem)$/;
const TOGGLE_INPUTS = /^(checkbox|radio)$/;

const CATEGORY_REASON = Object.freeze({
  pay: "it can pay or place an order",
  send: "it can send or publish something in the person's name",
  delete: "it can delete, remove or cancel something",
  transfer: "it can transfer or withdraw money",
  account: "it can change a password, email or two-factor setting",
});

/** @param {string} s */
function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The finding of a link that downloads an executable: its approval lets the download through (tabs/executable-guard.js). */
export const DOWNLOAD_CATEGORY = "download";
/** Executable extensions that a link path ending in a site or a script name also has (`example.com`, `app.js`). */
const URL_LIKE_EXTENSIONS = new Set(SENSITIVE_WORDS.extensions_that_read_as_urls);
/** The file names of programs and scripts: a link to one asks, and tabs/executable-guard.js stops a download of one. */
export const EXECUTABLE = new RegExp(`\\.(?:${SENSITIVE_WORDS.executable_extensions.map(escape).join("|")})$`, "i");

/**
 * The file a link downloads, when it is an executable.
 * @param {ControlFacts} control
 * @returns {string | null}
 */
export function executableDownload(control) {
  if (control.tag !== "a") return null;
  let path = "";
  try {
    path = decodeURIComponent(new URL(control.href).pathname);
  } catch {
    path = "";
  }
  const name = control.download || path.split("/").pop() || "";
  if (!EXECUTABLE.test(name)) return null;
  // A link path ending in `example.com` or `tool.app` is far more often a page about a site than a program; a
  // plain `app.js` opens as text. Such a name asks only when the link says it downloads; a real download of one
  // is still stopped by tabs/executable-guard.js.
  const extension = name.slice(name.lastIndexOf(".") + 1).toLowerCase();
  return control.download || !URL_LIKE_EXTENSIONS.has(extension) ? name : null;
}

/** @param {ControlFacts} control */
function describe(control) {
  const kind = control.tag === "a" ? "link" : control.tag === "input" || control.tag === "textarea" ? "field" : control.role || control.tag;
  const label = quotable(control);
  return label ? `${kind} “${label.slice(0, 80)}”` : kind;
}

/**
 * The label a confirmation may quote: what a person sees of the control (`shown`, from the visibility judgement);
 * facts built without the page library (node tests) quote their `label`.
 * @param {ControlFacts} control
 */
function quotable(control) {
  return control.shown === undefined ? control.label : control.shown;
}

/**
 * The most sensitive category any reading of a control commands, and that reading.
 * @param {ControlFacts} control
 * @param {import("./label-rules.js").ReadAs} as
 * @returns {{category: string, reading: string} | null}
 */
function readingCategory(control, as) {
  /** @type {{category: string, reading: string} | null} */
  let best = null;
  const readings = control.readings?.length ? control.readings : [control.label];
  const candidates = [...readings.map((reading) => ({ reading, hint: false })),
    ...(control.hint ? [{ reading: hintWords(control.hint), hint: true }] : [])];
  for (const { reading, hint } of candidates) {
    const category = labelCategory(reading, { ...as, hint });
    if (category && (!best || SEVERITY.indexOf(category) < SEVERITY.indexOf(best.category))) best = { category, reading };
  }
  return best;
}

/**
 * The reason a category gives, naming the reading when it is not what the control shows ("its accessible name
 * “Pay 500 EUR”").
 * @param {ControlFacts} control
 * @param {{category: string, reading: string}} found
 */
function readingReason(control, found) {
  const why = /** @type {any} */ (CATEGORY_REASON)[found.category];
  if (found.reading === control.label) return why;
  // A reading nobody sees (an aria-label, hidden text) is named by what it is, never quoted to the model.
  const seen = quotable(control).includes(found.reading);
  return seen ? `${why} (it also reads “${found.reading.slice(0, 80)}”)` : `${why} (by a reading of it a person does not see: its accessible name, title or hidden text)`;
}

/**
 * Is acting on this control sensitive? `click`: a click (or Enter/Space on it); `submit`: Enter in it or `type` or
 * `fill` with submit; `drop`: the target a drag drops onto.
 * @param {ControlFacts | null} control
 * @param {Mode} mode
 * @param {readonly unknown[]} [typed] what the action types (fill's values, type's text): a card number asks
 * @returns {Finding | null}
 */
export function classifyControl(control, mode, typed = []) {
  if (!control) return null;
  const element = describe(control);
  if (control.frame) return { category: "unknown", reason: "the key goes into a frame bua cannot inspect", element };
  if (mode !== "submit") {
    const download = mode === "click" ? executableDownload(control) : null;
    if (download) return { category: DOWNLOAD_CATEGORY, reason: `it downloads an executable (${download})`, element };
    const setting = control.editable || TOGGLES.test(control.role) || TOGGLE_INPUTS.test(control.type);
    const link = control.link ?? (control.tag === "a" && !!control.href);
    const found = setting && mode === "click" ? null
      : readingCategory(control, { submits: control.submits, destination: mode === "drop" || !link, button: mode === "click" && !link });
    if (found) return { category: found.category, reason: readingReason(control, found), element };
    if (!control.submits) return null;
  }
  const fields = formFieldReason(control.form, typed);
  if (fields) return { category: "form", reason: fields, element };
  if (mode !== "submit") return null;
  const own = readingCategory(control, { submits: true, destination: false });
  if (own) return { category: own.category, reason: readingReason(control, own), element };
  const button = control.form ? (control.form.submitReadings ?? [control.form.submit]) : [];
  for (const reading of button) {
    const category = labelCategory(reading, { submits: true, button: true });
    if (category) {
      return { category, reason: `its form's button “${reading}”: ${/** @type {any} */ (CATEGORY_REASON)[category]}`, element };
    }
  }
  return null;
}

/**
 * Is choosing `option` in this control sensitive (`type` into a <select>)? The option's own label ("Delete my
 * account", "Pay with card") as a command; and, for a select that submits its form on change, that form as a
 * submit would be. Null for any other control (typing text is checked by the data-flow check, in the app).
 * @param {ControlFacts | null} control
 * @param {string} option
 * @returns {Finding | null}
 */
export function classifyChoice(control, option) {
  if (!control || control.tag !== "select") return null;
  const element = `${describe(control)} option “${String(option).slice(0, 80)}”`;
  const category = labelCategory(option);
  if (category) return { category, reason: `choosing it: ${/** @type {any} */ (CATEGORY_REASON)[category]}`, element };
  if (!control.changeSubmits) return null;
  const submitted = classifyControl({ ...control, tag: "select", editable: false, submits: true }, "submit");
  return submitted ? { ...submitted, reason: `choosing an option submits its form: ${submitted.reason}`, element } : null;
}

/**
 * Is there a sensitive control or form anywhere on the page (for `evaluate`)? Every finding, at most `limit`.
 * @param {import("./page-facts.js").PageFacts} page
 * @param {number} [limit]
 * @returns {Finding[]}
 */
export function classifyPage(page, limit = 5) {
  /** @type {Finding[]} */
  const found = [];
  for (const control of page.controls) {
    const finding = classifyControl(control, "click");
    if (finding) found.push(finding);
    if (found.length >= limit) return found;
  }
  for (const form of page.forms) {
    const reason = formFieldReason(form);
    if (reason) found.push({ category: "form", reason, element: `form${form.name ? ` “${form.name}”` : ""}` });
    if (found.length >= limit) return found;
  }
  return found;
}

/**
 * Does a key press activate something (a click) or submit what has focus? Enter (also with modifiers: Ctrl+Enter
 * sends in many mail and chat apps) submits a field and activates a control; Space activates a control only.
 * @param {string} key
 * @param {ControlFacts | null} control
 * @returns {"click" | "submit" | null}
 */
export function keyMode(key, control) {
  if (!control) return null;
  const last = String(key).split("+").pop()?.trim().toLowerCase() ?? "";
  const enter = last === "enter" || last === "numpadenter" || last === "return";
  const space = last === "space" || last === " " || last === "spacebar";
  if (control.frame) return enter ? "submit" : null;
  if (control.editable) return enter ? "submit" : null;
  return enter || space ? "click" : null;
}
