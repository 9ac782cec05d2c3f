import { test } from "node:test";
import assert from "node:assert/strict";

import { Blocklist } from "../src/sessions/blocklist.js";
import { SessionControls } from "../src/sessions/session-controls.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { TabGroups, colourFor, groupTitle } from "../src/sessions/tab-groups.js";

function storage() {
  const data = {};
  return { get: async (k) => ({ [k]: data[k] }), set: async (o) => Object.assign(data, structuredClone(o)) };
}

async function setup() {
  const events = [];
  const sessions = new SessionStore(storage(), (t, d) => events.push([t, d]));
  const blocklist = new Blocklist(storage());
  const intervals = [];
  const forgotten = [];
  const detached = [];
  const controls = new SessionControls({ sessions, blocklist, idle: { setDetectionInterval: (s) => intervals.push(s) },
    taskTabs: { forgetTab: async (id) => forgotten.push(id) }, debugger: { detach: async (id) => detached.push(id) } });
  await sessions.start({ taskId: "t1", tabId: 1, url: "http://bank.test/", openedByAgent: true });
  await sessions.start({ taskId: "t1", tabId: 2, url: "http://shop.test/", openedByAgent: true });
  await sessions.start({ taskId: "t2", tabId: 3, url: "http://login.bank.test/", openedByAgent: true });
  return { sessions, controls, events, intervals, forgotten, detached };
}

test("set_blocklist ends the sessions on newly blocked sites at once", async () => {
  const env = await setup();
  const answer = await env.controls.setBlocklist({ patterns: ["bank.test"] });
  assert.deepEqual(answer.ended.map((s) => s.tab_id), [1, 3]);
  assert.deepEqual(env.sessions.all().map((s) => s.tab_id), [2]);
  assert.deepEqual(env.forgotten, [1, 3]);
  await assert.rejects(env.controls.setBlocklist({ patterns: "bank.test" }), { code: "invalid_action" });
});

test("end_session ends one task (or one tab); stop_all ends everything", async () => {
  const env = await setup();
  assert.deepEqual((await env.controls.endSession({ task_id: "t1", tab_id: 2 })).ended.map((s) => s.tab_id), [2]);
  assert.deepEqual((await env.controls.endSession({ task_id: "t1" })).ended.map((s) => s.tab_id), [1]);
  assert.deepEqual((await env.controls.stopAll()).ended.map((s) => s.tab_id), [3]);
  const reasons = env.events.filter(([t]) => t === "session_ended").map(([, d]) => d.reason);
  assert.deepEqual(reasons, ["ended_by_user", "ended_by_user", "stopped"]);
  assert.deepEqual(env.detached, [2, 1, 3], "each ended tab is no longer debugged");
});

test("idle ends every session; the threshold is configurable", async () => {
  const env = await setup();
  await env.controls.configure({ idle_threshold_s: 120 });
  assert.deepEqual(env.intervals, [120]);
  await assert.rejects(env.controls.configure({ idle_threshold_s: 5 }), /at least 15/);
  assert.equal((await env.controls.onIdle()).ended.length, 3);
  assert.equal(env.sessions.endReason("t2"), "idle");
});

test("tab groups: one labelled, coloured group per task; badge on and off", async () => {
  const calls = [];
  const groups = new TabGroups({
    tabs: { get: async (id) => ({ id, windowId: 7 }), group: async (o) => { calls.push(["group", o]); return 42; },
      ungroup: async (ids) => calls.push(["ungroup", ids]) },
    tabGroups: { get: async () => ({ windowId: 7 }), update: async (id, o) => calls.push(["update", id, o]) },
    action: { setBadgeText: async (o) => calls.push(["badge", o.text]) },
  });
  await groups.add({ task_id: "t1", tab_id: 5, label: "Collect candidate contacts" });
  await groups.add({ task_id: "t1", tab_id: 6, label: "Collect candidate contacts" });
  await groups.remove({ task_id: "t1", tab_id: 5 });
  assert.deepEqual(calls.filter(([k]) => k === "group").map(([, o]) => o.groupId ?? "new"), ["new", 42]);
  assert.deepEqual(calls.find(([k]) => k === "update")[2], { title: groupTitle("Collect candidate contacts"), color: colourFor("t1") });
  assert.deepEqual(calls.filter(([k]) => k === "badge").map(([, t]) => t), ["bua", "bua", ""]);
  assert.deepEqual(calls.at(-1), ["ungroup", [5]]);
});

test("an ended session takes the task's snapshots of its tab (extract changes) with it", async () => {
  const env = await setup();
  const { remember, previous } = await import("../src/extract/snapshots.js");
  const snap = { doc: "d", url: "http://shop.test/", title: "", lines: ["a"], elements: new Map() };
  remember("t1", 2, undefined, snap);
  remember("t2", 3, undefined, snap);
  await env.controls.endSession({ task_id: "t1", tab_id: 2 });
  assert.equal(previous("t1", 2), undefined);
  assert.ok(previous("t2", 3), "other sessions keep theirs");
});
