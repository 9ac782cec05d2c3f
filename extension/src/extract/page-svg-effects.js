/**
 * In-page: what an SVG filter or mask referenced from CSS (`filter: url(#id)`, `mask-image: url(#id)`) does to
 * opacity (issue 18). A filter is asked of the
 * browser rather than worked out from the filter's primitives: an opaque white square is drawn through the same
 * filter on a canvas of the element's document (a 2D context's `filter` resolves url() against its document, as
 * the element's paint does), and the alpha read back is the most the filter lets through. A filter that erases
 * alpha (an feColorMatrix with a zero alpha row, an feComponentTransfer to 0, a flood of nothing) hides the
 * element's text as opacity: 0 would; a missing reference draws as no filter, as it does on the page.
 *
 * - `maskUrlAlpha(image, el)`: the most a luminance <mask> referenced by `mask-image: url(#id)` lets through,
 *   from its shapes' fills, a gradient fill by its brightest stop (1 when it holds anything else: an image, a
 *   pattern, text); for a picture (`mask-image: url(picture)`), the most opaque of its pixels (page-picture.js).
 * - `maskBoxAlpha(cs, el)`: the most a `-webkit-mask-box-image` lets through (a gradient's or a picture's).
 * - `filterUrlAlpha(filter, el)`: the factor (0..1) a computed `filter` holding url() references multiplies
 *   opacity by (1 when it holds none). Measured once per filter and document in a call.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pagePicture } from "./page-picture.js";
import { pageRender } from "./page-render.js";

definePagePart(pageSvgEffects, { uses: [pageColour, pagePicture, pageRender] });

/**
 * Adds filterUrlAlpha, maskBoxAlpha and maskUrlAlpha to lib (needs pageRender's factsOf, pageColour's colourOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageSvgEffects(lib) {
  const SIZE = 16;

  const SHAPES = new Set(["rect", "circle", "ellipse", "path", "polygon", "polyline"]);

  /**
   * @param {string} image a computed mask-image naming one <mask> of the element's document (url(#id))
   * @param {Element} el @returns {number} the most its content lets through: a shape's fill luminance times its
   *   opacities, the largest over its shapes (0 for an empty mask); 1 when any of it is not a plain filled shape
   */
  lib.maskUrlAlpha = (image, el) => {
    const u = /^url\(\s*["']?([^"'#)]*)#([^"')]+)["']?\s*\)$/.exec(image);
    const doc = el.ownerDocument;
    const picture = u ? null : /^url\(\s*"?([^")]*)"?\s*\)$/.exec(image);
    if (picture) return lib.imageMostAlpha(picture[1], doc); // page-picture.js: a picture masks by its alpha
    if (!u || (u[1] && u[1] !== doc.URL.split("#")[0])) return 1;
    const mask = /** @type {any} */ (el.getRootNode()).getElementById?.(u[2]) ?? doc.getElementById(u[2]);
    if (!mask || mask.localName !== "mask" || mask.getAttribute("mask-type") === "alpha") return 1;
    const win = /** @type {Window} */ (doc.defaultView);
    let most = 0;
    for (const shape of mask.children) {
      const cs = win.getComputedStyle(shape);
      const fill = cs.fill === "none" ? [0, 0, 0, 0] : /^url\(/.test(cs.fill) ? gradientFill(cs.fill, mask, win) : lib.colourOf(cs.fill);
      if (!SHAPES.has(shape.localName) || !fill || (cs.stroke !== "none" && parseFloat(cs.strokeWidth) > 0)) return 1;
      const lin = fill.slice(0, 3).map((/** @type {number} */ v) => ((v / 255) <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      const luminance = 0.2125 * lin[0] + 0.7154 * lin[1] + 0.0721 * lin[2];
      most = Math.max(most, luminance * fill[3] * (parseFloat(cs.fillOpacity) || 0) * (parseFloat(cs.opacity) || 0));
    }
    return most;
  };

  /**
   * A gradient paint server's brightest stop as one colour (its luminance times its opacity is the most a mask
   * filled with it lets through), or null for any other paint (a pattern, a gradient whose stops it inherits).
   * @param {string} fill a computed fill, url(#id) @param {Element} mask @param {Window} win @returns {number[] | null}
   */
  const gradientFill = (fill, mask, win) => {
    const id = /#([^"')]+)/.exec(fill)?.[1];
    const root = /** @type {any} */ (mask.getRootNode());
    const paint = id ? root.getElementById?.(id) ?? mask.ownerDocument.getElementById(id) : null;
    if (!paint || !/^(linear|radial)Gradient$/.test(paint.localName)) return null;
    const stops = [...paint.children].filter((s) => s.localName === "stop");
    if (!stops.length) return null;
    /** @type {number[] | null} */
    let best = null;
    let bestLight = -1;
    for (const stop of stops) {
      const cs = win.getComputedStyle(stop);
      const c = lib.colourOf(cs.stopColor);
      if (!c) return null;
      const colour = [c[0], c[1], c[2], c[3] * (parseFloat(cs.stopOpacity) || 0)];
      const light = (colour[0] + colour[1] + colour[2]) * colour[3];
      if (light > bestLight) [best, bestLight] = [colour, light];
    }
    return best;
  };

  /**
   * The most a `-webkit-mask-box-image` lets through (its image drawn as a border image over the box, centre
   * filled): a gradient's most opaque stop, a picture's most opaque pixel; 1 without one, or when unknown.
   * @param {CSSStyleDeclaration} cs @param {Element} el @returns {number}
   */
  lib.maskBoxAlpha = (cs, el) => {
    const source = /** @type {any} */ (cs).webkitMaskBoxImageSource;
    if (!source || source === "none") return 1;
    const stops = lib.gradientColours(source);
    if (stops) return Math.max(...stops.map((/** @type {number[]} */ s) => s[3]));
    const picture = /^url\(\s*"?([^")]*)"?\s*\)$/.exec(source);
    return picture ? lib.imageMostAlpha(picture[1], el.ownerDocument) : 1;
  };

  /** @param {string} filter @param {Element} el @returns {number} */
  lib.filterUrlAlpha = (filter, el) => {
    if (!filter.includes("url(")) return 1;
    const doc = el.ownerDocument;
    const win = /** @type {Window} */ (doc.defaultView);
    const known = (lib.factsOf(win).filterAlphas ??= new Map());
    let alpha = known.get(filter);
    if (alpha === undefined) {
      alpha = 1;
      const canvas = doc.createElement("canvas");
      canvas.width = canvas.height = SIZE;
      const pen = /** @type {CanvasRenderingContext2D | null} */ (canvas.getContext("2d", { willReadFrequently: true }));
      if (pen) {
        pen.filter = filter;
        pen.fillStyle = "#fff";
        pen.fillRect(0, 0, SIZE, SIZE);
        alpha = pen.getImageData(SIZE / 2, SIZE / 2, 1, 1).data[3] / 255;
      }
      known.set(filter, alpha);
    }
    return alpha;
  };
}
