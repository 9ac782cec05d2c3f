import { test } from "node:test";
import assert from "node:assert/strict";

import { clearTab, dropUid, entryOf, formerUid, observeTopDocument, uidFor } from "../src/extract/uid-map.js";

let nextTab = 1000;
const el = (/** @type {number} */ id, doc = "d1", extra = {}) =>
  ({ sessionId: undefined, frameId: "F", doc, id, role: "button", name: "View", ...extra });

test("the same node keeps its uid; new nodes get new numbers", () => {
  const tab = nextTab++;
  assert.equal(uidFor(tab, el(1)), "e1");
  assert.equal(uidFor(tab, el(2)), "e2");
  assert.equal(uidFor(tab, el(1, "d1", { context: "row: Jane" })), "e1");
  assert.equal(entryOf(tab, "e1")?.context, "row: Jane", "the entry is refreshed");
  assert.equal(uidFor(tab, el(1, "d1", { sessionId: "S" })), "e3", "another frame session is another node");
});

test("after a navigation numbering goes on, and old uids are known as navigated", () => {
  const tab = nextTab++;
  uidFor(tab, el(1));
  uidFor(tab, el(2));
  clearTab(tab);
  assert.equal(entryOf(tab, "e1"), undefined);
  assert.deepEqual(formerUid(tab, "e2"), { role: "button", name: "View", why: "navigated", sessionId: undefined, frameId: "F" });
  assert.equal(uidFor(tab, el(1, "d2")), "e3", "never reused for a node of the new page");
  assert.equal(formerUid(tab, "e99"), null, "never issued");
});

test("a dropped uid stays known as removed", () => {
  const tab = nextTab++;
  uidFor(tab, el(7));
  dropUid(tab, "e1", "removed");
  assert.equal(entryOf(tab, "e1"), undefined);
  assert.equal(formerUid(tab, "e1")?.why, "removed");
  assert.equal(uidFor(tab, el(7)), "e2", "the (doc, id) key is released too");
});

test("a new top document clears the map even without a navigation event", () => {
  const tab = nextTab++;
  observeTopDocument(tab, "d1");
  uidFor(tab, el(1));
  observeTopDocument(tab, "d1");
  assert.ok(entryOf(tab, "e1"));
  observeTopDocument(tab, "d2");
  assert.equal(entryOf(tab, "e1"), undefined);
  assert.equal(formerUid(tab, "e1")?.why, "navigated");
});

test("tabs are independent", () => {
  const a = nextTab++;
  const b = nextTab++;
  uidFor(a, el(1));
  assert.equal(uidFor(b, el(1)), "e1");
  clearTab(a);
  assert.ok(entryOf(b, "e1"));
});
