import { test } from "node:test";
import assert from "node:assert/strict";

import { decodedBytes, imageSize } from "../src/actions/support/image-size.js";

const b64 = (/** @type {number[]} */ bytes) => Buffer.from(bytes).toString("base64");

test("PNG size comes from the IHDR chunk", () => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
    0, 0, 0x05, 0x00, 0, 0, 0x02, 0x99, 8, 2, 0, 0, 0];
  assert.deepEqual(imageSize(b64(png)), { width: 1280, height: 665 });
});

test("JPEG size comes from the first SOF segment after other segments", () => {
  const app0 = [0xff, 0xe0, 0, 6, 1, 2, 3, 4];
  const dht = [0xff, 0xc4, 0, 4, 9, 9];
  const sof0 = [0xff, 0xc0, 0, 11, 8, 0x03, 0x20, 0x04, 0xb0, 3, 1, 0x22, 0];
  assert.deepEqual(imageSize(b64([0xff, 0xd8, ...app0, ...dht, ...sof0, 0, 0, 0])), { width: 1200, height: 800 });
});

test("anything else has no size; decoded byte counts respect padding", () => {
  assert.equal(imageSize(b64([1, 2, 3, 4, 5, 6])), null);
  assert.equal(decodedBytes(b64([1, 2, 3, 4, 5])), 5);
  assert.equal(decodedBytes(b64([1, 2, 3, 4])), 4);
  assert.equal(decodedBytes(b64([1, 2, 3])), 3);
});
