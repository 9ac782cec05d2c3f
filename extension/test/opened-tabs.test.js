import { test } from "node:test";
import assert from "node:assert/strict";

import { Blocklist } from "../src/sessions/blocklist.js";
import { OpenedTabs } from "../src/sessions/opened-tabs.js";
import { SessionStore } from "../src/sessions/session-store.js";
import { createStorageArea } from "./chrome-stub.js";

async function setup() {
  const removed = [];
  const owned = [];
  const sessions = new SessionStore(createStorageArea(), () => {});
  const blocklist = new Blocklist(createStorageArea());
  await blocklist.replace(["bank.test"]);
  const opened = new OpenedTabs({ sessions, blocklist, tabs: { remove: async (id) => removed.push(id) },
    taskTabs: { own: async (task, id) => owned.push([task, id]) } });
  await sessions.start({ taskId: "t1", tabId: 1, url: "http://shop.test/", label: "Shop", openedByAgent: true });
  return { sessions, blocklist, opened, removed, owned };
}

test("a tab a session tab opens joins its task, remembering its opener", async () => {
  const env = await setup();
  assert.equal(await env.opened.onCreated({ id: 2, openerTabId: 1, pendingUrl: "http://shop.test/cart" }), "joined");
  assert.deepEqual([env.sessions.get(2)?.task_id, env.sessions.get(2)?.opener_tab_id, env.sessions.get(2)?.label],
    ["t1", 1, "Shop"]);
  assert.deepEqual(env.owned, [["t1", 2]]);
  assert.equal(await env.opened.onCreatedNavigationTarget({ sourceTabId: 1, tabId: 2, url: "http://shop.test/cart" }),
    "joined", "the second report of the same tab changes nothing");
  assert.equal(env.sessions.forTask("t1").length, 2);
});

test("a new tab headed for a blocked site is closed at once and never joins", async () => {
  const env = await setup();
  assert.equal(await env.opened.onCreatedNavigationTarget({ sourceTabId: 1, tabId: 3, url: "https://www.bank.test/" }),
    "closed");
  assert.deepEqual(env.removed, [3]);
  assert.equal(env.sessions.get(3), undefined);
  assert.equal(env.sessions.stopReason("t1"), undefined, "the task goes on in its own tab");
});

test("tabs the person or no session opened are left alone; a stopped task's page gets its tab closed", async () => {
  const env = await setup();
  assert.equal(await env.opened.onCreated({ id: 4 }), "ignored");
  assert.equal(await env.opened.onCreated({ id: 5, openerTabId: 99, pendingUrl: "http://bank.test/" }), "ignored");
  await env.sessions.markStopped("t1", "stopped");
  assert.equal(await env.opened.onCreated({ id: 6, openerTabId: 1, url: "http://shop.test/" }), "closed");
  assert.deepEqual(env.removed, [6]);
});

test("the two reports of one new tab race: a blank start then a blocked target ends closed, no session left", async () => {
  const env = await setup();
  const both = await Promise.all([
    env.opened.onCreated({ id: 7, openerTabId: 1, pendingUrl: "" }),
    env.opened.onCreatedNavigationTarget({ sourceTabId: 1, tabId: 7, url: "https://bank.test/" }),
  ]);
  assert.deepEqual(both, ["joined", "closed"]);
  assert.deepEqual(env.removed, [7]);
  assert.equal(env.sessions.get(7), undefined);
});

test("a tab that closes while its join waits leaves no session behind, whenever it closes", async () => {
  for (const when of ["before the join", "while the blocklist is read"]) {
    const env = await setup();
    const check = env.blocklist.check.bind(env.blocklist);
    env.blocklist.check = async (url) => {
      if (when === "while the blocklist is read") env.opened.closed(8);
      return check(url);
    };
    if (when === "before the join") env.opened.closed(8);
    assert.equal(await env.opened.onCreated({ id: 8, openerTabId: 1, pendingUrl: "http://shop.test/a" }), "closed", when);
    assert.equal(env.sessions.get(8), undefined, when);
    assert.equal(env.sessions.forTask("t1").length, 1, when);
  }
});

test("a tab that closes after its session started is ended and forgotten", async () => {
  const env = await setup();
  const forgotten = [];
  const opened = new OpenedTabs({ sessions: env.sessions, blocklist: new Blocklist(createStorageArea()),
    tabs: { remove: async () => {} },
    taskTabs: { own: async () => opened.closed(9), forgetTab: async (id) => forgotten.push(id) } });
  assert.equal(await opened.onCreated({ id: 9, openerTabId: 1, pendingUrl: "http://shop.test/b" }), "closed");
  assert.equal(env.sessions.get(9), undefined);
  assert.deepEqual(forgotten, [9]);
});
