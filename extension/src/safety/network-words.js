/**
 * Endpoint words in every language the label check reads (README "Safety model"): the commands of
 * app/protocol/safety/sensitive-words.json (generated into ../generated/sensitive-words.js), folded as labels are
 * (safety/fold.js), in the forms URL and API authors write them — `/bezahlen`, `/pagar`, `/supprimer`,
 * `/udalit`, `/oplata`, `place-order`, `/删除` — so a request's path segments and field names are judged with
 * the same vocabulary as the control that sent it, not an English list.
 *
 * Forms of each command phrase: its words joined (`zur kasse` → `zurkasse`, matched on one name word or on
 * adjacent ones joined), with the diacritics removed (`löschen` → `loschen`, and `loeschen` as German writes it
 * without umlauts), and Cyrillic transliterated to Latin (a derived form shorter than four letters is left out:
Vietnamese `gửi` is not read in `/gui`). A transliterated form of seven letters or more also
 * matches by its stem (its first letters, all but the last three), as Russian slugs drop or change the ending
 * (`oplata`, `oplatit` of `оплатить`); a Latin form matches only whole, since Latin slugs spell the word itself
 * and a stem rule there would read `postal` as `postar`. Chinese and Japanese commands are found inside a
 * segment, as they are not split into words.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";
import { fold } from "./fold.js";

/** What each category of the vocabulary is, as a held request's reason says it. */
const KIND_OF = /** @type {Record<string, string>} */ ({
  pay: "a payment", send: "sending", delete: "deleting", transfer: "a transfer", account: "account changes",
});
const CYRILLIC = /** @type {Record<string, string>} */ ({
  а: "a", б: "b", в: "v", г: "g", ґ: "g", д: "d", е: "e", ё: "e", є: "ie", ж: "zh", з: "z", и: "i", і: "i", ї: "i",
  й: "i", к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "kh", ц: "ts",
  ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "iu", я: "ia",
});
const UMLAUT = /** @type {Record<string, string>} */ ({ ä: "ae", ö: "oe", ü: "ue", ß: "ss" });
const ATTACHING = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LETTERS = /[\p{L}\p{M}\p{N}]+/gu;
const STEM_MIN = 7;
/** A form made by removing diacritics or transliterating is this long at least (`gửi` is not read in `gui`). */
const DERIVED_MIN = 4;
const STEM_DROP = 3;

/** @param {string} text folded */
function plain(text) {
  return text.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC");
}

/** @param {string} text lower case, not folded */
function transliterated(text) {
  return [...text].map((c) => CYRILLIC[c] ?? c).join("");
}

/**
 * The words of a name or segment, folded: split at camel case and at anything not a letter or digit.
 * @param {string} name
 */
export function nameWords(name) {
  return fold(name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")).match(LETTERS) ?? [];
}

/**
 * @typedef {{exact: Map<string, string>, stems: [string, string][], inner: [string, string][]}} Vocabulary
 *   `exact`: form → kind; `stems`: [stem, kind]; `inner`: [Chinese or Japanese phrase, kind]
 */

/** @returns {Vocabulary} */
function build() {
  /** @type {Vocabulary} */
  const vocabulary = { exact: new Map(), stems: [], inner: [] };
  const phrases = /** @type {Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>} */ (SENSITIVE_WORDS.phrases);
  for (const [category, byLanguage] of Object.entries(phrases)) {
    const kind = KIND_OF[category];
    if (!kind) continue;
    for (const phrase of Object.values(byLanguage).flat()) {
      const folded = fold(phrase);
      if (ATTACHING.test(folded)) {
        vocabulary.inner.push([folded.replace(/\s+/g, ""), kind]);
        continue;
      }
      const joined = (folded.match(LETTERS) ?? []).join("");
      if (!joined) continue;
      // fold() turns Cyrillic letters into the Latin ones they look like: transliterate the phrase as written
      const written = (phrase.normalize("NFKC").toLowerCase().match(LETTERS) ?? []).join("");
      const cyrillic = /\p{Script=Cyrillic}/u.test(written);
      const latin = cyrillic ? transliterated(written) : "";
      const derived = [plain(joined), [...joined].map((c) => UMLAUT[c] ?? c).join(""), latin]
        .filter((form) => form.length >= DERIVED_MIN);
      for (const form of [joined, ...derived]) if (!vocabulary.exact.has(form)) vocabulary.exact.set(form, kind);
      if (latin.length >= STEM_MIN) vocabulary.stems.push([latin.slice(0, latin.length - STEM_DROP), kind]);
    }
  }
  return vocabulary;
}

const VOCABULARY = build();
/** @param {string} name as the request wrote it, cut for a reason's text */
function shown(name) {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/** Joined runs of adjacent words this long are tried (`place-order-now`). */
const MAX_RUN = 3;

/**
 * The kind of endpoint and the word that says so, for the first sensitive word among names (path segments,
 * query and body field names); null when none.
 * @param {string[]} names raw, not folded
 * @returns {[kind: string, word: string] | null}
 */
export function endpointKindOf(names) {
  for (const name of names) {
    const folded = fold(name);
    if (ATTACHING.test(folded)) {
      const found = VOCABULARY.inner.find(([phrase]) => folded.includes(phrase));
      if (found) return [found[1], shown(name)];
    }
    const words = nameWords(name);
    for (let i = 0; i < words.length; i++) {
      for (let n = Math.min(MAX_RUN, words.length - i); n >= 1; n--) {
        const run = words.slice(i, i + n).join("");
        const kind = VOCABULARY.exact.get(run) ?? VOCABULARY.exact.get(plain(run));
        if (kind) return [kind, shown(name)];
      }
      const word = plain(words[i]);
      const stem = VOCABULARY.stems.find(([s]) => word.startsWith(s) && word.length <= s.length + STEM_DROP);
      if (stem) return [stem[1], shown(name)];
    }
  }
  return null;
}
