/**
 * Readings of a label as a person sees it where its text spells it otherwise (fold.js already folds Unicode
 * confusables): digits and symbols written for letters inside a word ("P4y n0w", "De1ete", "Purch@se", "$end"),
 * letters spaced apart ("P a y", "D.e.l.e.t.e"), a phrase run together or hyphenated ("PayNow", "Buy-now"),
 * letters under decorating marks ("P̲a̲y̲", "D̶e̶l̶e̶t̶e̶"), and text a right-to-left override shows backwards.
 * label-rules.js judges each reading beside the label's own and the more sensitive wins, so a reading only ever
 * adds a finding: extension/test/safety-label-readings.test.js (ordinary labels) and bench/safety_bench.py
 * (ordinary pages) measure what it adds.
 */

/** What each look-alike stands for; `1` and `|` are read both as l and as i. `ꞓ` is what fold.js makes of `€`. */
const LOOKALIKE = Object.freeze({ 0: "o", 3: "e", 4: "a", 5: "s", 6: "b", 7: "t", 8: "b", 9: "g", "@": "a", $: "s",
  "!": "i", "€": "e", "ꞓ": "e" });
/** A word holding a letter: only there do digits and symbols stand for letters ("500", "$5" stay as they are). */
const MIXED = /[\p{L}\p{N}@$!|€]*\p{L}[\p{L}\p{N}@$!|€]*/gu;
/** A look-alike digit anywhere in such a word; a symbol only before a letter or digit ("now!" keeps its "!"). */
const LOOKALIKE_CHAR = /[013456789ꞓ€]|[@$!|](?=[\p{L}\p{N}])/gu;
const ANY_LOOKALIKE = /[013456789ꞓ€@$!|]/u;
/** Three or more single letters, each apart from the next by one space, dot, hyphen, underscore or asterisk. */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*·]\p{L}){2,}(?![\p{L}\p{N}])/gu;
/** Words run together or joined by hyphens or underscores ("paynow", "buy-now", "delete_account"). */
const JOINED = /[\p{L}\p{M}]+(?:[-_][\p{L}\p{M}]+)*/gu;
const WORD_WITH_MARKS = /[\p{L}\p{M}]{2,}/gu;
const MARK = /\p{M}/u;
/** A right-to-left override and what it shows backwards, up to its pop (or the text's end). */
const OVERRIDE = /\u202E([^\u202C\u202A\u202B\u202D]*)\u202C?/gu;

/**
 * A word with its look-alikes read as letters, `one` standing for `1` and `|`.
 * @param {string} word
 * @param {string} one
 */
function asLetters(word, one) {
  return word.replace(LOOKALIKE_CHAR, (c) => (c === "1" || c === "|" ? one : /** @type {any} */ (LOOKALIKE)[c]));
}

/**
 * The look-alike readings of `text` (l and i for `1`), without `text` itself; none when it has no look-alike.
 * @param {string} text folded
 * @returns {string[]}
 */
export function lookalikeReadings(text) {
  if (!ANY_LOOKALIKE.test(text)) return [];
  const readings = new Set();
  for (const one of ["l", "i"]) readings.add(text.replace(MIXED, (word) => asLetters(word, one)));
  readings.delete(text);
  return [...readings];
}

/**
 * `text` with spaced-apart letters joined and split again where phrases begin ("p a y n o w" → "pay now" when
 * "pay now" is a phrase), or null when it has none.
 * @param {string} text folded
 * @param {(letters: string) => string | null} phraseOf the longest phrase whose letters (spaces removed) start
 *   `letters`, or null
 * @returns {string | null}
 */
export function spacedReading(text, phraseOf) {
  let changed = false;
  const out = text.replace(SPACED, (run) => {
    changed = true;
    let letters = run.replace(/[ .\-_*·]/g, "");
    const words = [];
    while (letters) {
      const phrase = phraseOf(letters);
      if (!phrase) break;
      words.push(phrase);
      letters = letters.slice(phrase.replace(/ /g, "").length);
    }
    return [...words, ...(letters ? [letters] : [])].join(" ");
  });
  return changed ? out : null;
}

/**
 * `text` with each word that runs a phrase's words together ("paynow", "buy-now", "delete_account") written as
 * that phrase, or null when none does.
 * @param {string} text folded
 * @param {(letters: string) => string | null} joined the phrase of several words whose letters are exactly
 *   `letters`, or null
 * @returns {string | null}
 */
export function joinedReading(text, joined) {
  let changed = false;
  const out = text.replace(JOINED, (word) => {
    const phrase = joined(word.replace(/[-_]/g, ""));
    if (!phrase) return word;
    changed = true;
    return phrase;
  });
  return changed ? out : null;
}

/**
 * `text` without the marks that decorate rather than spell: those of a word whose every letter carries one (an
 * underline or strike-through drawn with U+0332, U+0336), and stacks of three or more on one letter. Accents that
 * spell a word ("cómo", "xóa") stay.
 * @param {string} text folded
 * @returns {string | null}
 */
export function undecorated(text) {
  // decorating marks do not compose: a text in NFC (fold.js) without any mark has none
  if (!MARK.test(text)) return null;
  let changed = false;
  const out = text.normalize("NFD").replace(WORD_WITH_MARKS, (word) => {
    const letters = word.match(/\p{L}\p{M}*/gu) ?? [];
    const every = letters.length >= 2 && letters.every((l) => l.length > 1);
    const stacked = letters.some((l) => l.length > 3);
    if (!every && !stacked) return word;
    changed = true;
    return word.replace(/\p{M}/gu, "");
  }).normalize("NFC");
  return changed ? out : null;
}

/**
 * A label in the order a right-to-left override shows it ("\u202Ewon yaP" shows "Pay now"), or null without one.
 * @param {string} label as the page has it, before folding (folding removes the override)
 * @returns {string | null}
 */
export function visualOrder(label) {
  if (!label.includes("\u202E")) return null;
  return label.replace(OVERRIDE, (_, shown) => [...shown].reverse().join(""));
}
