import { test } from "node:test";
import assert from "node:assert/strict";

import { DEFAULT_SETTLE_MS, settleMsOf, summarizeEffects } from "../src/input/effects.js";
import { watchNavigation } from "../src/tabs/navigation-watch.js";
import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { createChrome, realTimers } from "./chrome-stub.js";

const quiet = { navigation: { navigated: false, sameDocument: false, loaded: false }, newTabs: [], dialogs: [], mutations: 0, settleMs: 300 };

test("an action that changed nothing says so, with a next step", () => {
  const effects = summarizeEffects(quiet);
  assert.equal(effects.nothing_changed, true);
  assert.match(/** @type {string} */ (effects.note), /within 300 ms.*extract/);
  assert.deepEqual(Object.keys(effects), ["navigated", "new_tabs", "dom_mutations", "nothing_changed", "note"]);
});

test("each kind of change counts as a change", () => {
  const changes = [
    { navigation: { navigated: true, sameDocument: false, loaded: true, url: "http://a/" } },
    { newTabs: [{ tab_id: 5, url: "http://b/" }] },
    { dialogs: [{ type: "alert", message: "x", handled: "accepted" }] },
    { mutations: 3 },
    { focusMovedTo: "input#email" },
    { scrolled: { what: "page", x: 0, y: 600 } },
    { download: { url: "http://a/f.pdf", filename: "f.pdf" } },
    { valueChanged: true },
  ];
  for (const change of changes) {
    const effects = summarizeEffects({ ...quiet, ...change });
    assert.equal(effects.nothing_changed, false, JSON.stringify(change));
    assert.equal(effects.note, undefined);
  }
});

test("navigation details: url, same_document, still_loading; several dialogs are all listed", () => {
  const nav = summarizeEffects({ ...quiet, navigation: { navigated: true, sameDocument: false, loaded: false, url: "http://a/next" } });
  assert.deepEqual([nav.navigated, nav.url, nav.still_loading, nav.same_document], [true, "http://a/next", true, undefined]);
  const hash = summarizeEffects({ ...quiet, navigation: { navigated: true, sameDocument: true, loaded: false, url: "http://a/#x" } });
  assert.deepEqual([hash.same_document, hash.still_loading], [true, undefined]);
  const two = [{ type: "alert", message: "1", handled: "accepted" }, { type: "confirm", message: "2", handled: "dismissed" }];
  const many = summarizeEffects({ ...quiet, dialogs: /** @type {any} */ (two) });
  assert.deepEqual([many.dialog, many.dialogs], [two[0], two]);
});

test("settle_ms is an extension-side knob, bounded", () => {
  assert.equal(settleMsOf({}), DEFAULT_SETTLE_MS);
  assert.equal(settleMsOf({ settle_ms: 0 }), 0);
  assert.equal(settleMsOf({ settle_ms: 99999 }), 5000);
  assert.equal(settleMsOf({ settle_ms: -1 }), DEFAULT_SETTLE_MS);
});

function navSetup() {
  const chrome = createChrome();
  const tab = chrome.tabs.add({});
  const ctx = /** @type {any} */ ({ debugger: new DebuggerController(chrome.debugger), timers: realTimers });
  const nav = watchNavigation(ctx, tab.id, "MAIN");
  const emit = (/** @type {string} */ method, /** @type {any} */ params, sessionId = undefined) =>
    chrome.debugger.onEvent.emit(sessionId ? { tabId: tab.id, sessionId } : { tabId: tab.id }, method, params);
  return { nav, emit };
}

test("a cross-document navigation is waited for until its load", () => {
  const { nav, emit } = navSetup();
  assert.equal(nav.waiting(0, 1000), false);
  emit("Page.frameRequestedNavigation", { frameId: "MAIN" });
  assert.equal(nav.waiting(0, 1000), true);
  emit("Page.frameStartedLoading", { frameId: "MAIN" });
  emit("Page.frameNavigated", { frame: { id: "MAIN", url: "http://a/next" } });
  assert.equal(nav.waiting(0, 1000), true);
  assert.equal(nav.waiting(1000, 1000), false, "capped");
  emit("Page.loadEventFired", {});
  assert.equal(nav.waiting(0, 1000), false);
  assert.deepEqual(nav.state(), { navigated: true, sameDocument: false, url: "http://a/next", loaded: true });
  nav.stop();
});

test("child frames, child sessions and cancelled requests do not count as navigation", () => {
  const { nav, emit } = navSetup();
  emit("Page.frameNavigated", { frame: { id: "CHILD", parentId: "MAIN", url: "http://ad/" } });
  emit("Page.frameNavigated", { frame: { id: "OOPIF", url: "http://x/" } }, "S1");
  emit("Page.frameStartedLoading", { frameId: "MAIN" });
  assert.equal(nav.waiting(0, 1000), true);
  emit("Page.frameStoppedLoading", { frameId: "MAIN" });
  assert.equal(nav.waiting(0, 1000), false, "a download or a 204 stops loading without a new document");
  assert.equal(nav.state().navigated, false);
  emit("Page.downloadWillBegin", { url: "http://a/f.pdf", suggestedFilename: "f.pdf" });
  assert.deepEqual(nav.download(), { url: "http://a/f.pdf", filename: "f.pdf" });
  emit("Page.navigatedWithinDocument", { frameId: "MAIN", url: "http://a/#top" });
  assert.deepEqual(nav.state(), { navigated: true, sameDocument: true, url: "http://a/#top", loaded: false });
  nav.stop();
});
