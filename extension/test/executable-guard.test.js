import { test } from "node:test";
import assert from "node:assert/strict";

import { OWNER_WAIT_MS, TaskDownloads, downloadEffect } from "../src/tabs/downloads.js";
import { APPROVAL_MS, STOPPED_REASON, isExecutable } from "../src/tabs/executable-guard.js";
import { Confirmations } from "../src/safety/confirmations.js";
import { createDownloads, createStorageArea } from "./chrome-stub.js";

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

/** @param {{tabs?: [number, string][]}} [options] session tabs: [tab id, task id] */
function setup({ tabs = [[7, "t1"], [8, "t2"]] } = {}) {
  const api = createDownloads();
  let offset = 0;
  const list = tabs.map(([tab_id, task_id]) => ({ tab_id, task_id, url: "http://a/page" }));
  const sessions = { get: (/** @type {number} */ id) => list.find((s) => s.tab_id === id), all: () => list };
  const downloads = new TaskDownloads({ downloads: api, storage: createStorageArea(), sessions, now: () => Date.now() + offset });
  /** @type {string[]} the order things happened in: cancel, removeFile, suggest */
  const order = [];
  const cancel = api.cancel.bind(api);
  api.cancel = async (id) => { order.push("cancel"); await cancel(id); };
  const suggest = () => { order.push("suggest"); };
  return { api, downloads, order, suggest, advance: (/** @type {number} */ ms) => { offset += ms; } };
}

/** A chrome.downloads item as onCreated gives it (no name yet) and as it is being named. */
const item = (/** @type {number} */ id, /** @type {string} */ url, extra = {}) => ({
  id, url, finalUrl: url, filename: "", mime: "application/octet-stream", totalBytes: 64, state: "in_progress", ...extra,
});
const named = (/** @type {any} */ it, /** @type {string} */ name) => ({ ...it, filename: `/home/p/Downloads/${name}` });

test("a file that is no executable is named at once and never held", () => {
  const { api, downloads, order, suggest } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/get?id=0" });
  const csv = item(1, "http://a/get?id=0", { mime: "text/csv" });
  downloads.onCreated(csv);
  assert.equal(downloads.onDeterminingFilename(named(csv, "people.csv"), suggest), false);
  assert.deepEqual(order, ["suggest"]);
  assert.deepEqual(api.calls, []);
});

test("a task's executable whose URL names no file is cancelled before Chrome names it, and says why", async () => {
  const { api, downloads, order, suggest } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/redirect?to=/setup.sh" });
  const exe = item(2, "http://a/redirect?to=/setup.sh", { finalUrl: "http://a/download/setup.sh" });
  api.items.set(2, { ...exe });
  downloads.onCreated(exe);
  assert.equal(downloads.onDeterminingFilename(named(exe, "setup.sh"), suggest), true, "suggest comes later");
  await settle();
  assert.deepEqual(order, ["cancel", "suggest"], "cancelled while Chrome still waited for a name");
  assert.deepEqual(api.calls, [["cancel", 2]], "nothing completed: no file to remove");
  // Chrome then reports its own cancel: the reason stays bua's.
  downloads.onChanged({ id: 2, state: { current: "interrupted" }, error: { current: "USER_CANCELED" } });
  const [record] = await downloads.list("t1");
  assert.deepEqual({ state: record.state, error: record.error, path: record.path, stopped: record.stopped }, {
    state: "interrupted", error: STOPPED_REASON, path: "", stopped: true,
  });
  const effect = downloadEffect(await downloads.started("t1", "http://a/redirect?to=/setup.sh", 50), { url: "", filename: "" });
  assert.deepEqual(effect, { id: 2, filename: "setup.sh", size: 64, mime: "application/octet-stream", state: "interrupted",
    error: STOPPED_REASON, executable: true, stopped: true }, "found by the URL the click requested, before the redirect");
});

test("an executable named before its tab's Page.downloadWillBegin arrives is held until it does", async () => {
  const { api, downloads, order, suggest } = setup();
  const exe = item(3, "http://a/get?id=3");
  api.items.set(3, { ...exe });
  downloads.onCreated(exe);
  downloads.onDeterminingFilename(named(exe, "setup.exe"), suggest);
  await settle();
  assert.deepEqual(order, [], "held: not yet known whose it is");
  downloads.onCdpEvent({ tabId: 8 }, "Page.downloadWillBegin", { url: "http://a/get?id=3" });
  await settle();
  assert.deepEqual(order, ["cancel", "suggest"]);
  assert.equal((await downloads.list("t2"))[0].stopped, true);
});

