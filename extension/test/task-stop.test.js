import { test } from "node:test";
import assert from "node:assert/strict";

import { Blocklist } from "../src/sessions/blocklist.js";
import { SessionControls } from "../src/sessions/session-controls.js";
import { SessionGate } from "../src/sessions/session-gate.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { createStorageArea } from "./chrome-stub.js";

/** A worker's parts over given storage areas (a second call over the same areas is a restarted worker). */
function worker(session = createStorageArea(), local = createStorageArea()) {
  const tabs = new Map();
  const sessions = new SessionStore(session, () => {});
  const blocklist = new Blocklist(local);
  const gate = new SessionGate({
    sessions, blocklist,
    tabs: { get: async (id) => { if (!tabs.has(id)) throw new Error(`No tab with id: ${id}.`); return tabs.get(id); } },
    taskTabs: { get: async () => undefined },
  });
  const controls = new SessionControls({ sessions, blocklist });
  return { session, local, tabs, sessions, gate, controls };
}

/** navigate without a tab: the gate lets it through, the handler opens tab `tabId`, the gate starts the session. */
async function openTab(env, task, tabId, url, type = "open_tab") {
  const allowed = await env.gate.before(type, { url }, task);
  env.tabs.set(tabId, { id: tabId, url, title: "t" });
  await env.gate.after(type, task, "label", allowed, { tab_id: tabId, url, title: "t" });
}

for (const [how, end] of [
  ["Stop", (env) => env.controls.endSession({ task_id: "t1", reason: "stopped" })],
  ["End", (env) => env.controls.endSession({ task_id: "t1" })],
  ["Stop all", (env) => env.controls.stopAll()],
  ["idle", (env) => env.controls.onIdle()],
  ["a blocklist entry", (env) => env.controls.setBlocklist({ patterns: ["a.test"] })],
]) {
  test(`after ${how}, every action of the task answers stopped, open_tab and navigate included`, async () => {
    const env = worker();
    await openTab(env, "t1", 10, "http://a.test/");
    await end(env);
    for (const [type, action] of [["open_tab", { url: "http://b.test/" }], ["navigate", { url: "http://b.test/" }],
      ["extract", {}], ["get_tabs", {}], ["click", { uid: "e1", tab_id: 10 }]]) {
      await assert.rejects(env.gate.before(type, action, "t1"), { code: "stopped" }, type);
    }
    await openTab(env, "t2", 11, "http://b.test/");
    assert.equal(env.sessions.get(11)?.task_id, "t2", "another task is not stopped");
  });
}

test("the stop reason is never overwritten: a later tab close or a new session of another task keeps it", async () => {
  const env = worker();
  await openTab(env, "t1", 10, "http://a.test/");
  await openTab(env, "t1", 12, "http://c.test/");
  await env.controls.endSession({ task_id: "t1", tab_id: 10 });
  await env.sessions.end(12, "tab_closed");
  await env.controls.onIdle();
  assert.equal(env.sessions.stopReason("t1"), "ended_by_user");
  await assert.rejects(env.gate.before("open_tab", { url: "http://b.test/" }, "t1"), /ended_by_user/);
});

test("Stop of a task that holds no tab still stops it", async () => {
  const env = worker();
  await env.controls.endSession({ task_id: "t3", reason: "stopped" });
  await assert.rejects(env.gate.before("open_tab", { url: "http://b.test/" }, "t3"), { code: "stopped" });
});

test("the stop survives a service-worker restart; only reopen_task lifts it", async () => {
  const first = worker();
  await openTab(first, "t1", 10, "http://a.test/");
  await first.controls.endSession({ task_id: "t1", reason: "stopped" });
  const again = worker(first.session, first.local);
  await again.sessions.ready();
  await assert.rejects(again.gate.before("navigate", { url: "http://a.test/" }, "t1"), { code: "stopped" });
  assert.deepEqual(await again.controls.reopenTask({ task_id: "t1" }),
    { task_id: "t1", reopened: true, was_stopped: "stopped" });
  await openTab(again, "t1", 20, "http://a.test/", "navigate");
  assert.equal(again.sessions.get(20)?.task_id, "t1");
  assert.deepEqual(await again.controls.reopenTask({ task_id: "t1" }), { task_id: "t1", reopened: false });
  await assert.rejects(again.controls.reopenTask({}), { code: "invalid_action" });
});

test("the agent closing its own tab, or a tab closing, does not stop the task", async () => {
  const env = worker();
  await openTab(env, "t1", 10, "http://a.test/");
  await env.gate.before("close_tab", { tab_id: 10 }, "t1");
  await openTab(env, "t1", 11, "http://a.test/", "navigate");
  await env.sessions.end(11, "tab_closed");
  await openTab(env, "t1", 12, "http://a.test/");
  assert.equal(env.sessions.stopReason("t1"), undefined);
  assert.equal(env.sessions.get(12)?.task_id, "t1");
});

test("an action that was under way when the task was stopped starts no session for the tab it opened", async () => {
  const env = worker();
  const allowed = await env.gate.before("open_tab", { url: "http://a.test/" }, "t1");
  await env.controls.endSession({ task_id: "t1", reason: "stopped" });
  env.tabs.set(10, { id: 10, url: "http://a.test/" });
  await assert.rejects(env.gate.after("open_tab", "t1", "l", allowed, { tab_id: 10, url: "http://a.test/" }),
    { code: "stopped" });
  assert.equal(env.sessions.get(10), undefined);
});
