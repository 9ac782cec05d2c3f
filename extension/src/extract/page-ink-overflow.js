/**
 * In-page: paint that is no box (issue 18). What an element paints outside its border box, or over its own
 * glyphs, neither hit testing (it reports border boxes) nor the style judgement (it compares a text's colour with
 * the backgrounds behind it) models: a decoration line as thick as a fraction of the font, which may be pulled over
 * the glyphs (text-underline-offset) or run across its descendants' text; a column rule, painted under the columns'
 * text wherever it is wider than its gap; a `::first-line` background; a border image drawn outward
 * (border-image-outset); a `drop-shadow()` or `blur()` filter, which paints the box's shape again beyond it; a
 * `-webkit-box-reflect` copy; a text shadow thrown further than half its font size. Page code cannot tell what
 * such paint does to a text (it may be the text's own colour, or lie under it, or be translucent), so it does not
 * try: the area it may reach is handed to the pixels, which judge every text there as painted
 * (page-pixels.js, extract/pixel-judge.js).
 *
 * - `inkOverflowAreas(win)`: the areas (viewport CSS px) that such paint may reach, once per call, from the one scan
 *   of the document (page-scan.js): six style reads per element, most of them `none` or `0px`.
 *
 * What is judged here is where the pixels must look, not whether a text shows: a property missing from this list
 * still hides nothing it does not paint over, and an area too large costs captures, never text.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";
import { pageTextPaint } from "./page-text-paint.js";

definePagePart(pageInkOverflow, { uses: [pageColour, pageRender, pageScan, pageTextPaint] });

/**
 * Adds inkOverflowAreas to lib (needs factsOf, renderedScan, firstLinePseudo and colourOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageInkOverflow(lib) {
  /** A decoration line at least this thick (a fraction of the font size) may cover glyphs. */
  const THICK_LINE = 0.2;
  /** A text shadow thrown at least this far (a fraction of the font size) lands on other text. */
  const FAR_SHADOW = 0.5;
  const LENGTH = /-?\d*\.?\d+(?:e-?\d+)?px/g;

  /**
   * @typedef {{l: number, t: number, r: number, b: number}} Box
   */

  /** @param {string} value @returns {number[]} every px length in a computed value */
  const lengths = (value) => (value.match(LENGTH) ?? []).map((v) => parseFloat(v));
  /** @param {DOMRect} b @param {number} by @returns {Box} */
  const grown = (b, by) => ({ l: b.left - by, t: b.top - by, r: b.right + by, b: b.bottom + by });

  /**
   * How far beyond an element's border box its unmodelled paint may reach (px), or -1 for none; 0: inside it.
   * @param {Element} el @param {CSSStyleDeclaration} cs @param {Window} win
   */
  const reach = (el, cs, win) => {
    const any = /** @type {any} */ (cs);
    const font = parseFloat(cs.fontSize) || 16;
    let far = -1;
    if (cs.textDecorationLine !== "none") {
      const thick = parseFloat(cs.textDecorationThickness);
      const offset = Math.abs(parseFloat(any.textUnderlineOffset) || 0);
      if (thick >= THICK_LINE * font || offset >= font) far = Math.max(far, (thick || 0) + offset);
    }
    if (cs.columnRuleStyle !== "none" && cs.columnRuleStyle !== "hidden"
      && (parseFloat(cs.columnRuleWidth) || 0) > (parseFloat(cs.columnGap) || 0)) far = Math.max(far, 0);
    if (cs.borderImageSource !== "none") {
      const outset = cs.borderImageOutset.split(/\s+/).map((v) => v.endsWith("px") ? parseFloat(v)
        : (parseFloat(v) || 0) * Math.max(...lengths(`${cs.borderTopWidth} ${cs.borderRightWidth} ${cs.borderBottomWidth} ${cs.borderLeftWidth}`), 0));
      far = Math.max(far, ...outset);
    }
    if (cs.filter !== "none" && /drop-shadow|blur/.test(cs.filter)) {
      far = Math.max(far, lengths(cs.filter).reduce((n, v) => n + 2 * Math.abs(v), 0));
    }
    const reflect = any.webkitBoxReflect ?? "none";
    if (reflect !== "none") {
      const b = el.getBoundingClientRect();
      far = Math.max(far, Math.max(b.width, b.height) + lengths(reflect).reduce((n, v) => n + Math.abs(v), 0));
    }
    if (cs.textShadow !== "none") {
      const thrown = lengths(cs.textShadow).reduce((n, v) => Math.max(n, Math.abs(v)), 0);
      if (thrown >= FAR_SHADOW * font) far = Math.max(far, 2 * thrown);
    }
    const line = lib.firstLinePseudo(el, cs, win);
    if (line && ((lib.colourOf(line.backgroundColor)?.[3] ?? 0) > 0 || line.backgroundImage !== "none")) far = Math.max(far, 0);
    return far;
  };

  /** @param {Window} win @returns {Box[]} */
  lib.inkOverflowAreas = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.inkOverflow) {
      const { els, styles, inside } = lib.renderedScan(win);
      /** @type {Box[]} */
      const out = [];
      for (let i = 0; i < els.length; i++) {
        if (inside[i]) continue;
        const far = reach(els[i], styles[i], win);
        if (far < 0) continue;
        const b = els[i].getBoundingClientRect();
        if (b.width > 0 && b.height > 0) out.push(grown(b, far));
      }
      facts.inkOverflow = out;
    }
    return facts.inkOverflow;
  };
}
