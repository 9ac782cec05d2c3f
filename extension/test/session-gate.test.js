import { test } from "node:test";
import assert from "node:assert/strict";

import { Blocklist } from "../src/sessions/blocklist.js";
import { SessionGate } from "../src/sessions/session-gate.js";
import { SessionStore } from "../src/sessions/session-store.js";

function storage() {
  const data = {};
  return {
    get: async (key) => ({ [key]: data[key] }),
    set: async (obj) => Object.assign(data, structuredClone(obj)),
  };
}

function setup(blocked = []) {
  const tabs = new Map();
  const current = new Map();
  const events = [];
  const sessions = new SessionStore(storage(), (type, data) => events.push([type, data]));
  const blocklist = new Blocklist(storage());
  const gate = new SessionGate({
    sessions, blocklist,
    tabs: { get: async (id) => { if (!tabs.has(id)) throw new Error(`No tab with id: ${id}.`); return tabs.get(id); } },
    taskTabs: {
      get: async (task) => current.get(task),
      forgetTab: async (/** @type {number} */ id) => {
        for (const [task, tab] of current) if (tab === id) current.delete(task);
      },
    },
  });
  return { gate, sessions, blocklist, tabs, current, events, ready: blocklist.replace(blocked) };
}

async function navigateNew(env, task, tabId, url) {
  const allowed = await env.gate.before("navigate", { url }, task);
  env.tabs.set(tabId, { id: tabId, url, title: "t" });
  env.current.set(task, tabId);
  await env.gate.after("navigate", task, "label", allowed, { tab_id: tabId, url, title: "t" });
}

test("the first navigate opens a session; another task and user tabs are refused", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  assert.equal(await env.gate.before("click", { uid: "e1" }, "t1"), 10);
  await assert.rejects(env.gate.before("click", { uid: "e1", tab_id: 10 }, "t2"), { code: "session_not_found" });
  env.tabs.set(99, { id: 99, url: "http://user.test/" });
  await assert.rejects(env.gate.before("click", { uid: "e1", tab_id: 99 }, "t1"), { code: "session_not_found" });
  await assert.rejects(env.gate.before("extract", {}, "t2"), /has no tab yet/);
});

test("blocked sites: refused up front, and a session that lands on one ends", async () => {
  const env = setup(["bank.test"]);
  await env.ready;
  await assert.rejects(env.gate.before("navigate", { url: "https://www.bank.test/" }, "t1"), { code: "blocked" });
  await navigateNew(env, "t1", 10, "http://shop.test/");
  env.tabs.set(10, { id: 10, url: "https://bank.test/login", title: "Bank" });
  await assert.rejects(env.gate.after("click", "t1", "l", 10, {}), { code: "blocked" });
  assert.equal(env.sessions.get(10), undefined);
  await assert.rejects(env.gate.before("extract", {}, "t1"), /session ended \(blocked\)/);
});

test("a session follows its tab to another domain", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  env.tabs.set(10, { id: 10, url: "http://b.test/next", title: "B" });
  await env.gate.after("click", "t1", "l", 10, {});
  assert.equal(env.sessions.get(10).domain, "b.test");
  assert.deepEqual(env.events.map(([t]) => t), ["session_started", "navigated"]);
});

test("tabs opened by a session's click join the session", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  env.tabs.set(11, { id: 11, url: "http://a.test/popup" });
  await env.gate.after("click", "t1", "l", 10, { effects: { new_tabs: [{ tab_id: 11, url: "http://a.test/popup" }] } });
  assert.equal(env.sessions.get(11).task_id, "t1");
});

test("after the person stops a task, its next action is stopped and names the reason", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  await env.sessions.end(10, "stopped");
  await assert.rejects(env.gate.before("navigate", { url: "http://a.test/" }, "t1"), /session ended \(stopped\)/);
  await assert.rejects(env.gate.before("click", { uid: "e1" }, "t1"), { code: "stopped" });
});

test("after the task's tab closed, its next action is session_not_found (it may open another)", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  await env.sessions.end(10, "tab_closed");
  await assert.rejects(env.gate.before("click", { uid: "e1" }, "t1"), { code: "session_not_found" });
});

test("a tab claimed by a navigate that the person stops meanwhile is the task's no more, and no session starts", async () => {
  const env = setup();
  await navigateNew(env, "t1", 10, "http://a.test/");
  const allowed = await env.gate.before("open_tab", { url: "http://a.test/2" }, "t1");
  await env.gate.claim("t1", "label", 11);
  env.tabs.set(11, { id: 11, url: "http://a.test/2", title: "t" });
  env.current.set("t1", 11);
  await env.sessions.endWhere(() => true, "stopped");
  await assert.rejects(env.gate.after("open_tab", "t1", "label", allowed, { tab_id: 11, url: "http://a.test/2", title: "t" }),
    { code: "stopped" });
  assert.equal(env.sessions.get(11), undefined);
  assert.equal(env.current.get("t1"), undefined, "the stopped task no longer holds the tab");
});
