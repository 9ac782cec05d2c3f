/**
 * In-page: whether a `backdrop-filter` leaves anything under its box legible (issue 18). A blur is judged by
 * its width (page-cover.js); the colour functions can flatten what is behind into one colour just as well
 * (`brightness(0)` paints it black, `contrast(0)` grey): the filter is run on black and on white
 * (page-colour.js tinted), and when the two come out with a contrast under the judgement's 1.2, no text under
 * the box can stand out from its background.
 *
 * - `flattensBehind(filter)`: whether a computed backdrop-filter makes every colour behind it alike.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";

definePagePart(pageBackdrop, { uses: [pageColour] });

/**
 * Adds flattensBehind to lib (needs pageColour).
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
}
