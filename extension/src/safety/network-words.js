/**
 * What a request's names say it does, in every language the label check reads (README "Safety model"): the
 * words of app/protocol/safety/sensitive-words.json (generated into ../generated/sensitive-words.js) — its label
 * `phrases` in the forms URL and API authors write them (`/bezahlen`, `place-order`, `/删除`) and its `endpoints`
 * words, the nouns and verbs of slugs and field names (`/zahlung`, `/pedido`, `/udalit`, `/zhifu`) — so a path
 * segment, a query or body field name or an operation name is judged with the same vocabulary as the control
 * that sent it, not an English list.
 *
 * Forms of each word: folded (safety/fold.js), its words joined (`zur kasse` → `zurkasse`, matched on one name
 * word or on adjacent ones joined), without diacritics (`löschen` → `loschen`, and `loeschen` as German writes
 * it without umlauts; `plain_letters` for ł, đ, ı, ß …), and Cyrillic transliterated to Latin (a derived form
 * shorter than four letters is left out: Vietnamese `gửi` is not read in `/gui`). A transliterated label phrase
 * of seven letters or more also matches by its stem (all but its last three letters), as Russian slugs change
 * the ending (`oplata`, `oplatit` of `оплатить`). Chinese and Japanese words are found inside a name, as they
 * are not split into words.
 *
 * Compounds and endings (`endpoints.affixes`, per language): an endpoint word of five letters or more (two
 * Hangul syllables) of a compounding or inflecting language also matches where a name word starts with it and
 * goes on with one of the language's endings (`zamowienia`, `siparisler`), or, for a language that builds
 * compounds (`heads`), with a longer part that is not a topic (`zahlungsabwicklung`; not `zahlungsverlauf`, a
 * history, nor `bestellnummer`); where `tails` is set, a word that ends with it is a compound of it too
 * (`sofortueberweisung`). A word written `=kasse` in the data matches only whole (`kassel` is a city). Latin
 * languages without such rules match only whole, since their slugs spell the word itself.
 */

import { SENSITIVE_WORDS } from "../generated/sensitive-words.js";
import { fold } from "./fold.js";

/**
 * @typedef {{endings: readonly string[], links: readonly string[], heads: boolean, tails: boolean}} AffixRule
 * @typedef {{kinds: Readonly<Record<string, string>>, words: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>,
 *   affixes: Readonly<Record<string, AffixRule>>, topics: Readonly<Record<string, readonly string[]>>,
 *   plain_letters: Readonly<Record<string, string>>,
 *   commits: {verbs: Readonly<Record<string, readonly string[]>>, objects: Readonly<Record<string, readonly string[]>>}}} EndpointWords
 */
const ENDPOINTS = /** @type {EndpointWords} */ (/** @type {unknown} */ (SENSITIVE_WORDS.endpoints));
/** What each category is, as a held request's reason says it ("it goes to an endpoint for a payment"). */
const KIND_OF = ENDPOINTS.kinds;
const CYRILLIC = /** @type {Record<string, string>} */ ({
  а: "a", б: "b", в: "v", г: "g", ґ: "g", д: "d", е: "e", ё: "e", є: "ie", ж: "zh", з: "z", и: "i", і: "i", ї: "i",
  й: "i", к: "k", л: "l", м: "m", н: "n", о: "o", п: "p", р: "r", с: "s", т: "t", у: "u", ф: "f", х: "kh", ц: "ts",
  ч: "ch", ш: "sh", щ: "shch", ъ: "", ы: "y", ь: "", э: "e", ю: "iu", я: "ia",
});
const UMLAUT = /** @type {Record<string, string>} */ ({ ä: "ae", ö: "oe", ü: "ue", ß: "ss" });
const PLAIN_LETTERS = ENDPOINTS.plain_letters;
const PLAIN_LETTER = new RegExp(`[${Object.keys(PLAIN_LETTERS).join("")}]`, "gu");
const ATTACHING = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const LETTERS = /[\p{L}\p{M}]+|\p{N}+/gu;
const STEM_MIN = 7;
/** A form made by removing diacritics or transliterating is this long at least (`gửi` is not read in `gui`). */
const DERIVED_MIN = 4;
const STEM_DROP = 3;
/** An endpoint word this long at least matches inside a compound or before an ending (Hangul: syllables). */
const AFFIX_MIN = 5;
const AFFIX_MIN_HANGUL = 2;
/** A compound's other part is this long at least (shorter rests must be one of the language's endings). */
const HEAD_MIN = 3;
/** Name words longer than this are not searched for compounds (a hash, a token). */
const AFFIX_WORD_MAX = 40;

