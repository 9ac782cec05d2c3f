import { test } from "node:test";
import assert from "node:assert/strict";

import { Blocklist } from "../src/sessions/blocklist.js";
import { SessionGate } from "../src/sessions/session-gate.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { createStorageArea } from "./chrome-stub.js";

async function setup() {
  const tabs = new Map();
  const removed = [];
  const sessions = new SessionStore(createStorageArea(), () => {});
  const blocklist = new Blocklist(createStorageArea());
  await blocklist.replace(["bank.test"]);
  const gate = new SessionGate({
    sessions, blocklist, taskTabs: { get: async () => undefined },
    tabs: { get: async (id) => tabs.get(id), remove: async (id) => { removed.push(id); tabs.delete(id); } },
  });
  tabs.set(1, { id: 1, url: "http://shop.test/" });
  await sessions.start({ taskId: "t1", tabId: 1, url: "http://shop.test/", openedByAgent: true });
  return { tabs, removed, sessions, gate };
}

for (const type of ["extract", "screenshot", "wait_for", "evaluate"]) {
  test(`${type} reads where the tab is when it reads: a redirect that ended on a blocked site answers blocked`, async () => {
    const env = await setup();
    env.tabs.set(1, { id: 1, url: "https://login.bank.test/" });
    await assert.rejects(env.gate.after(type, "t1", "l", 1, { navigated: false }), { code: "blocked" });
    assert.equal(env.sessions.get(1), undefined);
  });
}

test("a read also checks the URL it read (the tab may have moved on since)", async () => {
  const env = await setup();
  await assert.rejects(env.gate.after("extract", "t1", "l", 1, { url: "https://bank.test/statement" }), { code: "blocked" });
});

test("a read on an allowed page passes", async () => {
  const env = await setup();
  await env.gate.after("extract", "t1", "l", 1, { url: "http://shop.test/" });
  assert.equal(env.sessions.get(1)?.task_id, "t1");
});

test("a tab the task's page opened that reaches a blocked site is closed, and the task goes on", async () => {
  const env = await setup();
  env.tabs.set(2, { id: 2, url: "", pendingUrl: "https://bank.test/" });
  await env.sessions.start({ taskId: "t1", tabId: 2, url: "", openedByAgent: true, openerTabId: 1 });
  await assert.rejects(env.gate.check(2), /bua closed that tab/);
  assert.deepEqual(env.removed, [2]);
  assert.equal(env.sessions.stopReason("t1"), undefined);
  assert.equal(await env.gate.before("extract", {}, "t1"), 1);
});
