/**
 * Readings of a folded label as a person reads ASCII look-alikes (fold.js already folds Unicode confusables):
 * digits and symbols written for letters inside a word ("P4y n0w", "De1ete", "Purch@se", "$end"), and letters
 * spaced apart ("P a y", "D.e.l.e.t.e"). label-rules.js judges each reading beside the label's own and the more
 * sensitive wins, so a reading only ever adds a finding: tests/e2e/test_safety_labels.py and bench/safety_bench.py
 * measure what it adds on ordinary pages.
 */

/** What each look-alike stands for; `1` and `|` are read both as l and as i. */
const LOOKALIKE = Object.freeze({ 0: "o", 3: "e", 4: "a", 5: "s", 7: "t", "@": "a", $: "s", "!": "i" });
/** A word holding a letter: only there do digits and symbols stand for letters ("500", "$5" stay as they are). */
const MIXED = /[\p{L}\p{N}@$!|]*\p{L}[\p{L}\p{N}@$!|]*/gu;
/** A look-alike digit anywhere in such a word; a symbol only before a letter or digit ("now!" keeps its "!"). */
const LOOKALIKE_CHAR = /[0134579]|[@$!|](?=[\p{L}\p{N}])/gu;
/** Three or more single letters, each apart from the next by one space, dot, hyphen, underscore or asterisk. */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*·]\p{L}){2,}(?![\p{L}\p{N}])/gu;

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
