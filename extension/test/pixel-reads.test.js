// A page function's read judged by the pixels (extract/pixel-reads.js): each page call carries the texts it left to
// the pixels back on its own answer (run-in-page.js withPixels), so a read that left none costs no more round trips
// than the read itself, and one that left some gets them, with its value unwrapped.
import { test } from "node:test";
import assert from "node:assert/strict";

import { readJudgedByPixels } from "../src/extract/pixel-reads.js";
import { unjudged } from "../src/extract/run-in-page.js";
import { inWorld, onElement } from "../src/tabs/isolated-world.js";
import { definePageFunction } from "../src/page/page-code.js";

const PIXELS = "bua-pixel-asks";
const reading = definePageFunction(function reading() { return "text"; });

/** A DebuggerController double answering every Runtime.callFunctionOn with `value`; records the methods sent. */
function debuggerDouble(/** @type {unknown} */ value) {
  /** @type {{method: string, params: any}[]} */
  const sent = [];
  return {
    sent,
    isAttached: () => true,
    onDetach: () => () => {},
    on: () => () => {},
    /** @param {number} _tabId @param {string} method @param {any} params */
    async send(_tabId, method, params) {
      sent.push({ method, params });
      if (method === "Page.getFrameTree") return { frameTree: { frame: { id: "TOP" } } };
      if (method === "Page.createIsolatedWorld") return { executionContextId: 4 };
      return { result: { value } };
    },
  };
}

let nextTab = 7000;

test("a read whose page call left nothing to the pixels makes that one call and no other", async () => {
  const dbg = debuggerDouble("text");
  const ctx = /** @type {any} */ ({ debugger: dbg });
  const element = { objectId: "obj-1" };
  const value = await readJudgedByPixels(dbg, nextTab++, undefined, (pixels) => onElement(ctx, 1, element, reading, [], pixels));
  assert.equal(value, "text");
  assert.deepEqual(dbg.sent.map((c) => c.method), ["Runtime.callFunctionOn"], "no frame tree, no separate ask for the questions");
  assert.equal(dbg.sent[0].params.arguments[0].value, null, "the call's verdicts go first: none");
  assert.match(dbg.sent[0].params.functionDeclaration, /lib\.pixelCall\(pixels\)/);
});

test("a page call's answer carries the texts it left to the pixels beside its value", async () => {
  const asked = [{ id: 3, rects: [[0, 0, 10, 10]], chars: 4 }];
  const dbg = debuggerDouble({ [PIXELS]: { asks: asked, left: 2 }, value: { seen: "text" } });
  const ctx = /** @type {any} */ ({ debugger: dbg });
  const pixels = unjudged();
  assert.deepEqual(await onElement(ctx, 1, { objectId: "obj-1" }, reading, [], pixels), { seen: "text" });
  assert.deepEqual(pixels.asked, asked);
  assert.equal(pixels.left, 2, "and how many more texts waited past them");
  const tabId = nextTab++;
  assert.deepEqual(await inWorld(ctx, tabId, reading, ["a"], { pixels }), { seen: "text" });
  assert.deepEqual(pixels.asked, [...asked, ...asked]);
  assert.deepEqual(await onElement(ctx, 1, { objectId: "obj-1" }, reading), { seen: "text" },
    "without a read to gather them, the questions are dropped and the value stays");
  assert.equal(pixels.asked.length, 2);
});

test("a pixel judgement that fails leaves its texts out unjudged, never kept as page code left them", async () => {
  const { pixelVerdicts } = await import("../src/extract/run-in-page.js");
  const failing = { isAttached: () => true, onDetach: () => () => {}, on: () => () => {},
    async send() { throw new Error("Unable to capture screenshot"); } };
  const asked = [{ id: 3, rects: [[0, 0, 40, 12]], chars: 9 }, { id: 5, rects: [[0, 20, 40, 12]], chars: 4, key: "k5" }];
  const verdicts = await pixelVerdicts(/** @type {any} */ (failing), /** @type {any} */ ({ tabId: 1, frameId: "TOP" }),
    asked, async () => {});
  assert.deepEqual(verdicts.map((v) => [v.id, v.hidden, v.far]), [[3, true, "uncaptured"], [5, true, "uncaptured"]]);
  assert.equal(verdicts[0].key, JSON.stringify([[0, 0, 40, 12]]));
  assert.equal(verdicts[1].key, "k5");
});
