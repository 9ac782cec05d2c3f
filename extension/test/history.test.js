import { test } from "node:test";
import assert from "node:assert/strict";

import { history } from "../src/actions/history.js";
import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { TaskTabs } from "../src/tabs/task-tabs.js";
import { createChrome, realTimers } from "./chrome-stub.js";

/** A task tab with two history entries, at the second; `step` says what the page reports after a back step. */
async function setup(step) {
  const chrome = createChrome();
  const tab = await chrome.tabs.create({ url: "http://b.test/" });
  const taskTabs = new TaskTabs(chrome.storage.session);
  await taskTabs.set("t1", tab.id);
  const api = chrome.debugger;
  api.handlers["Page.getNavigationHistory"] = () => ({ currentIndex: 1, entries: [
    { id: 1, url: "http://a.test/", title: "A" }, { id: 2, url: "http://b.test/", title: "B" }] });
  api.handlers["Page.getFrameTree"] = () => ({ frameTree: { frame: { id: "MAIN" } } });
  api.handlers["Page.navigateToHistoryEntry"] = (_params, tabId) => {
    chrome.tabs.all.get(tabId).url = "http://a.test/";
    setTimeout(() => step(api, tabId), 1);
    return {};
  };
  const ctx = { tabs: chrome.tabs, debugger: new DebuggerController(api), taskTabs, timers: realTimers,
    taskId: "t1", requestId: "r1" };
  return { ctx, api };
}

test("a page restored from the back/forward cache (no load event) ends the step", async () => {
  const { ctx } = await setup((api, tabId) =>
    api.emit(tabId, "Page.frameNavigated", { frame: { id: "MAIN", url: "http://a.test/" }, type: "BackForwardCacheRestore" }));
  const result = await history({ type: "history", direction: "back", timeout_ms: 2000 }, /** @type {any} */ (ctx));
  assert.equal(result.url, "http://a.test/");
  assert.equal(result.status, "loaded");
});

test("a load event of the main frame ends the step; a step past the last entry is refused", async () => {
  const { ctx } = await setup((api, tabId) => api.emit(tabId, "Page.lifecycleEvent", { frameId: "MAIN", name: "load" }));
  const result = await history({ type: "history", direction: "back", timeout_ms: 2000 }, /** @type {any} */ (ctx));
  assert.equal(result.url, "http://a.test/");
  await assert.rejects(history({ type: "history", direction: "forward", timeout_ms: 2000 }, /** @type {any} */ (ctx)),
    { code: "navigation_failed" });
});
