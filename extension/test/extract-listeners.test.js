import { test } from "node:test";
import assert from "node:assert/strict";

import { listenedNodes } from "../src/extract/listeners.js";

test("input listeners only, each node once, in the order reported", () => {
  const ids = listenedNodes([
    { type: "click", backendNodeId: 7 }, { type: "mouseover", backendNodeId: 3 }, { type: "keydown", backendNodeId: 5 },
    { type: "pointerdown", backendNodeId: 7 }, { type: "scroll", backendNodeId: 9 }, { type: "click" },
  ]);
  assert.deepEqual(ids, [7, 5]);
});
