/**
 * Which actions are sensitive: the one place that decides it, from the action declaration's `may_be_sensitive`
 * flag (generated into ../generated/protocol.js) and the facts page-facts.js read about the real target. The
 * words come from app/protocol/safety/sensitive-words.json (generated into ../generated/sensitive-words.js).
 *
 * What asks:
 * - click (or Enter/Space on a focused control): a control whose label says pay, buy, checkout, send, post,
 *   reply, delete, remove, close account, cancel, transfer, withdraw, change password/email/two-factor (in
 *   English, German, French, Spanish, Portuguese, Chinese, Japanese); a submit button of a form holding a
 *   payment-card, password or ID-number field; a link downloading an executable;
 * - `type` or `fill` with `submit`, or Enter in a field: the field's form as above, or the form's submit button
 *   or the field's own label saying so ("Write a reply…");
 * - `evaluate`: a page that holds any such control or form (a script can reach all of them);
 * - `type` into a <select>: an option whose label says so, or any option of a select that submits a form as above
 *   on change.
 * A label that also holds an exempt word ("Remove filter") is not sensitive by its words, nor is the label of a
 * control that switches a setting or a view (switch, checkbox, radio, tab, option: "Publish immediately" names a
 * setting). Labels longer than a command (over 60 characters or 8 words) are read as prose, not as a command.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";

/**
 * @typedef {import("./page-facts.js").ControlFacts} ControlFacts
 * @typedef {import("./page-facts.js").FormFacts} FormFacts
 * @typedef {{category: string, reason: string, element: string}} Finding
 * @typedef {"click" | "submit" | "key" | "page"} Mode
 */

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;
const MAX_COMMAND_CHARS = 60;
/** Controls that switch a setting or a view rather than run a command: their label names the setting. */
const TOGGLES = /^(switch|checkbox|radio|tab|option|menuitemcheckbox|menuitemradio|treeitem)$/;
const TOGGLE_INPUTS = /^(checkbox|radio)$/;
const MAX_COMMAND_WORDS = 8;

const CATEGORY_REASON = Object.freeze({
  pay: "it can pay or place an order",
  send: "it can send or publish something in the person's name",
  delete: "it can delete, remove or cancel something",
  transfer: "it can transfer or withdraw money",
  account: "it can change a password, email or two-factor setting",
});

/** @param {string} text */
export function normalise(text) {
  return String(text ?? "").normalize("NFKC").toLowerCase().replace(/[’‘`´]/g, "'").replace(/\s+/g, " ").trim();
}

/** @param {string} s */
function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * One regex for a list of phrases: whole words for Latin scripts, substrings for Chinese and Japanese.
 * @param {readonly string[]} phrases
 * @returns {RegExp | null}
 */
function matcher(phrases) {
  const words = [...new Set(phrases.map(normalise))].filter(Boolean).sort((a, b) => b.length - a.length);
  if (words.length === 0) return null;
  const latin = words.filter((w) => !CJK.test(w)).map(escape);
  const cjk = words.filter((w) => CJK.test(w)).map(escape);
  const parts = [];
  if (latin.length) parts.push(`(?<![\\p{L}\\p{N}])(?:${latin.join("|")})(?![\\p{L}\\p{N}])`);
  if (cjk.length) parts.push(`(?:${cjk.join("|")})`);
  return new RegExp(parts.join("|"), "u");
}

/** @param {Readonly<Record<string, readonly string[]>>} byLanguage */
const allLanguages = (byLanguage) => Object.values(byLanguage).flat();

const PHRASES = Object.entries(SENSITIVE_WORDS.phrases).map(([category, byLanguage]) =>
  /** @type {[string, RegExp]} */ ([category, /** @type {RegExp} */ (matcher(allLanguages(byLanguage)))]));
const EXEMPT = matcher(allLanguages(SENSITIVE_WORDS.exempt));
const CARD = /** @type {RegExp} */ (matcher(SENSITIVE_WORDS.fields.card));
const ID_NUMBER = /** @type {RegExp} */ (matcher(SENSITIVE_WORDS.fields.id_number));
/** The finding of a link that downloads an executable: its approval lets the download through (tabs/executable-guard.js). */
export const DOWNLOAD_CATEGORY = "download";
/** Executable extensions that a link path ending in a site or a script name also has (`example.com`, `app.js`). */
const URL_LIKE_EXTENSIONS = new Set(SENSITIVE_WORDS.extensions_that_read_as_urls);
/** The file names of programs and scripts: a link to one asks, and tabs/executable-guard.js stops a download of one. */
export const EXECUTABLE = new RegExp(`\\.(?:${SENSITIVE_WORDS.executable_extensions.map(escape).join("|")})$`, "i");

/**
 * The sensitive category a label names, if it reads as a command.
 * @param {string} label
 * @returns {string | null}
 */
export function labelCategory(label) {
  const text = normalise(label);
  if (!text || text.length > MAX_COMMAND_CHARS || text.split(" ").length > MAX_COMMAND_WORDS) return null;
  if (EXEMPT?.test(text)) return null;
  for (const [category, re] of PHRASES) if (re.test(text)) return category;
  return null;
}

/**
 * Why submitting this form is sensitive (its fields), or null.
 * @param {FormFacts | null} form
 * @returns {string | null}
 */
export function formFieldReason(form) {
  for (const field of form?.fields ?? []) {
    if (field.type === "password") return "it submits a form with a password field";
    const described = normalise(`${field.autocomplete} ${field.name} ${field.label}`);
    if (field.autocomplete.startsWith("cc-") || CARD.test(described)) return "it submits a form with a payment-card field";
    if (ID_NUMBER.test(described)) return "it submits a form with an ID-number field";
  }
  return null;
}

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
  return control.label ? `${kind} “${control.label.slice(0, 80)}”` : kind;
}

/**
 * Is acting on this control sensitive? `click`: a click (or Enter/Space on it); `submit`: Enter in it or
 * `type` with submit.
 * @param {ControlFacts | null} control
 * @param {"click" | "submit"} mode
 * @returns {Finding | null}
 */
export function classifyControl(control, mode) {
  if (!control) return null;
  const element = describe(control);
  if (control.frame) return { category: "unknown", reason: "the key goes into a frame bua cannot inspect", element };
  if (mode === "click") {
    const download = executableDownload(control);
    if (download) return { category: DOWNLOAD_CATEGORY, reason: `it downloads an executable (${download})`, element };
    const category = control.editable || TOGGLES.test(control.role) || TOGGLE_INPUTS.test(control.type) ? null
      : labelCategory(control.label);
    if (category) return { category, reason: /** @type {any} */ (CATEGORY_REASON)[category], element };
    if (!control.submits) return null;
  }
  const fields = formFieldReason(control.form);
  if (fields) return { category: "form", reason: fields, element };
  const own = mode === "submit" ? labelCategory(control.label) : null;
  const submit = mode === "submit" && control.form ? labelCategory(control.form.submit) : null;
  const category = own ?? submit;
  if (category) {
    const why = own ? /** @type {any} */ (CATEGORY_REASON)[category]
      : `its form's button “${control.form?.submit}”: ${/** @type {any} */ (CATEGORY_REASON)[category]}`;
    return { category, reason: why, element };
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