test("the person's own executable is held at most OWNER_WAIT_MS, and not at all with no session tab", async () => {
  const { api, downloads, order, suggest, advance } = setup();
  const mine = item(4, "http://a/tool.exe");
  downloads.onCreated(mine);
  downloads.onDeterminingFilename(named(mine, "tool.exe"), suggest);
  await settle();
  assert.deepEqual(order, []);
  advance(OWNER_WAIT_MS);
  await new Promise((resolve) => setTimeout(resolve, 150));
  assert.deepEqual(order, ["suggest"]);
  assert.deepEqual(api.calls, [], "never cancelled");
  assert.deepEqual([...(await downloads.list("t1")), ...(await downloads.list("t2"))], []);

  const idle = setup({ tabs: [] });
  idle.downloads.onDeterminingFilename(named(item(5, "http://a/tool.exe"), "tool.exe"), idle.suggest);
  await settle();
  assert.deepEqual(idle.order, ["suggest"], "no session tab: nothing to wait for");
});

test("an approval lets one executable of that task through, within APPROVAL_MS", async () => {
  const { api, downloads, order, suggest, advance } = setup();
  downloads.approveExecutable("t1");
  downloads.approveExecutable("t2");
  const begin = (/** @type {number} */ id, /** @type {number} */ tab) => {
    const exe = item(id, `http://a/get?id=${id}`);
    api.items.set(id, { ...exe });
    downloads.onCdpEvent({ tabId: tab }, "Page.downloadWillBegin", { url: exe.url });
    downloads.onCreated(exe);
    downloads.onDeterminingFilename(named(exe, `setup${id}.exe`), suggest);
  };
  begin(10, 7);
  await settle();
  assert.deepEqual(order, ["suggest"], "approved: named, not cancelled");
  const [approved] = await downloads.list("t1");
  assert.equal(approved.approved, true);
  assert.equal(approved.stopped, undefined);
  begin(11, 7);
  await settle();
  assert.deepEqual(api.calls, [["cancel", 11]], "the approval was for one download");
  advance(APPROVAL_MS);
  begin(12, 8);
  await settle();
  assert.deepEqual(api.calls.map(([, id]) => id), [11, 12], "an approval lapses");
});

test("the backstop: an executable Chrome named without asking is stopped on its change, its file removed", async () => {
  const { api, downloads } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/get?id=2" });
  const exe = item(20, "http://a/get?id=2");
  downloads.onCreated(exe);
  api.items.set(20, { ...named(exe, "setup.sh"), state: "complete", exists: true });
  downloads.onChanged({ id: 20, filename: { current: "/home/p/Downloads/setup.sh" }, state: { current: "complete" } });
  await settle();
  assert.deepEqual(api.calls, [["cancel", 20], ["removeFile", 20]]);
  assert.equal(api.items.get(20).exists, false);
  const [record] = await downloads.list("t1");
  assert.deepEqual([record.state, record.path, record.stopped], ["interrupted", "", true]);
});

test("Chrome's verdict that a file type is dangerous counts as an executable", async () => {
  assert.equal(isExecutable("tool.jnlp", "file"), true);
  assert.equal(isExecutable("report.pdf", "safe"), false);
  assert.equal(isExecutable("Setup.EXE"), true);
  const { api, downloads } = setup();
  downloads.onCdpEvent({ tabId: 7 }, "Page.downloadWillBegin", { url: "http://a/get?id=5" });
  downloads.onCreated(item(21, "http://a/get?id=5"));
  api.items.set(21, item(21, "http://a/get?id=5"));
  downloads.onChanged({ id: 21, filename: { current: "/d/tool.jnlp" } });
  await settle();
  assert.deepEqual(api.calls, []);
  downloads.onChanged({ id: 21, danger: { current: "file" } });
  await settle();
  assert.deepEqual(api.calls, [["cancel", 21]]);
});

test("redeeming a token for a held executable download approves one executable for that task only", () => {
  /** @type {string[]} */
  const approved = [];
  const confirmations = new Confirmations({ downloads: { approveExecutable: (taskId) => approved.push(taskId) } });
  const click = { type: "click", selector: "#installer" };
  const download = confirmations.issue("t1", click, "download");
  const pay = confirmations.issue("t1", { type: "click", selector: "#pay" }, "pay");
  assert.equal(confirmations.redeem(download, "t2", click), false);
  assert.deepEqual(approved, [], "a token redeemed by another task approves nothing");
  const again = confirmations.issue("t1", click, "download");
  assert.equal(confirmations.redeem(again, "t1", click), true);
  assert.equal(confirmations.redeem(pay, "t1", { type: "click", selector: "#pay" }), true);
  assert.deepEqual(approved, ["t1"], "only the download finding");
});
