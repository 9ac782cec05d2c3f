import { test } from "node:test";
import assert from "node:assert/strict";

import { TaskDownloads, downloadEffect } from "../src/tabs/downloads.js";
import { createDownloads, createStorageArea } from "./chrome-stub.js";

function setup() {
  const api = createDownloads();
  const storage = createStorageArea();
  const tabs = new Map([[7, { task_id: "t1" }], [8, { task_id: "t2" }]]);
  const sessions = { get: (/** @type {number} */ id) => tabs.get(id), all: () => [...tabs].map(([tab_id, s]) => ({ ...s, tab_id, url: "" })) };
  const downloads = new TaskDownloads({ downloads: api, storage, sessions });
  return { api, storage, downloads };
}

const item = (/** @type {number} */ id, /** @type {string} */ url, extra = {}) => ({ id, url, finalUrl: url, filename: "", mime: "text/csv", totalBytes: 10, state: "in_progress", ...extra });

test("a download a session tab began belongs to its task, whichever signal comes first", async () => {
  const { api, downloads } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/x.csv" });
  downloads.onCreated(item(1, "http://a/x.csv"));
  downloads.onCreated(item(2, "http://a/y.pdf", { mime: "application/pdf" }));
  downloads.onCdpEvent({ tabId: 8 }, "Page.downloadWillBegin", { url: "http://a/y.pdf" });
  api.items.set(1, { ...item(1, "http://a/x.csv"), filename: "/home/p/Downloads/x.csv", state: "complete", fileSize: 10 });
  const mine = await downloads.list("t1");
  assert.deepEqual(mine.map((r) => [r.id, r.filename, r.path, r.state, r.size]), [[1, "x.csv", "/home/p/Downloads/x.csv", "complete", 10]]);
  assert.deepEqual((await downloads.list("t2")).map((r) => r.id), [2]);
  assert.equal(await downloads.get("t2", 1), undefined, "another task's download is unknown to it");
});

test("downloads the person starts, or from tabs of no session, are never recorded", async () => {
  const { downloads } = setup();
  downloads.onCreated(item(3, "http://a/mine.zip"));
  downloads.onCdpEvent({ tabId: 99 }, "Page.downloadWillBegin", { url: "http://a/other.zip" });
  downloads.onCreated(item(4, "http://a/other.zip"));
  assert.deepEqual([...(await downloads.list("t1")), ...(await downloads.list("t2"))], []);
});

test("onChanged keeps path, size, state and errors; executables are marked; records survive a restart", async () => {
  const { storage, downloads } = setup();
  downloads.approveExecutable("t1");
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/setup.exe" });
  downloads.onCreated(item(5, "http://a/setup.exe", { mime: "application/octet-stream" }));
  downloads.onChanged({ id: 5, filename: { current: "C:\\Users\\p\\Downloads\\setup.exe" }, state: { current: "interrupted" }, error: { current: "NETWORK_FAILED" } });
  const [record] = await downloads.list("t1");
  assert.equal(record.filename, "setup.exe");
  assert.equal(record.executable, true);
  assert.equal(record.state, "interrupted");
  assert.deepEqual(downloadEffect(record, { url: "", filename: "" }), {
    id: 5, filename: "setup.exe", size: 10, mime: "application/octet-stream", state: "interrupted", error: "NETWORK_FAILED", executable: true,
  });
  const again = new TaskDownloads({ downloads: createDownloads(), storage, sessions: new Map() });
  assert.deepEqual((await again.list("t1")).map((r) => r.id), [5]);
});

test("started() waits for the download to finish, up to its limit", async () => {
  const { api, downloads } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/slow.csv" });
  downloads.onCreated(item(6, "http://a/slow.csv"));
  api.items.set(6, item(6, "http://a/slow.csv", { bytesReceived: 4 }));
  const inProgress = await downloads.started("t1", "http://a/slow.csv", 150);
  assert.equal(inProgress?.state, "in_progress");
  assert.equal(inProgress?.size, 4);
  setTimeout(() => {
    api.items.set(6, { ...item(6, "http://a/slow.csv"), state: "complete", fileSize: 10, filename: "/d/slow.csv" });
    downloads.onChanged({ id: 6, state: { current: "complete" } });
  }, 30);
  const done = await downloads.started("t1", "http://a/slow.csv", 2000);
  assert.equal(done?.state, "complete");
  assert.equal(done?.path, "/d/slow.csv");
  assert.deepEqual(downloadEffect(undefined, { url: "http://a/z", filename: "z" }), { filename: "z", url: "http://a/z", state: "starting" });
});

test("a download no session tab announced is the task's when its referrer is that task's page and no other tab's", async () => {
  const list = [{ task_id: "t1", tab_id: 7, url: "http://a/reports" }, { task_id: "t2", tab_id: 8, url: "http://a/other" }];
  const sessions = { get: (/** @type {number} */ id) => list.find((s) => s.tab_id === id), all: () => list };
  /** @type {any[]} */
  let open = [{ id: 7, url: "http://a/reports" }, { id: 8, url: "http://a/other" }];
  const tabs = { query: async () => open };
  const downloads = new TaskDownloads({ downloads: createDownloads(), storage: createStorageArea(), sessions, tabs });
  downloads.onCreated(item(10, "http://a/file.csv", { referrer: "http://a/reports" }));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual((await downloads.list("t1")).map((r) => r.id), [10]);
  open = [...open, { id: 99, url: "http://a/reports" }];
  downloads.onCreated(item(11, "http://a/mine.csv", { referrer: "http://a/reports" }));
  downloads.onCreated(item(12, "http://a/x.csv", { referrer: "http://elsewhere/" }));
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual((await downloads.list("t1")).map((r) => r.id), [10], "the person's own tab on that page keeps theirs");
  assert.deepEqual(await downloads.list("t2"), []);
});
