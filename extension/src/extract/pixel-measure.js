/**
 * What two captures of a text's boxes tell (extract/pixel-judge.js, issue 18): how many of its pixels stand out by
 * a contrast a person tells apart (the contrast the in-page judgement asks of colours, page-visibility.js), from
 * the glyphs' difference (captured as painted and with the glyphs transparent), or, when the picture moved between
 * the captures (a playing video), from the text's inks over the bare capture. Pure: images in, counts out.
 */

import { pageBlend } from "./page-blend.js";

/** Glyph pixels at or under this contrast against what is painted without them tell nothing apart. */
export const MIN_PIXEL_CONTRAST = 1.2;

/** @param {number} c an sRGB channel 0..255 */
const linear = (c) => {
  const s = c / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
};
/** @param {Uint8ClampedArray} d @param {number} i */
const luminance = (d, i) => 0.2126 * linear(d[i]) + 0.7152 * linear(d[i + 1]) + 0.0722 * linear(d[i + 2]);

/** @typedef {{data: Uint8ClampedArray, width: number, height: number}} Image */

/**
 * How many pixels of a box in both images `counts` (given their offsets in painted's and bare's data).
 * @param {Image} painted @param {Image} bare @param {number[]} box [x, y, w, h] in the images' pixels
 * @param {(i: number, j: number) => boolean} counts
 */
function counted(painted, bare, box, counts) {
  const [x0, y0] = [Math.max(0, Math.floor(box[0])), Math.max(0, Math.floor(box[1]))];
  const x1 = Math.min(painted.width, bare.width, Math.ceil(box[0] + box[2]));
  const y1 = Math.min(painted.height, bare.height, Math.ceil(box[1] + box[3]));
  let count = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) if (counts((y * painted.width + x) * 4, (y * bare.width + x) * 4)) count++;
  }
  return count;
}

/** @param {number} a @param {number} b luminances @returns {number} their WCAG contrast */
const ratio = (a, b) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/**
 * How many pixels of a box differ between the two captures by at least MIN_PIXEL_CONTRAST (WCAG contrast of
 * their colours).
 * @param {Image} painted @param {Image} bare the same clip without the text @param {number[]} box [x, y, w, h] in
 *   the images' pixels
 */
export function standingOut(painted, bare, box) {
  const [p, q] = [painted.data, bare.data];
  return counted(painted, bare, box, (i, j) => (p[i] !== q[j] || p[i + 1] !== q[j + 1] || p[i + 2] !== q[j + 2])
    && ratio(luminance(p, i), luminance(q, j)) >= MIN_PIXEL_CONTRAST);
}

/** The blend modes of Compositing and Blending (page-blend.js, a pure library part), on a plain object. */
const blends = /** @type {{blended: (mode: string, under: number[], top: number[]) => number[]}} */ ({});
pageBlend(blends);

/**
 * @param {number[]} ink [r, g, b, alpha] @param {string | undefined} blend its mix-blend-mode
 * @param {Uint8ClampedArray} d @param {number} j @returns {number} the luminance of ink painted over that pixel
 */
const inkOver = (ink, blend, d, j) => {
  const a = Math.max(0, Math.min(1, ink[3]));
  const under = [d[j], d[j + 1], d[j + 2], 255];
  const top = blend ? blends.blended(blend, under, ink) : ink;
  return 0.2126 * linear(top[0] * a + under[0] * (1 - a)) + 0.7152 * linear(top[1] * a + under[1] * (1 - a))
    + 0.0722 * linear(top[2] * a + under[2] * (1 - a));
};

/**
 * How many pixels of a box show one of the text's inks standing out from the bare capture, for captures taken
 * while the picture moved (their difference tells nothing): a pixel counts when the painted capture has an ink
 * there (within MIN_PIXEL_CONTRAST of that ink painted over the bare pixel, with the text's blend mode: a glyph,
 * its outline or its shadow is painted there, not something over it) and that ink over the bare pixel stands out
 * from it by MIN_PIXEL_CONTRAST. The bare capture is one real frame of what is behind the text; a shadow blurred
 * counts where it paints its full colour; without an ink nothing counts.
 * @param {Image} painted @param {Image} bare the same clip without the text
 * @param {number[]} box [x, y, w, h] in the images' pixels
 * @param {{inks?: number[][], blend?: string}} text its inks ([r, g, b, alpha] each: fill, stroke, shadows) and blend mode
 */
export function inkStandingOut(painted, bare, box, text) {
  const inks = text.inks ?? [];
  if (!inks.length) return 0;
  return counted(painted, bare, box, (i, j) => {
    const behind = luminance(bare.data, j);
    const shown = luminance(painted.data, i);
    return inks.some((ink) => {
      const over = inkOver(ink, text.blend, bare.data, j);
      return ratio(over, behind) >= MIN_PIXEL_CONTRAST && ratio(over, shown) < MIN_PIXEL_CONTRAST;
    });
  });
}

/**
 * Whether the two captures differ beyond the asked texts' boxes (grown by `pad`): the picture moved between
 * them (a playing video), and their difference inside the boxes is not the glyphs alone.
 * @param {Image} painted @param {Image} bare @param {number[][]} boxes [x, y, w, h] in the images' pixels
 * @param {number} pad how far past its box a text's glyphs may paint (italics), in the images' pixels
 */
export function pictureMoved(painted, bare, boxes, pad) {
  if (painted.width !== bare.width || painted.height !== bare.height) return true;
  const { width: w, height: h } = painted;
  const glyphs = new Uint8Array(w * h);
  for (const [x, y, bw, bh] of boxes) {
    const [l, t] = [Math.max(0, Math.floor(x - pad)), Math.max(0, Math.floor(y - pad))];
    const [r, b] = [Math.min(w, Math.ceil(x + bw + pad)), Math.min(h, Math.ceil(y + bh + pad))];
    for (let yy = t; yy < b; yy++) glyphs.fill(1, yy * w + l, Math.max(yy * w + l, yy * w + r));
  }
  const [p, q] = [painted.data, bare.data];
  for (let k = 0; k < w * h; k++) {
    const i = k * 4;
    if (!glyphs[k] && (p[i] !== q[i] || p[i + 1] !== q[i + 1] || p[i + 2] !== q[i + 2])) return true;
  }
  return false;
}
