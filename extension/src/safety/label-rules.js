/**
 * What a control's label commands, read as a person reads it (docs/architecture.md "Confirmations"): the label and
 * every word list are folded the same way first (fold.js: NFKC, invisible format characters removed, confusable
 * letters folded, case-folded; here also quotes, Turkish dotted i, Arabic diacritics and alef forms), then phrase
 * rules, not single words, decide:
 *
 * - a phrase of app/protocol/safety/sensitive-words.json `phrases` is a command where it stands, unless it reads
 *   as a topic: a `topic_before` word precedes it in its clause ("How to pay", "Historial de pagos"), or the
 *   phrase can be a noun (`noun_capable`) and a `topic_after` noun or a hyphen follows it ("Pay slips",
 *   "Transfer history", "Buy-back policy", "Post code lookup");
 * - in a long label (over LONG_WORDS words) a command counts near the start of a clause or at its end ("Confirm
 *   and pay 500 EUR for …" does, a teaser sentence that mentions sending further in does not);
 * - `compose` phrases (Reply, Forward, Compose) only open a composer: they send only when the control submits;
 * - `destinations` (Trash) delete where something is dropped, or on a button (a "Trash" link opens a folder);
 * - a control with no text is read by its hints (class, id, symbol names) against `icons` alone (paper plane,
 *   trash can, send, and the verbs class names spell in other languages: `btn-enviar`, `icon-papierkorb`): a
 *   class like "post-like-button" names a layout, not a command.
 * A command whose clause also holds an `exempt` word ("Remove filter") is not sensitive by its words; an exempt
 * word in another clause of the label ("Buy now · Preview") or in another command joined to it by a conjunction
 * ("Preview and pay", "Pay now and search": `conjunctions`) does not cancel it.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";
import { fold } from "./fold.js";
import { PhraseIndex } from "./phrase-index.js";

/** Words after which a command in a label is far from its clause's head. */
const LONG_WORDS = 8;
const NEAR_HEAD_WORDS = 3;
/** Clause breaks: punctuation (Chinese and Japanese full-width too), and "&" or "+" joining two commands. */
const CLAUSE_BREAK = /[.!?;:|•·—–\n()[\]{}"«»“”、。，；：！？]+|,\s|\s[&+]\s/gu;

/**
 * A label as the rules read it: folded (fold.js, which folds a letter alike in either case), then Turkish dotted
 * i, Arabic diacritics and alef forms and spaces made one.
 * @param {string} text
 * @returns {string}
 */
export function normalise(text) {
  return fold(String(text ?? "").replace(/[’‘`´]/g, "'"))
    .replace(/i\u0307/g, "i")
    .replace(/[\u064B-\u065F\u0670\u0640]/g, "")
    .replace(/[أإآ]/g, "ا")
    .replace(/\s+/g, " ")
    .trim();
}

/** @param {Readonly<Record<string, readonly string[]>>} byLanguage */
const folded = (byLanguage) => Object.values(byLanguage ?? {}).flat().map(normalise);

/**
 * @typedef {{category: string, kind: "command" | "compose" | "destination" | "icon", nounCapable: boolean}} Entry
 */

/** @type {Map<string, Entry>} every phrase, folded, with what it means (a command wins over a compose word) */
const ENTRIES = new Map();
const NOUN_CAPABLE = new Set(folded(SENSITIVE_WORDS.noun_capable));
for (const [category, byLanguage] of Object.entries(SENSITIVE_WORDS.phrases)) {
  for (const phrase of folded(byLanguage)) {
    if (!ENTRIES.has(phrase)) ENTRIES.set(phrase, { category, kind: "command", nounCapable: NOUN_CAPABLE.has(phrase) });
  }
}
for (const phrase of folded(SENSITIVE_WORDS.destinations)) {
  if (!ENTRIES.has(phrase)) ENTRIES.set(phrase, { category: "delete", kind: "destination", nounCapable: true });
}
for (const phrase of folded(SENSITIVE_WORDS.compose)) {
  if (!ENTRIES.has(phrase)) ENTRIES.set(phrase, { category: "send", kind: "compose", nounCapable: true });
}
/** @type {Map<string, Entry>} icon names, read only in a text-less control's hints */
const ICONS = new Map();
for (const [category, names] of Object.entries(SENSITIVE_WORDS.icons)) {
  for (const name of names.map(normalise)) ICONS.set(name, { category, kind: "icon", nounCapable: false });
}

const PHRASES = new PhraseIndex(ENTRIES.keys());
const ICON_NAMES = new PhraseIndex(ICONS.keys());
const TOPIC_BEFORE = new PhraseIndex(folded(SENSITIVE_WORDS.topic_before));
const TOPIC_AFTER = new PhraseIndex(folded(SENSITIVE_WORDS.topic_after));
const EXEMPT = new PhraseIndex(folded(SENSITIVE_WORDS.exempt));
const CONJUNCTIONS = new PhraseIndex(folded(SENSITIVE_WORDS.conjunctions), { attached: true });
const HYPHENATED_AFTER = /^-\p{L}/u;
const HYPHENATED_BEFORE = /\p{L}-$/u;

/**
 * @typedef {{submits?: boolean, destination?: boolean, hint?: boolean}} ReadAs
 * submits: the control submits a form (a compose word then sends); destination: a drop target or a button that is
 * no link (a destination then deletes); hint: the text is a text-less control's class/id/symbol names (icons count).
 */

/**
 * The clause of `text` around [start, end): its text before and after the phrase.
 * @param {string} text
 * @param {number} start
 * @param {number} end
 */
function clauseAround(text, start, end) {
  let from = 0;
  let to = text.length;
  for (const brk of text.matchAll(CLAUSE_BREAK)) {
    const index = /** @type {number} */ (brk.index);
    if (index + brk[0].length <= start) from = index + brk[0].length;
    else if (index >= end) {
      to = index;
      break;
    }
  }
  return { before: text.slice(from, start), after: text.slice(end, to) };
}

/**
 * The part of a clause that is the command's own when conjunctions join several ("Preview and pay": "pay"): the
 * text before it from the last conjunction on, the text after it up to the next one.
 * @param {string} before
 * @param {string} after
 */
function conjunctAround(before, after) {
  const last = CONJUNCTIONS.find(before).at(-1);
  const next = CONJUNCTIONS.find(after)[0];
  return {
    before: last ? before.slice(last.start + last.phrase.length) : before,
    after: next ? after.slice(0, next.start) : after,
  };
}

/**
 * Does the phrase at [start, end) of `text` read as a command (not as a topic)?
 * @param {string} text normalised
 * @param {number} start
 * @param {number} end
 * @param {Entry} entry
 * @param {boolean} long the label is longer than LONG_WORDS words
 */
function readsAsCommand(text, start, end, entry, long) {
  const { before, after } = clauseAround(text, start, end);
  // an exempt word ("Remove filter") takes the command's own clause, and in it the command's own conjunct only:
  // "Buy now · Preview" and "Preview and pay" still buy
  const own = conjunctAround(before, after);
  if (EXEMPT.test(`${own.before}${text.slice(start, end)}${own.after}`)) return false;
  if (TOPIC_BEFORE.test(before)) return false;
  if (entry.nounCapable) {
    if (HYPHENATED_AFTER.test(text.slice(end)) || HYPHENATED_BEFORE.test(text.slice(0, start))) return false;
    if (TOPIC_AFTER.find(after.trimStart())[0]?.start === 0) return false;
  }
  if (!long) return true;
  const wordsBefore = before.trim() ? before.trim().split(" ").length : 0;
  return wordsBefore <= NEAR_HEAD_WORDS || !/[\p{L}]/u.test(after);
}

/**
 * The sensitive category a label commands, or null.
 * @param {string} label
 * @param {ReadAs} [as]
 * @returns {string | null}
 */
export function labelCategory(label, as = {}) {
  const text = normalise(label);
  if (!text) return null;
  const long = text.split(" ").length > LONG_WORDS;
  for (const { phrase, start } of (as.hint ? ICON_NAMES : PHRASES).find(text)) {
    const entry = as.hint ? ICONS.get(phrase) : ENTRIES.get(phrase);
    if (!entry) continue;
    if (entry.kind === "compose" && !as.submits) continue;
    // A trash can drawn on a link opens the Trash folder, as the word does.
    if ((entry.kind === "destination" || (entry.kind === "icon" && entry.category === "delete")) && !as.destination) continue;
    if (readsAsCommand(text, start, start + phrase.length, entry, long)) return entry.category;
  }
  return null;
}

/**
 * Words of class names, ids and symbol names as a label ("btn-send", "icon_trash", "paperPlane" → "btn send",
 * "icon trash", "paper plane").
 * @param {string} hint
 * @returns {string}
 */
export function hintWords(hint) {
  return String(hint ?? "").replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[-_./#:]+/g, " ").replace(/\s+/g, " ").trim();
}
