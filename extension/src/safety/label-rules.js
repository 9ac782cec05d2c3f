/**
 * What a control's label commands, read as a person reads it (docs/architecture.md "Confirmations"): the label and
 * every word list are folded the same way first (fold.js: NFKC, invisible format characters removed, confusable
 * letters folded, case-folded; here also quotes, Turkish dotted i, Arabic diacritics and alef forms), then phrase
 * rules, not single words, decide:
 *
 * - a phrase of app/protocol/safety/sensitive-words.json `phrases` is a command where it stands, unless it reads
 *   as a topic: a `topic_frames` question precedes it in its clause ("How to save and pay less"), a
 *   `topic_before` word in its conjunct or in an earlier one that goes on to list commands ("Why pay", "Why pay
 *   or transfer", "Historial de pagos"; "Learn more and buy now" still buys),
 *   or the phrase can be a noun (`noun_capable`) and a `topic_after` noun or a hyphen follows it ("Pay slips",
 *   "Transfer history", "Buy-back policy", "Post code lookup") or its conjunct is a `noun_before` determiner and it
 *   ("Tu compra", "Your pay"; "Complete your purchase" still buys);
 * - every command of a label is judged and the most sensitive wins ("Delete and pay" pays);
 * - in a long link label (over LONG_WORDS words) a command counts near the start of a clause, at the head of a
 *   conjunct, at its clause's end or, paying or transferring, before the sum ("Confirm and pay 500 EUR for …",
 *   "… you confirm and pay 500 EUR …" do, a teaser sentence that mentions sending further in does not); a
 *   button's long label counts its commands wherever they stand (pressing it does what it says);
 * - each label is also read back from its inflections (inflections.js: "Paying…", "Удалите") and as a person
 *   sees it where its text spells it otherwise (lookalike-readings.js: "P4y n0w", "P a y", "PayNow", "P̲a̲y̲", a
 *   right-to-left override), the most sensitive reading winning;
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
import { Inflections } from "./inflections.js";
import { joinedReading, lookalikeReadings, spacedReading, undecorated, visualOrder } from "./lookalike-readings.js";

/** The more sensitive category first, when two readings, or two commands of one label, differ. */
export const SEVERITY = Object.freeze(["pay", "transfer", "delete", "account", "send"]);

/** Words after which a command in a label is far from its clause's head. */
const LONG_WORDS = 8;
const NEAR_HEAD_WORDS = 3;
/**
 * Clause breaks in folded text (fold.js makes "—" "ー", "–" "-", "“" "''", "。" "˳", full-width "，" ","):
 * punctuation (a dot not inside a number: "49.99"), a comma not inside one, "&", "+" or a dash between spaces,
 * and "ー" with no Japanese beside it (no prolonged-sound mark; fold.js makes some katakana Han: "タ" "夕").
 */
