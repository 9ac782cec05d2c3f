import { test } from "node:test";
import assert from "node:assert/strict";

import { NODE_MISSING, callOnTarget } from "../src/targets/element-resolver.js";
import { uidFor } from "../src/extract/uid-map.js";
import { clickMouse } from "../src/input/mouse.js";
import { NOT_KEPT, keptFunction } from "../src/page/functions.js";
import { definePageFunction } from "../src/page/page-code.js";

const one = keptFunction(definePageFunction(function one() { return 1; }));
const none = keptFunction(definePageFunction(function none() {}));

/** A DebuggerController double: records commands, answers from `answer`, resolves each send when told to. */
function debuggerDouble(answer = (/** @type {string} */ _method, /** @type {any} */ _params) => ({})) {
  /** @type {{method: string, params: any, sessionId?: string, done: () => void}[]} */
  const sent = [];
  return {
    sent,
    isAttached: () => true,
    onDetach: () => () => {},
    on: () => () => {},
    /** @param {number} _tabId @param {string} method @param {any} params @param {string} [sessionId] */
    send(_tabId, method, params, sessionId) {
      return new Promise((resolve) => {
        sent.push({ method, params, sessionId, done: () => resolve(answer(method, params)) });
        if (method !== "Input.dispatchMouseEvent") sent[sent.length - 1].done();
      });
    },
  };
}

let nextTab = 5000;

test("a uid of the tab's own session is looked up and acted on in one page call", async () => {
  const tabId = nextTab++;
  const uid = uidFor(tabId, { sessionId: undefined, frameId: "TOP", doc: "d7", id: 42, role: "button", name: "Go" });
  const dbg = debuggerDouble((method) => (method === "Page.createIsolatedWorld" ? { executionContextId: 9 }
    : { result: { value: { status: "ok", seen: true } } }));
  const value = await callOnTarget(/** @type {any} */ ({ debugger: dbg }), tabId, { uid }, one, ["tok"]);
  assert.deepEqual(value, { status: "ok", seen: true });
  const calls = dbg.sent.filter((c) => c.method === "Runtime.callFunctionOn");
  assert.equal(calls.length, 1);
  assert.equal(calls[0].params.executionContextId, 9);
  // first the call's pixel verdicts (none: run-in-page.js onNode), then the node and the function's arguments
  assert.deepEqual(calls[0].params.arguments.map((/** @type {any} */ a) => a.value), [null, "d7", 42, "tok"]);
  assert.match(calls[0].params.functionDeclaration, /lib\.lookup\(doc, id\)/);
  assert.doesNotMatch(calls[0].params.functionDeclaration, /function one/, "the world's kept copy, not the source");
});

test("a world without a copy of the function gets the source once, kept for the next calls", async () => {
  const tabId = nextTab++;
  const uid = uidFor(tabId, { sessionId: undefined, frameId: "TOP", doc: "d7", id: 42, role: "button", name: "Go" });
  let kept = false;
  const dbg = debuggerDouble((method, params) => {
    if (method === "Page.createIsolatedWorld") return { executionContextId: 9 };
    if (/function one/.test(params.functionDeclaration)) kept = true;
    return { result: { value: kept ? 1 : { [NOT_KEPT]: true } } };
  });
  const ctx = /** @type {any} */ ({ debugger: dbg });
  assert.equal(await callOnTarget(ctx, tabId, { uid }, one, []), 1);
  assert.equal(await callOnTarget(ctx, tabId, { uid }, one, []), 1);
  const sources = dbg.sent.filter((c) => c.method === "Runtime.callFunctionOn").map((c) => /function one/.test(c.params.functionDeclaration));
  assert.deepEqual(sources, [false, true, false], "reference, then the source, then the reference again");
});

test("a missing node or library in the page means: resolve the slow way", async () => {
  const tabId = nextTab++;
  const uid = uidFor(tabId, { sessionId: undefined, frameId: "TOP", doc: "d1", id: 1, role: "button", name: "Go" });
  const dbg = debuggerDouble((method, params) => {
    if (method === "Page.createIsolatedWorld") return { executionContextId: 3 };
    const marker = /return \{ \["([^"]+)"\]: true \}/.exec(params.functionDeclaration)?.[1];
    return { result: { value: { [String(marker)]: true } } };
  });
  assert.equal(await callOnTarget(/** @type {any} */ ({ debugger: dbg }), tabId, { uid }, none, []), NODE_MISSING);
});

test("selectors, unknown uids and elements in cross-site frames never take the one-call path", async () => {
  const tabId = nextTab++;
  const child = uidFor(tabId, { sessionId: "OOPIF", frameId: "F2", doc: "d1", id: 1, role: "button", name: "Go" });
  const dbg = debuggerDouble();
  const ctx = /** @type {any} */ ({ debugger: dbg });
  assert.equal(await callOnTarget(ctx, tabId, { selector: "#go" }, none, []), NODE_MISSING);
  assert.equal(await callOnTarget(ctx, tabId, { uid: "e999" }, none, []), NODE_MISSING);
  assert.equal(await callOnTarget(ctx, tabId, { uid: child }, none, []), NODE_MISSING);
  assert.deepEqual(dbg.sent, [], "no page call for them");
});

test("a click sends move, press and release in order without waiting for each acknowledgement", async () => {
  const dbg = debuggerDouble();
  const clicking = clickMouse(/** @type {any} */ ({ debugger: dbg }), 1, { x: 10, y: 20 }, { clickCount: 2 });
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(dbg.sent.map((c) => [c.params.type, c.params.clickCount]),
    [["mouseMoved", undefined], ["mousePressed", 1], ["mouseReleased", 1], ["mousePressed", 2], ["mouseReleased", 2]],
    "all sent before any answer");
  let finished = false;
  clicking.then(() => { finished = true; });
  for (const c of dbg.sent.slice(0, 4)) c.done();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(finished, false, "the click ends only when the last event is acknowledged");
  dbg.sent[4].done();
  await clicking;
});