/** @param {string} text folded */
function plain(text) {
  if (/^[\x00-\x7f]*$/.test(text)) return text;
  return text.normalize("NFD").replace(/\p{M}/gu, "").normalize("NFC").replace(PLAIN_LETTER, (c) => PLAIN_LETTERS[c] ?? c);
}

/** @param {string} text lower case, not folded */
function transliterated(text) {
  return [...text].map((c) => CYRILLIC[c] ?? c).join("");
}

/**
 * The words of a name or segment, folded: split at camel case, between letters and digits, and at anything not
 * a letter or digit.
 * @param {string} name
 */
export function nameWords(name) {
  return fold(name.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")).match(LETTERS) ?? [];
}

/**
 * @typedef {{kind: string, rule: AffixRule, topics: string[]}} Affix
 * @typedef {{exact: Map<string, string>, stems: Map<string, string>, stemLengths: number[], inner: [string, string][],
 *   affixes: Map<string, Affix>, longest: number}} Vocabulary
 *   `exact`: form → kind; `stems`: stem → kind (`stemLengths`: their lengths); `inner`: [Chinese or Japanese word,
 *   kind]; `affixes`: form → what it means inside a compound or before an ending; `longest`: the longest affix form
 */

/**
 * Every form a phrase or word takes in a URL: joined, without diacritics, with umlauts written out, Cyrillic
 * transliterated (the last also returned alone, for the stem rule).
 * @param {string} phrase as the data writes it
 * @returns {{forms: string[], latin: string} | null} null for a Chinese or Japanese word (found inside names)
 */
function formsOf(phrase) {
  const folded = fold(phrase);
  if (ATTACHING.test(folded)) return null;
  const joined = (folded.match(LETTERS) ?? []).join("");
  if (!joined) return { forms: [], latin: "" };
  // fold() turns Cyrillic letters into the Latin ones they look like: transliterate the phrase as written
  const written = (phrase.normalize("NFKC").toLowerCase().match(LETTERS) ?? []).join("");
  const latin = /\p{Script=Cyrillic}/u.test(written) ? transliterated(written) : "";
  const derived = [plain(joined), [...joined].map((c) => UMLAUT[c] ?? c).join(""), latin].filter((form) => form.length >= DERIVED_MIN);
  return { forms: [...new Set([joined, ...derived])], latin };
}

/** @param {string} word folded */
const affixMin = (word) => (HANGUL.test(word) ? AFFIX_MIN_HANGUL : AFFIX_MIN);

/** @returns {Vocabulary} */
function build() {
  /** @type {Vocabulary} */
  const vocabulary = { exact: new Map(), stems: new Map(), stemLengths: [], inner: [], affixes: new Map(), longest: 0 };
  /** @param {string} phrase @param {string} kind */
  const addWhole = (phrase, kind) => {
    const found = formsOf(phrase);
    if (!found) {
      vocabulary.inner.push([fold(phrase).replace(/\s+/g, ""), kind]);
      return null;
    }
    for (const form of found.forms) if (!vocabulary.exact.has(form)) vocabulary.exact.set(form, kind);
    return found;
  };
  const phrases = /** @type {Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>} */ (SENSITIVE_WORDS.phrases);
  for (const [category, byLanguage] of Object.entries(phrases)) {
    const kind = KIND_OF[category];
    if (!kind) continue;
    for (const phrase of Object.values(byLanguage).flat()) {
      const found = addWhole(phrase, kind);
      const stem = found && found.latin.length >= STEM_MIN ? found.latin.slice(0, found.latin.length - STEM_DROP) : "";
      if (stem && !vocabulary.stems.has(stem)) vocabulary.stems.set(stem, kind);
    }
  }
  /** @param {readonly string[] | undefined} words */
  const plainAll = (words) => (words ?? []).map((w) => plain(fold(w)));
  for (const [category, byLanguage] of Object.entries(ENDPOINTS.words)) {
    const kind = KIND_OF[category];
    for (const [language, words] of Object.entries(byLanguage)) {
      const rule = ENDPOINTS.affixes[language];
      const topics = rule ? [...plainAll(ENDPOINTS.topics[language]), ...plainAll(ENDPOINTS.topics.en)] : [];
      for (const written of words) {
        const whole = written.startsWith("=");
        const found = addWhole(whole ? written.slice(1) : written, kind);
        if (!found || whole || !rule) continue;
        for (const form of found.forms) {
          if ([...form].length < affixMin(form) || vocabulary.affixes.has(form)) continue;
          vocabulary.affixes.set(form, { kind, rule: { ...rule, endings: plainAll(rule.endings), links: plainAll(rule.links) }, topics });
          vocabulary.longest = Math.max(vocabulary.longest, form.length);
        }
      }
    }
  }
  vocabulary.stemLengths = [...new Set([...vocabulary.stems.keys()].map((stem) => stem.length))].sort((a, b) => b - a);
  return vocabulary;
}

const VOCABULARY = build();

/**
 * The kind of a transliterated label phrase whose stem starts `word` (with at most STEM_DROP letters more), or null.
 * @param {string} word plain
 */
function stemKind(word) {
  for (const length of VOCABULARY.stemLengths) {
    if (word.length < length || word.length > length + STEM_DROP) continue;
    const kind = VOCABULARY.stems.get(word.slice(0, length));
    if (kind) return kind;
  }
  return null;
}

/** @param {string} name as the request wrote it, cut for a reason's text */
function shown(name) {
  return name.length > 40 ? `${name.slice(0, 40)}…` : name;
}

/**
 * Does the rest of a compound after an endpoint word make it a topic ("verlauf", "nummer", with a linking "s")?
 * @param {string} rest
 * @param {Affix} affix
 */
function isTopic(rest, affix) {
  const tries = [rest, ...affix.rule.links.filter((l) => rest.startsWith(l)).map((l) => rest.slice(l.length))];
  return tries.some((part) => affix.topics.some((t) => (t.length >= HEAD_MIN ? part.startsWith(t) : part === t)));
}

/**
 * The kind a name word has as a compound of an endpoint word or that word with an ending, or null.
 * @param {string} word plain
 * @returns {string | null}
 */
function compoundKind(word) {
  if (word.length > AFFIX_WORD_MAX || VOCABULARY.affixes.size === 0) return null;
  for (let end = Math.min(word.length - 1, VOCABULARY.longest); end >= AFFIX_MIN_HANGUL; end--) {
    const affix = VOCABULARY.affixes.get(word.slice(0, end));
    if (!affix) continue;
    // The longest endpoint word at the start decides (`bestellnummer` is `bestell` + a number, not `bestel` + …).
    const rest = word.slice(end);
    if (affix.rule.endings.includes(rest)) return affix.kind;
    if (affix.rule.heads && rest.length >= HEAD_MIN && !isTopic(rest, affix)) return affix.kind;
    break;
  }
  for (let start = HEAD_MIN; start <= word.length - AFFIX_MIN_HANGUL; start++) {
    const affix = VOCABULARY.affixes.get(word.slice(start));
    if (affix?.rule.tails) return affix.kind;
  }
  return null;
}

/** Joined runs of adjacent words this long are tried (`place-order-now`). */
const MAX_RUN = 3;

/**
 * The runs of adjacent words starting at word i, longest first, each joined as written and plain
 * (`place-order-now` at 0: "placeordernow", "placeorder", "place").
 * @param {string[]} words @param {string[]} plainWords @param {number} i
 * @returns {[string, string][]}
 */
function runsAt(words, plainWords, i) {
  /** @type {[string, string][]} */
  const runs = [];
  for (let n = Math.min(MAX_RUN, words.length - i); n >= 1; n--) {
    runs.push([words.slice(i, i + n).join(""), plainWords.slice(i, i + n).join("")]);
  }
  return runs;
}

/**
 * The kinds the words of one name say, in order (`placeOrder`: a payment by "place order", an order by "order").
 * @param {string} name raw, not folded
 * @returns {string[]}
 */
function kindsOfName(name) {
  /** @type {string[]} */
  const kinds = [];
  const folded = fold(name);
  if (ATTACHING.test(folded)) {
    for (const [phrase, kind] of VOCABULARY.inner) if (folded.includes(phrase)) kinds.push(kind);
  }
  const words = nameWords(name);
  const plainWords = words.map(plain);
  for (let i = 0; i < words.length; i++) {
    for (const [run, plainRun] of runsAt(words, plainWords, i)) {
      const kind = VOCABULARY.exact.get(run) ?? VOCABULARY.exact.get(plainRun);
      if (kind) kinds.push(kind);
    }
    const stem = stemKind(plainWords[i]);
    if (stem) kinds.push(stem);
    const compound = compoundKind(plainWords[i]);
    if (compound) kinds.push(compound);
  }
  return kinds;
}

/**
 * The forms of each commit verb and cart word (sensitive-words.json `endpoints.commits`), as name words are read.
 * @param {Readonly<Record<string, readonly string[]>>} byLanguage
 */
function commitForms(byLanguage) {
  /** @type {Set<string>} */
  const forms = new Set();
  for (const written of Object.values(byLanguage).flat()) {
    const words = nameWords(written);
    for (const form of [words.join(""), words.map(plain).join("")]) if (form) forms.add(form);
  }
  return forms;
}

const COMMIT_VERBS = commitForms(ENDPOINTS.commits.verbs);
const CART_WORDS = commitForms(ENDPOINTS.commits.objects);

/**
 * The first name holding a commit verb, when another (or the same) name holds a cart word: a generic verb places
 * an order only next to a cart (`/panier/valider`); null otherwise.
 * @param {Iterable<string>} names raw, not folded
 * @returns {string | null}
 */
function committedCart(names) {
  let verb = null;
  let cart = false;
  for (const name of names) {
    const words = nameWords(name);
    const plainWords = words.map(plain);
    for (let i = 0; i < words.length; i++) {
      for (const forms of runsAt(words, plainWords, i)) {
        if (verb === null && forms.some((f) => COMMIT_VERBS.has(f))) verb = name;
        if (forms.some((f) => CART_WORDS.has(f))) cart = true;
      }
    }
    if (verb !== null && cart) return verb;
  }
  return null;
}

/**
 * Every kind of endpoint the names say (path segments, query and body field names, operation names), each
 * with the first name that says it, in order; empty when none.
 * @param {string[]} names raw, not folded
 * @returns {[kind: string, name: string][]}
 */
export function endpointKinds(names) {
  /** @type {Map<string, string>} */
  const found = new Map();
  // A JSON body repeats its field names once per item: each name is read once.
  for (const name of new Set(names)) {
    for (const kind of kindsOfName(name)) if (!found.has(kind)) found.set(kind, shown(name));
  }
  const order = KIND_OF.order;
  if (order && !found.has(order)) {
    const verb = committedCart(names);
    if (verb !== null) found.set(order, shown(verb));
  }
  return [...found];
}

/**
 * The kind of endpoint and the name that says so, for the first sensitive name; null when none.
 * @param {string[]} names raw, not folded
 * @returns {[kind: string, name: string] | null}
 */
export function endpointKindOf(names) {
  for (const name of names) {
    const [kind] = kindsOfName(name);
    if (kind) return [kind, shown(name)];
  }
  return null;
}
