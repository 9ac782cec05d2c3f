/**
 * Finding many folded phrases in a short text fast (label-rules.js reads every control of a page for `evaluate`):
 * phrases of spaced scripts are looked up by their first word at each word start and must end at a word's end;
 * Chinese and Japanese phrases are found as substrings and Korean ones at a word's start (endings attach), by one
 * regex that only runs on a text holding those scripts. Matches are leftmost, the longest at a position, and do
 * not overlap — what one alternation regex would find, at a fraction of its cost on thousands of phrases.
 */

const SUBSTRING_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const WORD_START_SCRIPT = /\p{Script=Hangul}/u;
const ATTACHING_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const WORDS = /[\p{L}\p{M}\p{N}]+/gu;

/** @param {string} s */
function escape(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** @typedef {{phrase: string, start: number}} Occurrence */

export class PhraseIndex {
  /** @type {Map<string, string[]>} first word → the phrases starting with it, longest first */
  #byFirstWord = new Map();
  /** @type {RegExp | null} the Chinese, Japanese and Korean phrases */
  #attaching = null;

  /**
   * @param {Iterable<string>} phrases folded
   * @param {{attached?: boolean}} [options] attached: Korean phrases are found anywhere in a word too, as a
   *   particle or ending that attaches to the word before it is (the conjunction 하고 in 검색하고)
   */
  constructor(phrases, options = {}) {
    const unique = [...new Set(phrases)].filter(Boolean).sort((a, b) => b.length - a.length);
    const inner = [];
    const starts = [];
    for (const phrase of unique) {
      if (SUBSTRING_SCRIPT.test(phrase) || (options.attached && WORD_START_SCRIPT.test(phrase))) inner.push(escape(phrase));
      else if (WORD_START_SCRIPT.test(phrase)) starts.push(escape(phrase));
      else {
        const first = phrase.match(WORDS)?.[0];
        if (!first || !phrase.startsWith(first)) continue;
        const list = this.#byFirstWord.get(first) ?? [];
        list.push(phrase);
        this.#byFirstWord.set(first, list);
      }
    }
    const parts = [];
    if (starts.length) parts.push(`(?<![\\p{L}\\p{M}\\p{N}])(?:${starts.join("|")})`);
    if (inner.length) parts.push(`(?:${inner.join("|")})`);
    if (parts.length) this.#attaching = new RegExp(parts.join("|"), "gu");
  }

  /**
   * Every occurrence in `text`, in order.
   * @param {string} text folded
   * @returns {Occurrence[]}
   */
  find(text) {
    /** @type {Occurrence[]} */
    const found = [];
    let end = 0;
    for (const word of text.matchAll(WORDS)) {
      const start = /** @type {number} */ (word.index);
      if (start < end) continue;
      const phrase = this.#byFirstWord.get(word[0])?.find((p) => text.startsWith(p, start)
        && !WORD_CHAR.test(text.charAt(start + p.length)));
      if (phrase) {
        found.push({ phrase, start });
        end = start + phrase.length;
      }
    }
    if (this.#attaching && ATTACHING_SCRIPT.test(text)) {
      for (const m of text.matchAll(this.#attaching)) found.push({ phrase: m[0], start: /** @type {number} */ (m.index) });
      found.sort((a, b) => a.start - b.start);
    }
    return found;
  }

  /**
   * Does `text` hold any of the phrases?
   * @param {string} text folded
   */
  test(text) {
    return this.find(text).length > 0;
  }
}
