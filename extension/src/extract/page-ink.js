/**
 * In-page: whether a text's glyphs draw anything (issue 18). A web font can map letters to glyphs with no
 * contours: the text is laid out, coloured and hit-tested like any other, and paints nothing. The browser's own
 * text engine is asked: each character is measured in the element's resolved font on an OffscreenCanvas (which
 * uses the document's @font-face rules, fallback fonts included, as the page's text does), and its ink bounds
 * (measureText's actualBoundingBox) say whether the glyph has any.
 *
 * - `inkless(node, cs, win)`: true when fewer than half of a text node's visible characters (its first 64) draw
 *   ink in its element's font, or when its characters are drawn as a mask's shapes (-webkit-text-security).
 * - `inklessWords(data, cs, win)`: the words of a text that draw (almost) no ink, where the rest of it does (a
 *   font that blanks some characters only: page-word-paint.js blanks them in every reader).
 *
 * Only fonts a page brings (document.fonts) are measured: the system's draw. Each character is measured once per
 * font and set of loaded faces (kept across calls: a face that loads later is a new set), so a page costs one
 * measure per distinct character and font.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pageInk, { uses: [pageRender] });

/**
 * Adds inkless to lib (needs pageRender's factsOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageInk(lib) {
  /** Characters of a text node measured at most. */
  const SAMPLE = 64;
  /** Below this (px, at the measuring size) a glyph's ink box is nothing. */
  const NO_INK = 0.5;
  const SIZE = "32px";
  /** @type {Map<string, Map<string, boolean>>} per font and set of loaded faces: per character, whether it inks */
  const inks = new Map();
  /** @type {any} */
  let pen = null;

  /**
   * The families the page's own fonts give, lower case, and a key for the faces loaded now (once per call).
   * @param {Window} win @returns {{families: Set<string>, key: string}}
   */
  const webFonts = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.webFonts) {
      /** @type {Set<string>} */
      const families = new Set();
      let loaded = 0;
      const set = /** @type {any} */ (win.document).fonts;
      if (set && set.size) {
        for (const face of set) {
          families.add(String(face.family).replace(/^["']|["']$/g, "").toLowerCase());
          if (face.status === "loaded") loaded++;
        }
      }
      facts.webFonts = { families, key: `${families.size}:${loaded}` };
    }
    return facts.webFonts;
  };

  /** @param {string} family a computed font-family list @param {Set<string>} web */
  const usesWebFont = (family, web) => family.split(",").some((f) => web.has(f.trim().replace(/^["']|["']$/g, "").toLowerCase()));

  /**
   * @param {Text} node @param {CSSStyleDeclaration} cs its element's style @param {Window} win
   * @returns {boolean} whether its glyphs draw (almost) nothing
   */
  lib.inkless = (node, cs, win) => {
    const masked = /** @type {any} */ (cs).webkitTextSecurity;
    if (masked && masked !== "none") return true; // each character is drawn as a disc, circle or square
    const draws = inkTest(cs, win);
    if (!draws) return false;
    let seen = 0;
    let inked = 0;
    for (const ch of node.data) {
      if (ch.trim() === "") continue;
      if (++seen > SAMPLE) break;
      if (draws(ch)) inked++;
    }
    return seen > 0 && inked * 2 < Math.min(seen, SAMPLE);
  };

  /**
   * Whether each character inks in an element's font, or null when the font is the system's (which draws).
   * @param {CSSStyleDeclaration} cs @param {Window} win @returns {((ch: string) => boolean) | null}
   */
  const inkTest = (cs, win) => {
    const web = webFonts(win);
    if (!web.families.size || !usesWebFont(cs.fontFamily, web.families)) return null;
    const font = `${cs.fontStyle} ${cs.fontWeight} ${SIZE} ${cs.fontFamily}`;
    const key = `${web.key}|${font}`;
    let byChar = inks.get(key);
    if (!byChar) {
      if (inks.size > 200) inks.clear();
      inks.set(key, (byChar = new Map()));
    }
    const known = byChar;
    return (ch) => {
      let draws = known.get(ch);
      if (draws === undefined) {
        pen ??= new OffscreenCanvas(1, 1).getContext("2d");
        pen.font = font;
        const m = pen.measureText(ch);
        draws = m.actualBoundingBoxLeft + m.actualBoundingBoxRight > NO_INK && m.actualBoundingBoxAscent + m.actualBoundingBoxDescent > NO_INK;
        known.set(ch, draws);
      }
      return draws;
    };
  };

  /**
   * The words of a text whose glyphs draw (almost) nothing in the element's font, as [start, end) offsets: a web
   * font whose faces cover only some characters (unicode-range) blanks those and lets the rest fall back to a
   * font that draws. Empty for the system's fonts.
   * @param {string} data @param {CSSStyleDeclaration} cs @param {Window} win @returns {number[][]}
   */
  lib.inklessWords = (data, cs, win) => {
    const draws = inkTest(cs, win);
    if (!draws) return [];
    /** @type {number[][]} */
    const out = [];
    for (const word of data.matchAll(/\S+/g)) {
      const chars = [...word[0]];
      const inked = chars.filter(draws).length;
      if (inked * 2 < chars.length) out.push([/** @type {number} */ (word.index), /** @type {number} */ (word.index) + word[0].length]);
    }
    return out;
  };
}
