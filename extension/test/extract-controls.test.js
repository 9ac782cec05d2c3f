import { test } from "node:test";
import assert from "node:assert/strict";

import { FIRST_CHUNK, MAX_RESOLVE, syncAllListeners } from "../src/extract/listeners.js";
import { SCRIPT_ROLES, pageControls } from "../src/extract/page-controls.js";
import { pageControlsFind } from "../src/extract/page-controls-find.js";

test("the extension and the page agree on the labels of script controls", () => {
  /** @type {any} */
  const lib = {};
  pageControls(lib);
  assert.deepEqual([...lib.SCRIPT_ROLES].sort(), [...SCRIPT_ROLES].sort());
  assert.ok(!SCRIPT_ROLES.includes("button") && !SCRIPT_ROLES.includes("link"), "semantic roles need no listeners");
});

test("firstAfter finds the first element at or after the cut in document order", () => {
  /** @type {any} */
  const lib = {};
  pageControlsFind(lib);
  const FOLLOWING = 4;
  const saved = globalThis.Node;
  /** @type {any} */ (globalThis).Node = { DOCUMENT_POSITION_FOLLOWING: FOLLOWING };
  try {
    const at = (/** @type {number} */ pos) => ({ pos, compareDocumentPosition: (/** @type {any} */ o) => (o.pos > pos ? FOLLOWING : 2) });
    const list = [1, 3, 5, 7, 9].map(at);
    assert.equal(lib.firstAfter(list, at(0)), 0);
    assert.equal(lib.firstAfter(list, at(4)), 2);
    assert.equal(lib.firstAfter(list, list[3]), 3, "the cut itself counts as after");
    assert.equal(lib.firstAfter(list, at(10)), 5);
    assert.equal(lib.firstAfter([], at(1)), 0);
  } finally {
    /** @type {any} */ (globalThis).Node = saved;
  }
});

/**
 * A debugger whose page reports `count` listened nodes the library does not know; records what is handed over.
 * @param {number} count
 */
function fakePage(count) {
  /** @type {number[][]} */
  const added = [];
  const dbg = {
    /** @param {number} _tab @param {string} method @param {any} params */
    async send(_tab, method, params) {
      if (method === "Page.createIsolatedWorld") return { executionContextId: 1 };
      if (method === "DOM.describeNode") return { node: { backendNodeId: 1 } };
      if (method === "DOM.resolveNode") return { object: { objectId: `node-${params.backendNodeId}` } };
      if (method === "DOMDebugger.getEventListeners") {
        return { listeners: Array.from({ length: count }, (_, i) => ({ type: "click", backendNodeId: 100 + i })) };
      }
      if (method !== "Runtime.callFunctionOn") return {};
      const [call, , ...args] = params.arguments; // after the method, the pixel verdicts (run-in-page.js CALL_SOURCE)
      if (call.value === "documentNode") return { result: { objectId: "document" } };
      if (call.value === "listenSync") return { result: { value: { unknown: args[0].value, mapped: false } } };
      if (call.value === "listenAdd") {
        added.push(args[0].value);
        return { result: { value: true } };
      }
      throw new Error(`unexpected page call ${call.value}`);
    },
  };
  return { dbg: /** @type {any} */ (dbg), added };
}

test("a search over the whole document has every listened node mapped, a chunk at a time, up to MAX_RESOLVE", async () => {
  const { dbg, added } = fakePage(2000);
  await syncAllListeners(dbg, { tabId: 1, frameId: "main" });
  assert.deepEqual(added.map((ids) => ids.length), [FIRST_CHUNK, 2 * FIRST_CHUNK, 4 * FIRST_CHUNK, MAX_RESOLVE - 7 * FIRST_CHUNK]);
  assert.deepEqual(added.flat(), Array.from({ length: MAX_RESOLVE }, (_, i) => 100 + i), "in document order, once each");
  const few = fakePage(3);
  await syncAllListeners(few.dbg, { tabId: 2, frameId: "main" });
  assert.deepEqual(few.added, [[100, 101, 102]]);
});
