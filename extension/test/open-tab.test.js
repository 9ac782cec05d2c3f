import { test } from "node:test";
import assert from "node:assert/strict";

import { openTab } from "../src/actions/open-tab.js";
import { closeTab } from "../src/actions/close-tab.js";
import { BuaWindow } from "../src/tabs/bua-window.js";
import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { TaskTabs } from "../src/tabs/task-tabs.js";
import { createChrome, realTimers } from "./chrome-stub.js";

function setup() {
  const chrome = createChrome();
  chrome.debugger.handlers["Page.navigate"] = ({ url }, tabId) => {
    const tab = chrome.tabs.all.get(tabId);
    tab.url = url;
    tab.title = "Loaded";
    setTimeout(() => chrome.debugger.emit(tabId, "Page.loadEventFired", {}), 1);
    return { frameId: "MAIN", loaderId: "L1" };
  };
  const taskTabs = new TaskTabs(chrome.storage.session);
  const ctx = /** @type {any} */ ({
    tabs: chrome.tabs,
    debugger: new DebuggerController(chrome.debugger),
    taskTabs,
    buaWindow: new BuaWindow({ windows: chrome.windows, tabs: chrome.tabs, storage: chrome.storage.session }),
    timers: realTimers,
    taskId: "t1",
    requestId: "r1",
  });
  return { chrome, ctx, taskTabs };
}

test("open_tab loads the URL in a bua-window tab that becomes the task's current tab", async () => {
  const s = setup();
  const result = await openTab({ type: "open_tab", url: "http://a.test/" }, s.ctx);
  assert.deepEqual(result, { tab_id: result.tab_id, window_id: result.window_id, url: "http://a.test/", title: "Loaded" });
  assert.notEqual(result.window_id, 1);
  assert.equal(await s.taskTabs.get("t1"), result.tab_id);
  const focused = await openTab({ type: "open_tab", url: "http://b.test/", focus: true }, s.ctx);
  assert.equal(focused.window_id, 1);
  assert.equal(await s.taskTabs.get("t1"), focused.tab_id);
});

test("open_tab refuses forbidden URLs before creating anything", async () => {
  const s = setup();
  await assert.rejects(openTab({ type: "open_tab", url: "chrome://settings" }, s.ctx), { code: "forbidden_url" });
  assert.equal(s.chrome.tabs.all.size, 0);
});

test("close_tab closes only the task's tabs and hands over the current tab", async () => {
  const s = setup();
  const a = (await openTab({ type: "open_tab", url: "http://a.test/" }, s.ctx)).tab_id;
  const b = (await openTab({ type: "open_tab", url: "http://b.test/" }, s.ctx)).tab_id;
  const persons = s.chrome.tabs.add({ url: "https://mail.test/" });
  await assert.rejects(closeTab({ type: "close_tab", tab_id: persons.id }, s.ctx),
    { code: "tab_not_found", message: /not one of this task's tabs/ });
  await assert.rejects(closeTab({ type: "close_tab", tab_id: a }, { ...s.ctx, taskId: "t2" }), { code: "tab_not_found" });
  assert.deepEqual(await closeTab({ type: "close_tab", tab_id: b }, s.ctx), { closed: b, current_tab_id: a });
  assert.equal(s.chrome.tabs.all.has(b), false);
  await assert.rejects(closeTab({ type: "close_tab", tab_id: b }, s.ctx), { code: "tab_not_found", message: /does not exist/ });
  assert.deepEqual(await closeTab({ type: "close_tab", tab_id: a }, s.ctx), { closed: a, current_tab_id: null });
});
