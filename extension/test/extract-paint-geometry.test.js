import { test } from "node:test";
import assert from "node:assert/strict";

import { pageBlend } from "../src/extract/page-blend.js";
import { pageClipShape } from "../src/extract/page-clip-shape.js";
import { pageColour } from "../src/extract/page-colour.js";

/** The blend formulas and the clip shapes' boxes are plain arithmetic, so they run under node. */
function library() {
  /** @type {any} */
  const lib = {};
  pageBlend(lib);
  pageColour(lib);
  pageClipShape(lib);
  return lib;
}

const WHITE = [255, 255, 255, 1];
/** @param {number[]} c a colour, its channels rounded */
const round = (c) => c.map((v) => Math.round(v * 100) / 100);
const BOX = /** @type {DOMRect} */ (/** @type {unknown} */ ({ left: 10, top: 20, width: 300, height: 40, right: 310, bottom: 60 }));

test("the non-separable blend modes take the backdrop's luminosity or saturation as the spec says", () => {
  const lib = library();
  // color and hue keep the backdrop's luminosity: any ink over white paints white.
  assert.deepEqual(round(lib.blended("color", WHITE, [0, 0, 0, 1])), WHITE);
  assert.deepEqual(round(lib.blended("hue", WHITE, [204, 0, 0, 1])), WHITE);
  assert.deepEqual(round(lib.blended("saturation", WHITE, [0, 0, 204, 1])), WHITE);
  // luminosity takes the ink's: black ink stays black over white, red ink turns the grey of its luminosity.
  assert.deepEqual(round(lib.blended("luminosity", WHITE, [0, 0, 0, 1])), [0, 0, 0, 1]);
  const grey = lib.blended("luminosity", [77, 77, 77, 1], [255, 0, 0, 1]);
  assert.ok(grey.slice(0, 3).every((/** @type {number} */ v) => Math.abs(v - 76.5) < 1), String(grey));
  const tinted = lib.blended("color", [77, 77, 77, 1], [255, 0, 0, 1]); // red's hue at the grey's luminosity
  assert.ok(Math.abs(0.3 * tinted[0] + 0.59 * tinted[1] + 0.11 * tinted[2] - 77) < 1 && tinted[0] > tinted[1], String(tinted));
  // The separable modes are as before; an unknown mode paints as normal.
  assert.deepEqual(lib.blended("multiply", WHITE, [10, 20, 30, 1]), [10, 20, 30, 1]);
  assert.deepEqual(lib.blended("plus-darker", WHITE, [10, 20, 30, 1]), [10, 20, 30, 1]);
  // plus-lighter adds: any ink over white paints white, dark ink over black keeps its own colour.
  assert.deepEqual(round(lib.blended("plus-lighter", WHITE, [68, 68, 68, 1])), WHITE);
  assert.deepEqual(round(lib.blended("plus-lighter", [0, 0, 0, 1], [68, 68, 68, 1])), [68, 68, 68, 1]);
});

test("a path's box holds its points, its curves' control points and its arcs' radii, from the border box", () => {
  const lib = library();
  assert.deepEqual(lib.clipShapeBox("path(\"M 0 0 H 2 V 2 H 0 Z\")", BOX, null), { l: 10, t: 20, r: 12, b: 22 });
  assert.deepEqual(lib.clipShapeBox("path(evenodd, \"M5 5 l10 0 l0 10 z\")", BOX, null), { l: 15, t: 25, r: 25, b: 35 });
  assert.deepEqual(lib.clipShapeBox("path(\"M0 0 C 0 50, 100 50, 100 0\")", BOX, null), { l: 10, t: 20, r: 110, b: 70 });
  assert.deepEqual(lib.clipShapeBox("path(\"M10 10 A 5 5 0 0 1 20 10\")", BOX, null), { l: 15, t: 25, r: 35, b: 35 });
  assert.equal(lib.clipShapeBox("path(\"M 0\")", BOX, null), null);
  // inset() too, with calc() offsets: xywh() and rect() compute to this form.
  assert.deepEqual(lib.clipShapeBox("inset(10%)", BOX, null), { l: 40, t: 24, r: 280, b: 56 });
  assert.deepEqual(lib.clipShapeBox("inset(0px calc(100% - 2px) calc(100% - 2px) 0px)", BOX, null), { l: 10, t: 20, r: 12, b: 22 });
  assert.equal(lib.clipShapeBox("inset(closest-side)", BOX, null), null);
});

test("a mask that does not repeat paints only in its tiles; a repeating one anywhere", () => {
  const lib = library();
  const el = { getBoundingClientRect: () => BOX };
  const mask = (/** @type {Record<string, string>} */ cs) => lib.maskBox(cs, el);
  const tile = { maskImage: "linear-gradient(rgb(0, 0, 0), rgb(0, 0, 0))", maskSize: "1px 1px", maskRepeat: "no-repeat", maskPosition: "0% 0%" };
  assert.deepEqual(mask(tile), { l: 10, t: 20, r: 11, b: 21 });
  assert.deepEqual(mask({ ...tile, maskPosition: "100% 100%" }), { l: 309, t: 59, r: 310, b: 60 });
  assert.equal(mask({ ...tile, maskRepeat: "repeat" }), null);
  assert.equal(mask({ ...tile, maskSize: "cover" }), null);
  assert.equal(mask({ ...tile, maskImage: "none" }), null);
});
