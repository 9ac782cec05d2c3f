import { test } from "node:test";
import assert from "node:assert/strict";

import { pageBackdrop } from "../src/extract/page-backdrop.js";
import { pageColour } from "../src/extract/page-colour.js";
import { pageShear } from "../src/extract/page-shear.js";

/** The backdrop filters' flattening and the transforms' least stretch are plain arithmetic, so they run under node. */
function library() {
  /** @type {any} */
  const lib = {};
  pageColour(lib);
  pageBackdrop(lib);
  pageShear(lib);
  return lib;
}

test("a backdrop filter that makes black and white alike flattens what is behind it; one that keeps them apart does not", () => {
  const lib = library();
  for (const filter of ["brightness(0)", "contrast(0)", "brightness(0.02) saturate(2)", "contrast(0.05) invert(1)"]) {
    assert.equal(lib.flattensBehind(filter), true, filter);
  }
  for (const filter of ["none", "blur(2px)", "brightness(0.6)", "contrast(1.4)", "invert(1)", "grayscale(1)", "hue-rotate(90deg)"]) {
    assert.equal(lib.flattensBehind(filter), false, filter);
  }
});

test("the least stretch of a transform's linear part is the factor its thinnest glyph stroke is drawn at", () => {
  const lib = library();
  const near = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) < 1e-3;
  assert.ok(near(lib.leastStretch([1, 0, 0, 1]), 1));
  assert.ok(near(lib.leastStretch([0.5, 0, 0, 2]), 0.5)); // scale(0.5, 2)
  const turn = Math.PI / 5;
  assert.ok(near(lib.leastStretch([Math.cos(turn), Math.sin(turn), -Math.sin(turn), Math.cos(turn)]), 1)); // a rotation
  const shear = Math.tan((89.6 * Math.PI) / 180); // skewX(89.6deg): wide, tall boxes, hairline glyphs
  assert.ok(lib.leastStretch([1, 0, shear, 1]) < 0.01);
  assert.ok(lib.leastStretch([1, 0, Math.tan((20 * Math.PI) / 180), 1]) > 0.6); // an italic-like slant stays legible
  assert.ok(near(lib.leastStretch([0, 0, 0, 1]), 0)); // rotateY(90deg) seen edge on
});