const CLAUSE_BREAK = new RegExp(["(?:[!?;:|•·\\n()[\\]{}\"«»、˳]|\\.(?!\\d)|(?<!\\d)\\.)+", ",(?!\\d)", "\\s[&+-]\\s", "''",
  "(?<![\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Han}])ー(?![\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Han}])"].join("|"),
  "gu");

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
const TOPIC_FRAMES = new PhraseIndex(folded(SENSITIVE_WORDS.topic_frames));
const TOPIC_AFTER = new PhraseIndex(folded(SENSITIVE_WORDS.topic_after));
const NOUN_BEFORE = new PhraseIndex(folded(SENSITIVE_WORDS.noun_before));
const EXEMPT = new PhraseIndex(folded(SENSITIVE_WORDS.exempt));
const CONJUNCTIONS = new PhraseIndex(folded(SENSITIVE_WORDS.conjunctions), { attached: true });
const HYPHENATED_AFTER = /^-\p{L}/u;
/** A sum of money: what a pay or transfer command pays wherever it stands in a long label ("… pay 500 EUR …"). */
const AMOUNT = /^ ?(?:\p{Sc} ?\d|\d[\d.,' ]*(?:\p{Sc}|[a-z]{3}(?![\p{L}])))/u;
const PAYS = new Set(["pay", "transfer"]);
/** Every phrase word, read back from its inflections by its own language's rules (inflections.js). */
const PHRASE_WORDS = /[\p{L}\p{M}]+/gu;
/** @type {Readonly<Record<string, import("./inflections.js").Rules>>} each language's inflection rules, folded */
const INFLECTION_RULES = Object.fromEntries(Object.entries(/** @type {Record<string, any>} */ (SENSITIVE_WORDS.inflections))
  .filter(([language]) => language !== "about").map(([language, rules]) => [language, {
    strip: rules.strip.map(normalise), endings: rules.endings.map(normalise), gerund: rules.gerund.map(normalise),
    plural: rules.plural.map(normalise), double: rules.double,
    rewrite: rules.rewrite.map((/** @type {string[]} */ pair) => pair.map(normalise)),
    prefixes: rules.prefixes.map((/** @type {string[]} */ pair) => pair.map(normalise)) }]));
/**
 * Each language's words of some lists, folded and split into words.
 * @param {readonly Readonly<Record<string, readonly string[]>>[]} lists
 */
const wordsByLanguage = (lists) => Object.fromEntries(Object.keys(SENSITIVE_WORDS.conjunctions).map((language) => [language,
  lists.flatMap((byLanguage) => byLanguage[language] ?? []).flatMap((phrase) => normalise(phrase).match(PHRASE_WORDS) ?? [])]));
/** Every phrase word, read back from its inflections by its own language's rules (inflections.js). */
const INFLECTIONS = new Inflections(wordsByLanguage(Object.values(SENSITIVE_WORDS.phrases)), INFLECTION_RULES);
/** The topic nouns, read back from their plurals ("Transfer histories"). */
const TOPIC_NOUNS = new Inflections(wordsByLanguage([SENSITIVE_WORDS.topic_after]), INFLECTION_RULES);
const FIRST_WORD = /^ *([\p{L}\p{M}]+)/u;
/** @type {Map<string, string>} a phrase's letters without its spaces → the phrase ("paynow" → "pay now") */
const BY_LETTERS = new Map([...ENTRIES.keys()].map((phrase) => [phrase.replace(/ /g, ""), phrase]));
const LETTER_LENGTHS = [...new Set([...BY_LETTERS.keys()].map((letters) => letters.length))].sort((a, b) => b - a);
/**
 * A phrase of several words that is no noun, by its letters: only such a phrase reads where its words run
 * together ("paynow", "buy-now"); "check-out" (a noun too) and "buyback" (no phrase) stay as written.
 * @param {string} letters
 */
const joinedPhrase = (letters) => {
  const phrase = BY_LETTERS.get(letters);
  return phrase?.includes(" ") && !ENTRIES.get(phrase)?.nounCapable ? phrase : null;
};
const HYPHENATED_BEFORE = /\p{L}-$/u;

/**
 * @typedef {{submits?: boolean, destination?: boolean, button?: boolean, hint?: boolean}} ReadAs
 * submits: the control submits a form (a compose word then sends); destination: a drop target or a button that is
 * no link (a destination then deletes); button: a control pressed, not a link followed: all of its label says what
 * pressing it does, so a long label's commands count wherever they stand ("Yes, I understand this will permanently
 * delete all my photos"), where a long link's text is a headline; hint: the text is a text-less control's
 * class/id/symbol names (icons count).
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
 * Does a topic word before the command govern it? A question frame anywhere before it in its clause ("How to save
 * and pay less": every conjunct fills its verb slot); a topic word of its own conjunct ("Learn more and buy now":
 * "learn" governs "more", not "buy"), or one whose conjunct goes on with a command list the conjunctions continue
 * ("Why pay or transfer with us": "why" governs both).
 * @param {string} before the clause's text before the command
 * @param {string} own the command's own conjunct's text before it
 */
function topicGoverns(before, own) {
  if (TOPIC_FRAMES.test(before) || TOPIC_BEFORE.test(own)) return true;
  const topic = TOPIC_BEFORE.find(before).at(-1);
  if (!topic) return false;
  const between = before.slice(topic.start + topic.phrase.length);
  /** @type {string[]} */
  const parts = [];
  let from = 0;
  for (const conjunction of CONJUNCTIONS.find(between)) {
    parts.push(between.slice(from, conjunction.start));
    from = conjunction.start + conjunction.phrase.length;
  }
  return parts.every((part) => PHRASES.find(part.trim())[0]?.start === 0);
}

/**
 * Does a command stand where a long label's commands stand: near its clause's head, at the head of a conjunct
 * ("By clicking here you confirm and pay 500 EUR …": "pay" heads its conjunct), at its clause's end, or, for a
 * pay or transfer command, before the sum it pays ("… agree to pay 500 EUR today")? A teaser sentence's verb
 * further in ("… and lets you send large files …") does not.
 * @param {string} before the clause's text before the command
 * @param {string} ownBefore the command's own conjunct's text before it
 * @param {string} phrase the command's text
 * @param {string} after the clause's text after the command
 * @param {Entry} entry
 */
function standsAsCommand(before, ownBefore, phrase, after, entry) {
  const wordsBefore = before.trim() ? before.trim().split(" ").length : 0;
  if (wordsBefore <= NEAR_HEAD_WORDS || !/[\p{L}]/u.test(after)) return true;
  if (PAYS.has(entry.category) && AMOUNT.test(after)) return true;
  const joined = ownBefore.length < before.length || CONJUNCTIONS.test(phrase);
  return joined && !ownBefore.trim();
}

/**
 * Is `text` only determiners ("tu", "la tua", "your")?
 * @param {string} text trimmed
 */
function ownIsDeterminers(text) {
  const found = NOUN_BEFORE.find(text);
  return found.length > 0 && found.map((d) => d.phrase).join(" ") === text;
}

/**
 * Does the phrase at [start, end) of `text` read as a command (not as a topic)?
 * @param {string} text normalised
 * @param {number} start
 * @param {number} end
 * @param {Entry} entry
 * @param {boolean} long the label is longer than LONG_WORDS words
 * @param {ReadAs} as
 */
function readsAsCommand(text, start, end, entry, long, as) {
  const { before, after } = clauseAround(text, start, end);
  // a conjunct is judged on its own: an exempt word ("Remove filter") or a topic word takes the command's own
  // conjunct only ("Buy now · Preview", "Preview and pay", "Learn more and buy now" still buy)
  const own = conjunctAround(before, after);
  if (EXEMPT.test(`${own.before}${text.slice(start, end)}${own.after}`)) return false;
  if (topicGoverns(before, own.before)) return false;
  if (entry.nounCapable) {
    if (HYPHENATED_AFTER.test(text.slice(end)) || HYPHENATED_BEFORE.test(text.slice(0, start))) return false;
    if (TOPIC_AFTER.find(after.trimStart())[0]?.start === 0) return false;
    // a conjunct that is a determiner and the phrase names a thing ("Tu compra"); after a verb it is the verb's
    // object ("Complete your purchase", "Proceed to the checkout")
    if (ownIsDeterminers(own.before.trim())) return false;
    const next = after.match(FIRST_WORD)?.[1];
    if (next && TOPIC_NOUNS.lemma(next)?.form === "plural") return false;
  }
  return !long || !!as.button || standsAsCommand(before, own.before, text.slice(start, end), after, entry);
}

/**
 * The most sensitive category one reading of a label commands, or null.
 * @param {string} text normalised
 * @param {ReadAs} as
 * @returns {string | null}
 */
function readingCategory(text, as) {
  const long = text.split(" ").length > LONG_WORDS;
  /** @type {string | null} */
  let best = null;
  for (const { phrase, start } of (as.hint ? ICON_NAMES : PHRASES).find(text)) {
    const entry = as.hint ? ICONS.get(phrase) : ENTRIES.get(phrase);
    if (!entry || (best && SEVERITY.indexOf(entry.category) >= SEVERITY.indexOf(best))) continue;
    if (entry.kind === "compose" && !as.submits) continue;
    // A trash can drawn on a link opens the Trash folder, as the word does.
    if ((entry.kind === "destination" || (entry.kind === "icon" && entry.category === "delete")) && !as.destination) continue;
    if (!readsAsCommand(text, start, start + phrase.length, entry, long, as)) continue;
    // a send whose object is a sum sends money ("Send 0.5 BTC to …")
    best = entry.category === "send" && AMOUNT.test(text.slice(start + phrase.length)) ? "transfer" : entry.category;
  }
  return best;
}

/**
 * The longest phrase whose letters start `letters` (spaced letters, lookalike-readings.js).
 * @param {string} letters
 * @returns {string | null}
 */
function phraseOfLetters(letters) {
  for (const length of LETTER_LENGTHS) {
    const phrase = length <= letters.length ? BY_LETTERS.get(letters.slice(0, length)) : undefined;
    if (phrase) return phrase;
  }
  return null;
}

/**
 * Does an inflected form read as its phrase word where it stands (inflections.js)? A verb form always; a gerund
 * or plural form, which also names a topic or a thing ("Buying guide", "All posts by Anna"), where it forms a
 * longer phrase with the words after it ("Pays now", "Sending message") or before a sum ("Pays 500 EUR"), and a
 * gerund also alone in its clause ("Paying…").
 * @type {import("./inflections.js").Accepts}
 */
function readsAsForm(lemma, form, rest) {
  if (form === "verb") return true;
  const longer = PHRASES.find(`${lemma}${rest}`)[0];
  if (longer?.start === 0 && longer.phrase.length > lemma.length) return true;
  if (AMOUNT.test(rest)) return true;
  return form === "gerund" && !/\p{L}/u.test(rest.split(CLAUSE_BREAK)[0]);
}

/**
 * Every reading of a label a person may read in it: its own, in the order a right-to-left override shows it, with
 * decorating marks gone, its ASCII look-alikes read as letters, spaced-apart letters or run-together words as
 * the phrase they spell (lookalike-readings.js), and each of those read back from its inflections.
 * @param {string} label as the page has it
 * @returns {string[]}
 */
export function readingsOf(label) {
  const own = normalise(label);
  const shown = visualOrder(String(label ?? ""));
  const readings = new Set([own, ...(shown ? [normalise(shown)] : [])]);
  for (const reading of [...readings]) {
    const plain = undecorated(reading);
    if (plain) readings.add(plain);
  }
  for (const reading of [...readings]) for (const letters of lookalikeReadings(reading)) readings.add(letters);
  for (const reading of [...readings]) {
    for (const spelled of [spacedReading(reading, phraseOfLetters), joinedReading(reading, joinedPhrase)]) {
      if (spelled) readings.add(spelled);
    }
  }
  for (const reading of [...readings]) {
    const inflected = INFLECTIONS.reading(reading, readsAsForm);
    if (inflected) readings.add(inflected);
  }
  readings.delete("");
  return [...readings];
}

/**
 * The sensitive category a label commands, or null: the most sensitive of what its readings (readingsOf) command.
 * @param {string} label
 * @param {ReadAs} [as]
 * @returns {string | null}
 */
export function labelCategory(label, as = {}) {
  /** @type {string | null} */
  let best = null;
  for (const reading of as.hint ? [normalise(label)].filter(Boolean) : readingsOf(label)) {
    const category = readingCategory(reading, as);
    if (category && (!best || SEVERITY.indexOf(category) < SEVERITY.indexOf(best))) best = category;
    if (best === SEVERITY[0]) break;
  }
  return best;
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
