/**
 * A label's words read back to the phrase words they inflect (app/protocol/safety/sensitive-words.json
 * `inflections` says how, per language): "Paying…" reads "pay…", "Pays now" "pay now", "Удалите" "удалить",
 * "Transfers history" "transfer history" (which label-rules.js then reads as a noun, as it reads "Transfer
 * history"). A stem, not a longer list: each phrase word's stems are derived once, by its own language's rules,
 * and a label word is one of them followed by one of that language's endings. label-rules.js judges this reading
 * beside the label's own and the more sensitive wins. Where a language's stems change, its `rewrite` pairs change a
 * stem's end ("smaz" of smazat reads "smaž", Hungarian "fizet" "fizess") and its `prefixes` pairs a stem's start
 * (Indonesian meN-: "bayar" reads "membayar", "hapus" "menghapus"), each adding a stem beside the one it changes; an
 * ending "" lets such a stem, or a stripped one, stand alone ("Smaž", "Membayar", Dutch "Bestel").
 */

/**
 * @typedef {{strip: readonly string[], endings: readonly string[], gerund: readonly string[],
 *   plural: readonly string[], double: boolean, rewrite: readonly (readonly string[])[],
 *   prefixes: readonly (readonly string[])[]}} Rules rewrite: [a stem's end, what it may read instead]; prefixes:
 *   [a stem's start ("" for any), what it may read instead]
 * @typedef {"verb" | "gerund" | "plural"} Form verb: an imperative or present form, a command wherever it stands;
 *   gerund and plural forms also name a topic or a thing ("Buying guide", "Posts")
 * @typedef {{word: string, form: Form}} Lemma
 * @typedef {(lemma: string, form: Form, rest: string) => boolean} Accepts whether a form reads as its phrase word
 *   where it stands (`rest`: the text after it)
 */

const WORD = /[\p{L}\p{M}]+/gu;
const ASCII = /^[\x00-\x7f]*$/;
const MIN_STEM = 3;
/** What an ASCII form of a stripped stem keeps: `pag` (pagar) + `e` is `page`, a word of another language. */
const MIN_ASCII_FORM = 5;

/**
 * A phrase word's stems by its language's rules: itself, less each `strip` ending (stripped), with its last
 * consonant doubled, then each one's `rewrite` and `prefixes` variants (changed).
 * @param {string} word folded
 * @param {Rules} rules
 * @returns {Map<string, {stripped: boolean, changed: boolean}>}
 */
function stemsOf(word, rules) {
  /** @type {Map<string, {stripped: boolean, changed: boolean}>} */
  const stems = new Map([[word, { stripped: false, changed: false }]]);
  for (const strip of rules.strip) {
    const stem = word.endsWith(strip) ? word.slice(0, -strip.length) : "";
    if (stem.length >= MIN_STEM) stems.set(stem, { stripped: true, changed: false });
  }
  if (rules.double) for (const [stem, { stripped }] of [...stems]) stems.set(stem + stem.slice(-1), { stripped, changed: false });
  /** @param {string} stem @param {boolean} stripped */
  const change = (stem, stripped) => {
    if (!stems.has(stem) && stem.length >= MIN_STEM) stems.set(stem, { stripped, changed: true });
  };
  for (const [stem] of [...stems]) {
    for (const [end, instead] of rules.rewrite) if (stem.endsWith(end)) change(stem.slice(0, stem.length - end.length) + instead, true);
  }
  for (const [stem, { stripped }] of [...stems]) {
    for (const [start, instead] of rules.prefixes) if (stem.startsWith(start)) change(instead + stem.slice(start.length), stripped);
  }
  return stems;
}

export class Inflections {
  /** @type {Map<string, {word: string, forms: Map<string, Form>, stripped: boolean,
   *   changed: boolean}[]>} stem → the phrase words it inflects; changed: by a rewrite or a prefix */
  #stems = new Map();
  /** @type {Set<string>} the phrase words themselves */
  #words = new Set();
  /** @type {Set<string>} every stem's first MIN_STEM letters: most words of a label start no stem */
  #heads = new Set();
  /** @type {number[]} every ending's length, longest first */
  #lengths = [];

  /**
   * @param {Readonly<Record<string, readonly string[]>>} wordsByLanguage each language's phrase words, folded as
   *   labels are: a language's rules inflect its own words only ("overboekingen" is no Spanish form of a Dutch word)
   * @param {Readonly<Record<string, Rules>>} byLanguage folded as labels are
   */
  constructor(wordsByLanguage, byLanguage) {
    const lengths = new Set();
    for (const [language, rules] of Object.entries(byLanguage)) {
      /** @type {Map<string, Form>} */
      const forms = new Map([...rules.plural.map((e) => [e, "plural"]), ...rules.gerund.map((e) => [e, "gerund"]),
        ...rules.endings.map((e) => [e, "verb"])].map(([e, f]) => [e, /** @type {Form} */ (f)]));
      for (const ending of forms.keys()) lengths.add(ending.length);
      for (const word of new Set(wordsByLanguage[language] ?? [])) {
        this.#words.add(word);
        if (word.length < MIN_STEM) continue;
        const stems = stemsOf(word, rules);
        for (const [stem, { stripped, changed }] of stems) {
          const list = this.#stems.get(stem) ?? [];
          list.push({ word, forms, stripped, changed });
          this.#stems.set(stem, list);
          this.#heads.add(stem.slice(0, MIN_STEM));
        }
      }
    }
    this.#lengths = [...lengths].sort((a, b) => b - a);
  }

  /**
   * The phrase word `word` inflects, and as which form; null for none (a phrase word is no inflection of itself).
   * @param {string} word folded
   * @returns {Lemma | null}
   */
  lemma(word) {
    if (!this.#heads.has(word.slice(0, MIN_STEM))) return null;
    const phraseWord = this.#words.has(word);
    for (const length of this.#lengths) {
      if (word.length - length < MIN_STEM) continue;
      const ending = word.slice(word.length - length);
      const short = word.length < MIN_ASCII_FORM && ASCII.test(word);
      for (const stem of this.#stems.get(word.slice(0, word.length - length)) ?? []) {
        // a phrase word reads as another only by a changed stem ("fizess" of "fizess most" as "fizetés"; Ukrainian
        // "оплати", also a noun's genitive, stays itself)
        const skip = (stem.stripped && short) || stem.word === word || (phraseWord && !stem.changed);
        const form = skip ? undefined : stem.forms.get(ending);
        if (form) return { word: stem.word, form };
      }
    }
    return null;
  }

  /**
   * `text` with each inflected word that `accepts` reads as its phrase word replaced by it, or null when none is.
   * @param {string} text folded
   * @param {Accepts} accepts
   * @returns {string | null}
   */
  reading(text, accepts) {
    let changed = false;
    const out = text.replace(WORD, (word, /** @type {number} */ at) => {
      const lemma = this.lemma(word);
      if (!lemma || !accepts(lemma.word, lemma.form, text.slice(at + word.length))) return word;
      changed = true;
      return lemma.word;
    });
    return changed ? out : null;
  }
}
