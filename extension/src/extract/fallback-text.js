/**
 * The `text` field carries only what the markdown and the element index do not (pure; runs under node).
 *
 * The walker sends a text fallback when it caught little of a page's text (page-reading.js fallbackText: the
 * visible text, as lines, tab-separated cells). Most of it is usually in the markdown already — a table the
 * markdown has as rows, a heading, a link's words. Each line (each cell of a row) is looked for in the markdown
 * and the index, both read as plain words (tokens by their text, table pipes, heading and list marks gone,
 * case and spaces folded); a line said there already, or earlier in the fallback, is dropped. What is left is
 * sent only when it is more than a scrap (MIN_LEFT): a few stray words do not earn a field.
 */

/** Fewest characters of text not said elsewhere that make the fallback worth sending. */
export const MIN_LEFT = 80;

/** @param {string} s markdown or text, as plain folded words */
export const plainWords = (s) => s
  .replace(/\[((?:[^\][\\]|\\.)*)\]\(e\d+\)/g, "$1")
  .replace(/\[e\d+\]/g, " ")
  .replace(/\\([[\]\\|])/g, "$1")
  .replace(/^\s*(?:#+|[-*>]|\d+\.)\s+/gm, "")
  .replace(/[|]/g, " ")
  .toLowerCase()
  .replace(/\s+/g, " ")
  .trim();

/**
 * @param {string} text the walker's fallback (lines; cells tab-separated)
 * @param {string[]} said the markdown lines and the element names
 * @returns {string} the lines not said there ("" when what is left is a scrap)
 */
export function notSaid(text, said) {
  if (!text) return "";
  // Padded with spaces, a line is found only as whole words: "Yes" is not said by "eyes".
  const known = ` ${plainWords(said.join("\n"))} `;
  /** @type {Set<string>} */
  const seen = new Set();
  /** @param {string} part */
  const told = (part) => {
    const words = plainWords(part);
    return !words || known.includes(` ${words} `) || seen.has(words);
  };
  /** @type {string[]} */
  const left = [];
  for (const line of text.split("\n")) {
    const cells = line.split("\t");
    if (cells.every(told)) continue;
    seen.add(plainWords(line));
    left.push(cells.map((c) => c.trim()).filter(Boolean).join(" | "));
  }
  const out = left.join("\n");
  return out.length >= MIN_LEFT ? out : "";
}
