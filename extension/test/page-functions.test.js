import { test } from "node:test";
import assert from "node:assert/strict";

import { NOT_KEPT, callKept, describeElement, keptDeclaration, keptFunction, notKept, pageFunction } from "../src/page/functions.js";
import { definePageFunction } from "../src/page/page-code.js";

/** @this {any} @param {number} by */
function addTo(by) {
  return this.base + by + describeElement(null).length;
}
definePageFunction(addTo, { uses: [describeElement] });

/** Run a declaration as Runtime.callFunctionOn would: `(declaration).apply(thisArg, args)`, returned by value. */
function callFunctionOn(/** @type {string} */ declaration, /** @type {unknown} */ thisArg, /** @type {unknown[]} */ args) {
  // eslint-disable-next-line no-new-func
  const fn = new Function(`return (${declaration});`)();
  return { result: { value: fn.apply(thisArg, args) } };
}

test("a kept function runs from the world's copy once the source was sent, and not before", async () => {
  const ref = keptFunction(addTo);
  assert.equal(keptFunction(addTo), ref, "one reference per function and helpers");
  const before = /** @type {any} */ (globalThis).__buaKept;
  try {
    delete (/** @type {any} */ (globalThis).__buaKept);
    assert.equal(notKept(callFunctionOn(keptDeclaration(ref, false), { base: 1 }, [2])), true, "no copy yet: nothing runs");
    /** @type {string[]} */
    const sent = [];
    const call = async (/** @type {string} */ declaration) => {
      sent.push(declaration);
      return callFunctionOn(declaration, { base: 1 }, [2]);
    };
    assert.equal((await callKept(call, ref)).result.value, 3);
    assert.equal((await callKept(call, ref)).result.value, 3);
    assert.deepEqual(sent.map((d) => d.includes("function addTo")), [false, true, false]);
    assert.ok(sent[0].length < 200, `the reference is short (${sent[0].length} chars)`);
  } finally {
    /** @type {any} */ (globalThis).__buaKept = before;
  }
});

test("another source (an updated extension) is never served by an older copy", () => {
  /** @this {any} @param {number} by */
  function addToUpdated(by) {
    return this.base + by + 1;
  }
  definePageFunction(addToUpdated, { name: "addTo" });
  assert.notEqual(keptFunction(addTo).kept, keptFunction(addToUpdated).kept, "the key is the source's, not the name's");
  assert.throws(() => pageFunction(function undeclared() {}), /undeclared has no declaration: definePageFunction it/);
});

test("only the marker means no copy", () => {
  assert.equal(notKept({ result: { value: { [NOT_KEPT]: true } } }), true);
  for (const value of [null, 0, "x", { other: true }, { [NOT_KEPT]: false }]) {
    assert.equal(notKept({ result: { value } }), false);
  }
});
