/**
 * In-page: colours as the browser paints them, for the visibility judgement (page-visibility.js, issue 18):
 *
 * - `colourOf(text)`: any computed CSS colour (`rgb()`, `color()`, `oklch()`, `lab()`, …) as sRGB [r, g, b, a], as
 *   the browser resolves it (a 1×1 canvas painted with it and read back), null when it is no colour;
 * - `composite(top, under, alpha)` and `contrast(a, b)` (WCAG);
 * - `tinted(colour, tint)`: a colour through CSS filter functions (brightness, contrast, invert, grayscale, sepia,
 *   saturate, hue-rotate: the Filter Effects formulas), as a filtered element paints its text and backgrounds;
 * - `gradientColours(image)`: the colours a gradient paints (its stops, resolved), null for a picture;
 * - `paintsOf(cs, under, alpha)`: the colours that may stand behind an element's text: its background colour,
 *   then its gradients, over what its parent shows; null for an image (unknown: a picture is no colour);
 * - `canvasOf(win)`: the document's canvas under everything (the used colour scheme's Canvas colour, then the
 *   root's and the body's backgrounds composited over it, translucent ones included).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pageColour, { uses: [pageRender] });

/**
 * Adds colourOf, composite, contrast, gradientColours, paintsOf and canvasOf to lib (needs pageRender's factsOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageColour(lib) {
  const COLOUR_FN = /(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color|color-mix)\((?:[^()]|\([^()]*\))*\)|#[0-9a-f]{3,8}\b|\btransparent\b/gi;

  /** @type {Map<string, number[] | null>} */
  const colours = new Map();
  /** @type {any} */
  let pen = null;
  /** @param {string} text */
  const canvasColour = (text) => {
    if (!pen) {
      pen = new OffscreenCanvas(1, 1).getContext("2d", { willReadFrequently: true });
      pen.globalCompositeOperation = "copy";
    }
    pen.fillStyle = "#010203";
    pen.fillStyle = text;
    if (pen.fillStyle === "#010203" && !/^#010203$/i.test(text.trim())) return null;
    pen.fillRect(0, 0, 1, 1);
    const d = pen.getImageData(0, 0, 1, 1).data;
    return [d[0], d[1], d[2], d[3] / 255];
  };
  const RGB = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%)?)?\s*\)$/;

  /** @param {string} text a computed colour @returns {number[] | null} */
  lib.colourOf = (text) => {
    let c = colours.get(text);
    if (c === undefined) {
      const m = RGB.exec(text);
      c = m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1)]
        : canvasColour(text);
      if (colours.size < 2000) colours.set(text, c);
    }
    return c;
  };

  /** Colour `top` (with its alpha times `alpha`) painted over the opaque `under`. @param {number[]} top @param {number[]} under */
  lib.composite = (top, under, alpha = 1) => {
    const a = Math.max(0, Math.min(1, top[3] * alpha));
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
  };

  /** @typedef {[string, number][]} Tint CSS filter functions, innermost first: [name, amount (hue-rotate: degrees)] */
  /** @param {number} s @returns {number[]} */
  const greyMatrix = (s) => [0.2126 + 0.7874 * s, 0.7152 - 0.7152 * s, 0.0722 - 0.0722 * s, 0.2126 - 0.2126 * s,
    0.7152 + 0.2848 * s, 0.0722 - 0.0722 * s, 0.2126 - 0.2126 * s, 0.7152 - 0.7152 * s, 0.0722 + 0.9278 * s];
  /** @param {number} s @returns {number[]} */
  const sepiaMatrix = (s) => [0.393 + 0.607 * s, 0.769 - 0.769 * s, 0.189 - 0.189 * s, 0.349 - 0.349 * s,
    0.686 + 0.314 * s, 0.168 - 0.168 * s, 0.272 - 0.272 * s, 0.534 - 0.534 * s, 0.131 + 0.869 * s];
  /** @param {number} s @returns {number[]} */
  const saturateMatrix = (s) => [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0.213 - 0.213 * s,
    0.715 + 0.285 * s, 0.072 - 0.072 * s, 0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s];
  /** @param {number} deg @returns {number[]} */
  const hueMatrix = (deg) => {
    const [c, n] = [Math.cos((deg * Math.PI) / 180), Math.sin((deg * Math.PI) / 180)];
    return [0.213 + c * 0.787 - n * 0.213, 0.715 - c * 0.715 - n * 0.715, 0.072 - c * 0.072 + n * 0.928,
      0.213 - c * 0.213 + n * 0.143, 0.715 + c * 0.285 + n * 0.14, 0.072 - c * 0.072 - n * 0.283,
      0.213 - c * 0.213 - n * 0.787, 0.715 - c * 0.715 + n * 0.715, 0.072 + c * 0.928 + n * 0.072];
  };
  /** @param {number} v */
  const byte = (v) => Math.max(0, Math.min(255, v));

  /** @param {number[]} colour [r, g, b, a] @param {Tint | undefined} tint @returns {number[]} */
  lib.tinted = (colour, tint) => {
    if (!tint?.length) return colour;
    let [r, g, b] = colour;
    for (const [fn, v] of tint) {
      if (fn === "brightness") [r, g, b] = [r * v, g * v, b * v].map(byte);
      else if (fn === "contrast") [r, g, b] = [r, g, b].map((c) => byte(((c / 255 - 0.5) * v + 0.5) * 255));
      else if (fn === "invert") [r, g, b] = [r, g, b].map((c) => byte(c * (1 - Math.min(v, 1)) + (255 - c) * Math.min(v, 1)));
      else {
        const m = fn === "grayscale" ? greyMatrix(1 - Math.min(v, 1)) : fn === "sepia" ? sepiaMatrix(1 - Math.min(v, 1))
          : fn === "saturate" ? saturateMatrix(v) : fn === "hue-rotate" ? hueMatrix(v) : null;
        if (m) [r, g, b] = [0, 3, 6].map((i) => byte(m[i] * r + m[i + 1] * g + m[i + 2] * b));
      }
    }
    return [r, g, b, colour[3]];
  };

  /** @param {number[]} c */
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  /** WCAG contrast ratio of two opaque colours. @param {number[]} a @param {number[]} b */
  lib.contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };

  /** The colours a computed image value (gradients) paints, null when it holds a picture. @param {string} image */
  const gradientColours = (image) => {
    if (/url\(|image-set\(|element\(|paint\(|cross-fade\(/.test(image)) return null;
    const found = (image.match(COLOUR_FN) ?? []).map((t) => lib.colourOf(t));
    return found.length && found.every(Boolean) ? /** @type {number[][]} */ (found) : null;
  };

  /**
   * The colours that stand behind an element's text: its background colour, then its gradients, over `under`.
   * @param {CSSStyleDeclaration} cs
   * @param {number[][] | null} under what the parent shows there (null: unknown)
   * @param {number} [alpha] the element's own opacity
   * @param {Tint} [tint] the filters its paint goes through (page-render.js renderContext)
   * @returns {number[][] | null}
   */
  lib.paintsOf = (cs, under, alpha = 1, tint = undefined) => {
    const raw = lib.colourOf(cs.backgroundColor);
    if (!raw) return null;
    const colour = lib.tinted(raw, tint);
    // An opaque colour hides whatever is under it (a picture's unknown colours too).
    if (!under && !(colour[3] * alpha >= 1 && cs.backgroundImage === "none")) return null;
    let out = under ?? [[0, 0, 0, 1]];
    if (colour[3] > 0) out = out.map((u) => lib.composite(colour, u, alpha));
    if (cs.backgroundImage !== "none") {
      const stops = gradientColours(cs.backgroundImage);
      if (!stops) return null;
      out = out.flatMap((u) => stops.map((s) => lib.composite(lib.tinted(s, tint), u, alpha))).slice(0, 16);
    }
    return out;
  };

  /** Whether the document's used colour scheme is dark (color-scheme on the root, else the meta tag). @param {Window} win */
  const darkScheme = (win) => {
    const doc = win.document;
    let scheme = win.getComputedStyle(doc.documentElement).colorScheme || "normal";
    if (scheme === "normal") scheme = doc.querySelector('meta[name="color-scheme"]')?.getAttribute("content") ?? "normal";
    if (!/\bdark\b/.test(scheme)) return false;
    return !/\blight\b/.test(scheme) || win.matchMedia("(prefers-color-scheme: dark)").matches;
  };

  /** @param {Window} win @returns {number[][] | null} */
  lib.canvasOf = (win) => {
    const facts = lib.factsOf(win);
    if (facts.canvas === undefined) {
      /** @type {number[][] | null} */
      let bg = [darkScheme(win) ? [18, 18, 18, 1] : [255, 255, 255, 1]];
      for (const el of [win.document.documentElement, win.document.body]) {
        if (el) bg = lib.paintsOf(win.getComputedStyle(el), bg);
      }
      facts.canvas = bg;
    }
    return facts.canvas;
  };
  lib.gradientColours = gradientColours;
}
