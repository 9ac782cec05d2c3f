import { test } from "node:test";
import assert from "node:assert/strict";

import { STORAGE_KEY, SessionStore } from "../src/sessions/session-store.js";

function memoryStorage() {
  /** @type {Record<string, unknown>} */
  const data = {};
  return {
    data,
    get: async (/** @type {string} */ key) => ({ [key]: structuredClone(data[key]) }),
    set: async (/** @type {Record<string, unknown>} */ obj) => { for (const [k, v] of Object.entries(obj)) data[k] = structuredClone(v); },
  };
}

test("start, follow and end emit events and remember why a task's session ended", async () => {
  const events = [];
  const store = new SessionStore(memoryStorage(), (type, data) => events.push([type, data]));
  await store.start({ taskId: "t1", tabId: 5, windowId: 1, url: "http://a.test/x", title: "A", openedByAgent: true });
  await store.follow(5, "http://b.test/", "B");
  assert.equal(store.get(5).domain, "b.test");
  const ended = await store.end(5, "tab_closed");
  assert.equal(ended.task_id, "t1");
  assert.equal(store.endReason("t1"), "tab_closed");
  assert.deepEqual(events.map(([t]) => t), ["session_started", "navigated", "session_ended"]);
  assert.equal(events[2][1].reason, "tab_closed");
  assert.equal(await store.end(5, "again"), undefined, "ending twice is a no-op");
});

test("sessions survive a worker restart through storage.session", async () => {
  const storage = memoryStorage();
  const first = new SessionStore(storage, () => {});
  await first.start({ taskId: "t1", tabId: 7, url: "http://a.test/", openedByAgent: false });
  assert.equal(storage.data[STORAGE_KEY].sessions.length, 1);
  const second = new SessionStore(storage, () => {});
  await second.ready();
  assert.equal(second.get(7).task_id, "t1");
  assert.deepEqual(second.forTask("t1").map((s) => s.tab_id), [7]);
});

test("endWhere ends only matching sessions", async () => {
  const store = new SessionStore(memoryStorage(), () => {});
  await store.start({ taskId: "t1", tabId: 1, url: "http://bank.test/", openedByAgent: true });
  await store.start({ taskId: "t2", tabId: 2, url: "http://shop.test/", openedByAgent: true });
  const ended = await store.endWhere((s) => s.domain === "bank.test", "blocked");
  assert.deepEqual(ended.map((s) => s.tab_id), [1]);
  assert.equal(store.get(2).task_id, "t2");
});
