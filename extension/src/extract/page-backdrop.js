/**
 * In-page: whether a `backdrop-filter` leaves anything under its box legible (issue 18). A blur is judged by
 * its width (page-cover.js); the colour functions can flatten what is behind into one colour just as well
 * (`brightness(0)` paints it black, `contrast(0)` grey): the filter is run on black and on white
 * (page-colour.js tinted), and when the two come out with a contrast under the judgement's 1.2, no text under
 * the box can stand out from its background.
 *
 * - `flattensBehind(filter)`: whether a computed backdrop-filter makes every colour behind it alike.
 * - `backdropOf(filter)`: a computed backdrop-filter's colour functions, in order, as a `tint` (page-colour.js
 *   tinted, the code a `filter` tints a text's colours with), the product of its opacity()s, and whether it holds
 *   an SVG filter (url(): a flood, a colour matrix, a displacement, which style cannot judge: page-pixels.js asks
 *   the rendering for the texts under such a box).
 * - `backdropBoxes(win)`: the document's boxes with a backdrop-filter that changes colours or is a url(), once
 *   per call (page-scan.js): a page without one pays nothing per text (page-cover.js backdropBehind).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";

definePagePart(pageBackdrop, { uses: [pageColour, pageRender, pageScan] });

/**
 * Adds flattensBehind, backdropOf and backdropBoxes to lib (needs pageColour, factsOf, renderedScan).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageBackdrop(lib) {
  const MIN_CONTRAST = 1.2;
  const TINTS = new Set(["brightness", "contrast", "invert", "grayscale", "sepia", "saturate", "hue-rotate"]);

  /** @param {string} arg @returns {number} a filter argument: a number, a percentage, an angle in degrees */
  const valueOf = (arg) => {
    const a = arg.trim();
    if (a === "") return 1;
    const v = parseFloat(a);
    return a.endsWith("%") ? v / 100 : a.endsWith("turn") ? v * 360 : a.endsWith("rad") && !a.endsWith("grad") ? (v * 180) / Math.PI : v;
  };

  /** @param {string} filter a computed backdrop-filter */
  lib.flattensBehind = (filter) => {
    if (!filter || filter === "none") return false;
    /** @type {[string, number][]} */
    const tint = [];
    for (const [, fn, arg] of filter.matchAll(/([a-z-]+)\(([^()]*)\)/g)) {
      const v = valueOf(arg);
      if (TINTS.has(fn) && !Number.isNaN(v)) tint.push([fn, v]);
    }
    if (!tint.length) return false;
    return lib.contrast(lib.tinted([0, 0, 0, 1], tint), lib.tinted([255, 255, 255, 1], tint)) < MIN_CONTRAST;
  };

  /** @typedef {{tint: [string, number][], alpha: number, url: boolean}} Backdrop */
  /** @type {Map<string, Backdrop>} */
  const parsed = new Map();
  /** @param {string} filter a computed backdrop-filter @returns {Backdrop} */
  lib.backdropOf = (filter) => {
    let known = parsed.get(filter);
    if (!known) {
      /** @type {[string, number][]} */
      const tint = [];
      let alpha = 1;
      for (const [, fn, arg] of filter.matchAll(/([a-z-]+)\(([^()]*)\)/g)) {
        const v = valueOf(arg);
        if (Number.isNaN(v)) continue;
        if (fn === "opacity") alpha *= Math.max(0, Math.min(1, v));
        else if (TINTS.has(fn)) tint.push([fn, v]);
      }
      known = { tint, alpha, url: /url\(/.test(filter) };
      if (parsed.size < 500) parsed.set(filter, known);
    }
    return known;
  };

  /**
   * @param {Window} win
   * @returns {{el: Element, cs: CSSStyleDeclaration, tint: [string, number][], alpha: number, url: boolean}[]}
   */
  lib.backdropBoxes = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.backdrops) {
      const { els, styles } = lib.renderedScan(win);
      /** @type {{el: Element, cs: CSSStyleDeclaration, tint: [string, number][], alpha: number, url: boolean}[]} */
      const out = [];
      for (let i = 0; i < els.length; i++) {
        const filter = /** @type {any} */ (styles[i]).backdropFilter ?? "none";
        if (filter === "none") continue;
        const b = lib.backdropOf(filter);
        if ((b.tint.length && b.alpha > 0) || b.url) out.push({ el: els[i], cs: styles[i], ...b });
      }
      facts.backdrops = out;
    }
    return facts.backdrops;
  };
}
