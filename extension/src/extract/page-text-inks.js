/**
 * In-page: every ink a text's glyphs are painted with (issue 18), read once for the judgements that weigh them:
 * its fill (an SVG text's `fill`), a stroke of at least half a pixel (`-webkit-text-stroke`, an SVG `stroke`) and
 * its text shadows. page-visibility.js judges each against the colours behind the text; page-pixels.js hands them
 * to the pixels (pixel-measure.js), which count the pixels of a moving picture that any of them paints.
 *
 * - `textFill(cs, el)`: the fill as [colour, opacity] (colour [r, g, b, a], or null when no one colour is known:
 *   a paint server).
 * - `textOutlines(cs, el)`: `{stroke, shadows}`: the stroke as [colour, opacity] (null without one), the shadows
 *   as computed, one string each (`rgb(0, 0, 0) 2px 2px 0px`).
 * - `shadowParts(shadow)`: one such shadow's colour (or null) and its offsets and blur, [dx, dy, blur] in px.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";

definePagePart(pageTextInks, { uses: [pageColour] });

/**
 * Adds textFill, textOutlines and shadowParts to lib (needs pageColour's colourOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageTextInks(lib) {
  const SVG_NS = "http://www.w3.org/2000/svg";
  const COLOUR = /(?:rgba?|color|oklch|oklab|lab|lch|hsla?|hwb)\((?:[^()]|\([^()]*\))*\)/;
  /** A stroke thinner than this (px) paints no legible outline. */
  const MIN_STROKE_PX = 0.5;

  /** @param {string} p an SVG paint: none paints nothing, a paint server (url) is not known @returns {number[] | null} */
  const svgInk = (p) => (p === "none" ? [0, 0, 0, 0] : p.startsWith("url(") ? null : lib.colourOf(p));

  /**
   * @param {CSSStyleDeclaration} cs @param {Element} el @returns {[number[] | null, number]} the fill, as [colour, opacity]
   */
  lib.textFill = (cs, el) => el.namespaceURI === SVG_NS ? [svgInk(cs.fill), parseFloat(cs.fillOpacity)]
    : [lib.colourOf(/** @type {any} */ (cs).webkitTextFillColor || cs.color), 1];

  /**
   * The inks painted around the fill (read only when asked: most texts are judged by their fill alone).
   * @param {CSSStyleDeclaration} cs @param {Element} el
   * @returns {{stroke: [number[] | null, number] | null, shadows: string[]}}
   */
  lib.textOutlines = (cs, el) => {
    const any = /** @type {any} */ (cs);
    const svg = el.namespaceURI === SVG_NS;
    const [paint, width, opacity] = svg ? [cs.stroke, cs.strokeWidth, parseFloat(cs.strokeOpacity)]
      : [any.webkitTextStrokeColor, any.webkitTextStrokeWidth, 1];
    /** @type {[number[] | null, number] | null} */
    const stroke = parseFloat(width) >= MIN_STROKE_PX ? [svg ? svgInk(paint) : lib.colourOf(paint), opacity] : null;
    const shadows = cs.textShadow && cs.textShadow !== "none" ? cs.textShadow.split(/,(?![^()]*\))/) : [];
    return { stroke, shadows };
  };

  /** @param {string} shadow @returns {{colour: number[] | null, at: number[]}} */
  lib.shadowParts = (shadow) => {
    const colour = COLOUR.exec(shadow)?.[0];
    const [dx = 0, dy = 0, blur = 0] = shadow.replace(COLOUR, "").trim().split(/\s+/).map(parseFloat);
    return { colour: colour ? lib.colourOf(colour) : null, at: [dx, dy, blur] };
  };
}
