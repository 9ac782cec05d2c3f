/**
 * Which fields make submitting their form sensitive, recognised by what a person sees, not attribute names alone
 * (docs/architecture.md "Confirmations"): a password field; a payment-card field by its autocomplete, its label,
 * placeholder, name or the text next to it (app/protocol/safety/sensitive-words.json `fields.card`, many
 * languages), by its shape (a placeholder like "1234 1234 1234 1234" or "MM/YY", a pattern of 13-19 digits, a
 * numeric field as long as a card number) or by its value (a number that passes the Luhn check, in the page or
 * in what the action types); an ID-number field by its words.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";
import { normalise } from "./label-rules.js";

/** @typedef {import("./page-facts.js").FieldFacts} FieldFacts */
/** @typedef {import("./page-facts.js").FormFacts} FormFacts */

/**
 * Whole words (substrings for Chinese, Japanese and Korean, which attach words) of a folded word list.
 * @param {readonly string[]} words
 */
function wordsMatcher(words) {
  const cjk = /[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u;
  const escaped = [...new Set(words.map(normalise))].filter(Boolean).sort((a, b) => b.length - a.length)
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const whole = escaped.filter((w) => !cjk.test(w)).join("|") || "(?!)";
  const inner = escaped.filter((w) => cjk.test(w)).join("|") || "(?!)";
  return new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${whole})(?![\\p{L}\\p{M}\\p{N}])|${inner}`, "u");
}

const CARD_WORDS = wordsMatcher(SENSITIVE_WORDS.fields.card);
const ID_WORDS = wordsMatcher(SENSITIVE_WORDS.fields.id_number);
/** A card number drawn as its placeholder: four groups of digits, x, bullets or asterisks. */
const CARD_PLACEHOLDER = /^(?:[0-9x•*·●∙]{4}[ -]?){3}[0-9x•*·●∙]{1,7}$/iu;
/** An expiry placeholder: MM/YY in the letters of many languages (AA, JJ, ГГ, RR). */
const EXPIRY_PLACEHOLDER = /^(?:mm|мм|月)\s*[/-]\s*(?:yy|yyyy|aa|aaaa|jj|jjjj|гг|гггг|rr|rrrr|年)$/iu;
const MIN_CARD_DIGITS = 13;
const MAX_CARD_DIGITS = 19;

/**
 * Does a number pass the Luhn check (every payment card number does)?
 * @param {string} digits
 */
export function luhn(digits) {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return digits.length > 0 && sum % 10 === 0;
}

/** Digits as a person writes a card number: spaces or dashes anywhere between them. */
const LOOSE_RUN = /\d(?:[ -]?\d){12,18}/g;
/**
 * Digits grouped the way cards are printed (4-4-4-4, 4-6-5, …) with one separator used throughout: any space
 * (no-break and thin ones too), a dash of any width, a dot, an underscore, a slash or a comma. Groups of three or
 * more, so a list of small numbers or a version string is no card.
 */
const GROUPED_RUN = /\d{3,6}([\s.\-\u2010-\u2015_/,])\d{3,6}(?:\1\d{3,6}){1,4}/gu;

const WHOLE_GROUPED = new RegExp(`^${GROUPED_RUN.source}$`, "u");

/** @param {string} digits @returns {boolean} */
const cardDigits = (digits) => digits.length >= MIN_CARD_DIGITS && digits.length <= MAX_CARD_DIGITS
  && !/^(\d)\1+$/.test(digits) && luhn(digits);

/**
 * Whether a text holds a card number anywhere: a run of 13-19 digits written as a card is (loosely spaced or
 * grouped, README "Safety model") that passes the Luhn check; the one definition the field check, the network
 * judge and the data it reads share.
 * @param {string} text
 */
export function hasCardNumber(text) {
  for (const pattern of [LOOSE_RUN, GROUPED_RUN]) {
    for (const run of text.match(pattern) ?? []) if (cardDigits(run.replace(/\D/g, ""))) return true;
  }
  return false;
}

/**
 * Is this text a card number (13-19 digits written as a card is, passing the Luhn check)?
 * @param {unknown} value
 */
export function isCardNumber(value) {
  const text = String(value ?? "").trim();
  return (/^[\d\s-]+$/.test(text) || WHOLE_GROUPED.test(text)) && cardDigits(text.replace(/\D/g, ""));
}

/**
 * Does a field's pattern ask for a card-length run of digits ("[0-9]{13,19}", "\d{16}")?
 * @param {string} pattern
 */
function cardPattern(pattern) {
  if (!/\\d|\[0-9/.test(pattern)) return false;
  return [...pattern.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].some((m) => {
    const low = Number(m[1]);
    const high = m[2] === undefined ? low : Number(m[2]);
    return low >= 12 && high <= MAX_CARD_DIGITS + 4;
  });
}

/**
 * Is this field a payment-card field, by what a person sees of it?
 * @param {FieldFacts} field
 * @returns {boolean}
 */
export function isCardField(field) {
  if (field.autocomplete.startsWith("cc-")) return true;
  const described = normalise([field.autocomplete, field.name, field.label, field.placeholder, field.nearby].join(" | "));
  if (CARD_WORDS.test(described)) return true;
  const placeholder = String(field.placeholder ?? "").trim();
  if (CARD_PLACEHOLDER.test(placeholder) || EXPIRY_PLACEHOLDER.test(placeholder)) return true;
  if (cardPattern(String(field.pattern ?? ""))) return true;
  const max = Number(field.maxlength);
  if (field.inputmode === "numeric" && max >= 16 && max <= MAX_CARD_DIGITS + 4 && !/tel|one-time/.test(field.autocomplete)) return true;
  return isCardNumber(field.value);
}

/**
 * Why submitting this form is sensitive (its fields and what the action types into it), or null.
 * @param {FormFacts | null} form
 * @param {readonly unknown[]} [typed] the values the action types (fill's values, type's text)
 * @returns {string | null}
 */
export function formFieldReason(form, typed = []) {
  if (typed.some(isCardNumber)) return "it submits a payment-card number that it types";
  for (const field of form?.fields ?? []) {
    if (field.type === "password") return "it submits a form with a password field";
    if (isCardField(field)) return "it submits a form with a payment-card field";
    if (ID_WORDS.test(normalise(`${field.autocomplete} ${field.name} ${field.label} ${field.placeholder ?? ""}`))) {
      return "it submits a form with an ID-number field";
    }
  }
  return null;
}
