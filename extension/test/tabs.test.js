import { test } from "node:test";
import assert from "node:assert/strict";

import { getTabs } from "../src/actions/get-tabs.js";
import { TaskTabs } from "../src/tabs/task-tabs.js";
import { createChrome } from "./chrome-stub.js";

function setup() {
  const chrome = createChrome();
  const taskTabs = new TaskTabs(chrome.storage.session);
  const ctx = /** @type {any} */ ({ tabs: chrome.tabs, taskTabs, taskId: "t1", requestId: "r1" });
  return { chrome, taskTabs, ctx };
}

test("lists tabs of normal windows and marks the task's tabs and its current one", async () => {
  const s = setup();
  s.chrome.tabs.windows.set(2, "normal");
  s.chrome.tabs.windows.set(3, "devtools");
  const a = s.chrome.tabs.add({ windowId: 1, url: "https://a.test/", title: "A", active: true });
  const b = s.chrome.tabs.add({ windowId: 2, url: "http://127.0.0.1:8000/", title: "Fixture" });
  s.chrome.tabs.add({ windowId: 3, url: "devtools://devtools/", title: "DevTools" });
  await s.taskTabs.set("t1", b.id);
  await s.taskTabs.set("t2", a.id);

  const result = await getTabs({ type: "get_tabs" }, s.ctx);
  assert.deepEqual(result, {
    tabs: [
      { tab_id: b.id, window_id: 2, url: "http://127.0.0.1:8000/", title: "Fixture", active: false, in_task: true, current: true },
    ],
    other_tabs: 1,
  }, "another task's tab is only counted, never shown by URL or title");
});

test("a task without a tab has nothing in_task; a loading tab shows its pending URL", async () => {
  const s = setup();
  s.chrome.tabs.add({ url: "", pendingUrl: "https://loading.test/", title: "" });
  const loading = s.chrome.tabs.add({ url: "", pendingUrl: "https://mine.test/", title: "" });
  assert.deepEqual(await getTabs({ type: "get_tabs" }, s.ctx), { tabs: [], other_tabs: 2 });
  await s.taskTabs.set("t1", loading.id);
  const { tabs } = await getTabs({ type: "get_tabs" }, s.ctx);
  assert.equal(tabs.length, 1);
  assert.equal(tabs[0].url, "https://mine.test/");
});
