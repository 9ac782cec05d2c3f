/**
 * The colour a blend mode paints (Compositing and Blending Level 1): `blended(mode, under, top)`, the separable
 * modes channel by channel, hue, saturation, color and luminosity by the spec's SetLum and SetSat; any other mode
 * (normal) paints `top`. Colours are [r, g, b, alpha] in 0..255, `under` opaque.
 *
 * A library part (page-colour.js judges a text's blend mode with what is under it) that is pure: the service
 * worker also calls it on a plain object (pixel-measure.js, a text with a blend mode over a moving picture).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageBlend, { uses: [] });

/**
 * Adds blended to lib.
 * @param {any} lib the in-page library object (globalThis.__bua), or any object
 */
export function pageBlend(lib) {
  /** @param {number} v */
  const byte = (v) => Math.max(0, Math.min(255, v));
  /** @type {Record<string, (b: number, s: number) => number>} separable blend functions on 0..1 channels */
  const BLENDS = {
    multiply: (b, s) => b * s,
    screen: (b, s) => b + s - b * s,
    overlay: (b, s) => (b <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)),
    darken: Math.min,
    lighten: Math.max,
    "color-dodge": (b, s) => (b === 0 ? 0 : s >= 1 ? 1 : Math.min(1, b / (1 - s))),
    "color-burn": (b, s) => (b >= 1 ? 1 : s <= 0 ? 0 : 1 - Math.min(1, (1 - b) / s)),
    "hard-light": (b, s) => (s <= 0.5 ? 2 * b * s : 1 - 2 * (1 - b) * (1 - s)),
    "soft-light": (b, s) => (s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b)
      : b + (2 * s - 1) * ((b <= 0.25 ? ((16 * b - 12) * b + 4) * b : Math.sqrt(b)) - b)),
    difference: (b, s) => Math.abs(b - s),
    exclusion: (b, s) => b + s - 2 * b * s,
    "plus-lighter": (b, s) => Math.min(1, b + s), // Compositing Level 2: the sum, clipped (Chromium has no plus-darker)
  };

  /** @param {string} mode a mix-blend-mode @param {number[]} under opaque @param {number[]} top @returns {number[]} */
  lib.blended = (mode, under, top) => {
    const f = BLENDS[mode];
    if (!f) return NON_SEPARABLE[mode] ? nonSeparable(mode, under, top) : top;
    return [0, 1, 2].map((i) => f(under[i] / 255, top[i] / 255) * 255).concat(top[3]);
  };

  /** @param {number[]} c 0..1 channels */
  const lum = (c) => 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2];
  /** @param {number[]} c @param {number} l @returns {number[]} c moved to luminosity l, clipped into gamut */
  const setLum = (c, l) => {
    const d = l - lum(c);
    const m = c.map((v) => v + d);
    const ml = lum(m);
    const [n, x] = [Math.min(...m), Math.max(...m)];
    if (n < 0) return m.map((v) => ml + ((v - ml) * ml) / (ml - n));
    if (x > 1) return m.map((v) => ml + ((v - ml) * (1 - ml)) / (x - ml));
    return m;
  };
  /** @param {number[]} c */
  const sat = (c) => Math.max(...c) - Math.min(...c);
  /** @param {number[]} c @param {number} s @returns {number[]} c with saturation s (its hue kept) */
  const setSat = (c, s) => {
    const [lo, hi] = [Math.min(...c), Math.max(...c)];
    return c.map((v) => (hi > lo ? ((v - lo) * s) / (hi - lo) : 0));
  };
  /** @type {Record<string, (b: number[], s: number[]) => number[]>} the non-separable blend modes (Compositing and Blending Level 1) */
  const NON_SEPARABLE = {
    hue: (b, s) => setLum(setSat(s, sat(b)), lum(b)),
    saturation: (b, s) => setLum(setSat(b, sat(s)), lum(b)),
    color: (b, s) => setLum(s, lum(b)),
    luminosity: (b, s) => setLum(b, lum(s)),
  };
  /** @param {string} mode @param {number[]} under @param {number[]} top @returns {number[]} */
  const nonSeparable = (mode, under, top) => NON_SEPARABLE[mode](under.slice(0, 3).map((v) => v / 255), top.slice(0, 3).map((v) => v / 255))
    .map((v) => byte(v * 255)).concat(top[3]);
}
