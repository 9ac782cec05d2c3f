import { test } from "node:test";
import assert from "node:assert/strict";

import { perAttachment } from "../src/tabs/attachment-cache.js";

function debuggerDouble() {
  /** @type {Map<number, Set<() => void>>} */
  const detach = new Map();
  const attached = new Set([1]);
  return {
    attached,
    isAttached: (/** @type {number} */ tabId) => attached.has(tabId),
    onDetach(/** @type {number} */ tabId, /** @type {() => void} */ fn) {
      if (!detach.has(tabId)) detach.set(tabId, new Set());
      detach.get(tabId)?.add(fn);
      return () => detach.get(tabId)?.delete(fn);
    },
    detach(/** @type {number} */ tabId) {
      attached.delete(tabId);
      for (const fn of [...(detach.get(tabId) ?? [])]) fn();
    },
  };
}

test("computed once while the tab stays attached, again after a detach", async () => {
  const cache = perAttachment();
  const dbg = debuggerDouble();
  let made = 0;
  const make = async () => ++made;
  assert.equal(await cache(dbg, 1, make), 1);
  assert.equal(await cache(dbg, 1, make), 1);
  dbg.detach(1);
  dbg.attached.add(1);
  assert.equal(await cache(dbg, 1, make), 2);
});

test("a failure is not kept: the next caller tries again", async () => {
  const cache = perAttachment();
  const dbg = debuggerDouble();
  await assert.rejects(cache(dbg, 1, async () => { throw new Error("busy"); }), /busy/);
  assert.equal(await cache(dbg, 1, async () => "ok"), "ok");
});
