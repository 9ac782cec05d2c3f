/**
 * Invisible format characters out of what the model reads (pure; runs under node).
 *
 * Unicode's format characters (category Cf) draw nothing: soft hyphens (a German page hyphenates long words with
 * them, ~20 % more tokens), zero-width spaces and joiners, the word joiner, bidi marks, embeddings and isolates,
 * the BOM. collect.js drops them from every walk's text as it arrives (markdown text, inline tokens, element
 * names, contexts and region labels, dialog names, the title and the text fallback) — one step where page text
 * enters the output. A zero-width space between two characters becomes a space: it marks where a line may break,
 * a word's edge (Thai, Khmer, Lao and Burmese separate words with it; a page gluing words with it keeps the edges
 * the injection flagger stands on, app/agent/page_text/compact.py). Kept, because they change what is drawn:
 * - a zero-width joiner inside an emoji sequence (👩‍💻 is one picture), and emoji tag characters (subdivision flags);
 * - a joiner or non-joiner after a letter of a script that shapes joined letters (Arabic, Persian, Indic): it
 *   picks the letter's form;
 * - the prepended concatenation marks of Arabic, Syriac and Kaithi (they draw a sign over the digits after them).
 * Field values (`value="…"` states) are left as they are: typed back, they must round-trip exactly.
 */

const ANY_FORMAT = /\p{Cf}/u;
const FORMAT = /\p{Cf}/gu;
const DRAWN = /^[\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u{110BD}\u{110CD}\u{E0020}-\u{E007F}]$/u;
const PICTURE = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F/u;
/** A letter whose joined form a joiner picks: a letter or mark of a script other than Latin, Greek, Cyrillic. */
const SHAPED = /^[\p{L}\p{M}]$/u;
const UNSHAPED = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u;

/**
 * The code point before and after position i of s (one UTF-16 unit wide at i).
 * @param {string} s
 * @param {number} i
 */
const around = (s, i) => {
  const low = s.charCodeAt(i - 1);
  const before = i > 1 && low >= 0xdc00 && low <= 0xdfff ? s.slice(i - 2, i) : s.slice(Math.max(0, i - 1), i);
  const high = s.charCodeAt(i + 1);
  const after = high >= 0xd800 && high <= 0xdbff ? s.slice(i + 1, i + 3) : s.slice(i + 1, i + 2);
  return { before, after };
};

/**
 * s without its invisible format characters (the ones that change what is drawn kept).
 * @param {string} s
 * @returns {string}
 */
export function dropInvisible(s) {
  if (!ANY_FORMAT.test(s)) return s;
  return s.replace(FORMAT, (c, i) => {
    if (DRAWN.test(c)) return c;
    if (c === "\u200B") return /\S/.test(s[i - 1] ?? "") && /\S/.test(s[i + 1] ?? "") ? " " : "";
    if (c === "\u200D" || c === "\u200C") {
      const { before, after } = around(s, i);
      if (c === "\u200D" && (PICTURE.test(before) || PICTURE.test(after))) return c;
      if (SHAPED.test(before) && !UNSHAPED.test(before)) return c;
    }
    return "";
  });
}

/**
 * A walk's blocks with every string in them cleaned (texts, inline tokens' `x`, dialog names, notes), in place.
 * @param {any} value
 * @returns {any}
 */
export function dropInvisibleDeep(value) {
  if (typeof value === "string") return dropInvisible(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = dropInvisibleDeep(value[i]);
  } else if (value && typeof value === "object") {
    for (const key of Object.keys(value)) value[key] = dropInvisibleDeep(value[key]);
  }
  return value;
}
