import { test } from "node:test";
import assert from "node:assert/strict";

import { intersect, offsetQuads, pressPoint, quadBounds } from "../src/input/geometry.js";

const viewport = { x: 0, y: 0, width: 800, height: 600 };
const rect = (/** @type {number} */ x, /** @type {number} */ y, /** @type {number} */ w, /** @type {number} */ h) =>
  [x, y, x + w, y, x + w, y + h, x, y + h];

test("the press point is the centre of the visible part", () => {
  assert.deepEqual(pressPoint([rect(100, 100, 50, 20)], viewport), { point: { x: 125, y: 110 }, box: { x: 100, y: 100, width: 50, height: 20 } });
  const half = pressPoint([rect(700, 580, 200, 40)], viewport);
  assert.ok("point" in half);
  assert.deepEqual(half.point, { x: 750, y: 590 });
});

test("the largest visible fragment wins (a link wrapped over two lines)", () => {
  const pick = pressPoint([rect(780, 10, 10, 10), rect(0, 30, 100, 10)], viewport);
  assert.ok("point" in pick);
  assert.deepEqual(pick.point, { x: 50, y: 35 });
});

test("no box and off-screen are told apart", () => {
  assert.deepEqual(pressPoint([], viewport), { reason: "no_box" });
  assert.deepEqual(pressPoint([rect(10, 10, 0, 0)], viewport), { reason: "no_box" });
  assert.deepEqual(pressPoint([rect(10, 900, 50, 20)], viewport), { reason: "outside_viewport" });
});

test("helpers: bounds of a rotated quad, intersection, frame offset", () => {
  assert.deepEqual(quadBounds([10, 0, 20, 10, 10, 20, 0, 10]), { x: 0, y: 0, width: 20, height: 20 });
  assert.equal(intersect({ x: 0, y: 0, width: 10, height: 10 }, { x: 20, y: 20, width: 5, height: 5 }), null);
  assert.deepEqual(offsetQuads([rect(1, 2, 3, 4)], { x: 100, y: 200 }), [rect(101, 202, 3, 4)]);
});
