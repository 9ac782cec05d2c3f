import { test } from "node:test";
import assert from "node:assert/strict";

import { TabFeed } from "../src/tabs/tab-feed.js";

/** A feed over a fake tab list; `posted` collects the tab_state frames' data. */
function rig() {
  /** @type {any[]} */
  const tabs = [
    { id: 1, windowId: 10, url: "https://a.test/", title: "A", active: true },
    { id: 2, windowId: 10, url: "", pendingUrl: "https://b.test/", title: "B", active: false },
  ];
  /** @type {Map<number, {task_id: string}>} */
  const sessions = new Map([[2, { task_id: "t1" }]]);
  /** @type {Record<string, number>} */
  const current = { t1: 2 };
  /** @type {string[]} */
  const stopped = [];
  /** @type {any[]} */
  const posted = [];
  let up = true;
  let queries = 0;
  const feed = new TabFeed({
    post: (msg) => {
      if (!up) return false;
      posted.push(/** @type {any} */ (msg).data);
      return true;
    },
    tabs: { query: async () => { queries += 1; return tabs.map((t) => ({ ...t })); } },
    sessions: { get: (id) => sessions.get(id), stopped: () => stopped },
    taskTabs: { currentTabs: async () => ({ ...current }) },
    log: { warn: () => {} },
  });
  return { feed, tabs, sessions, current, stopped, posted, setUp: (/** @type {boolean} */ v) => { up = v; },
    queries: () => queries };
}

test("a connection starts with the whole state, as get_tabs projects it", async () => {
  const { feed, posted } = rig();
  feed.connected();
  await feed.settle();
  assert.equal(posted.length, 1);
  assert.deepEqual(posted[0], {
    seq: 1, full: true, order: [1, 2], unnamed: 0, current: { t1: 2 }, stopped: [],
    tabs: [
      { tab_id: 1, window_id: 10, url: "https://a.test/", title: "A", active: true, task_id: null },
      { tab_id: 2, window_id: 10, url: "https://b.test/", title: "B", active: false, task_id: "t1" },
    ],
  });
});

test("then only what changed, numbered; nothing when nothing changed", async () => {
  const { feed, tabs, posted, sessions, current, stopped } = rig();
  feed.connected();
  await feed.settle();
  tabs[0].title = "A2";
  feed.changed();
  await feed.settle();
  assert.deepEqual(posted[1], { seq: 2, full: false,
    tabs: [{ tab_id: 1, window_id: 10, url: "https://a.test/", title: "A2", active: true, task_id: null }] });
  feed.changed();
  await feed.settle();
  assert.equal(posted.length, 2, "an unchanged state posts nothing");

  tabs.reverse();
  tabs.push({ windowId: 11, url: "devtools://x", title: "", active: true });
  sessions.delete(2);
  current.t1 = 1;
  stopped.push("t9");
  feed.changed();
  await feed.settle();
  assert.deepEqual(posted[2], { seq: 3, full: false, order: [2, 1], unnamed: 1, current: { t1: 1 }, stopped: ["t9"],
    tabs: [{ tab_id: 2, window_id: 10, url: "https://b.test/", title: "B", active: false, task_id: null }] });

  tabs.splice(0, 1);
  feed.changed();
  await feed.settle();
  assert.deepEqual(posted[3], { seq: 4, full: false, order: [1] }, "a removed tab leaves the order");
});

test("changes in one burst are read once; settle(true) reads even when no change was noticed", async () => {
  const { feed, tabs, posted, queries } = rig();
  feed.connected();
  feed.changed();
  feed.changed();
  await feed.settle();
  assert.equal(queries(), 1);
  tabs[1].url = "https://b.test/next";
  await feed.settle();
  assert.equal(posted.length, 1, "settle() waits only for changes it was told of");
  await feed.settle(true);
  assert.equal(posted.length, 2);
  assert.equal(posted[1].tabs[0].url, "https://b.test/next");
});

test("nothing is posted while disconnected; a reconnect starts over with a full frame", async () => {
  const { feed, tabs, posted, setUp } = rig();
  feed.changed();
  await feed.settle(true);
  assert.equal(posted.length, 0, "before the host reached the app");
  feed.connected();
  await feed.settle();
  feed.disconnected();
  setUp(false);
  tabs[0].title = "gone";
  feed.changed();
  await feed.settle(true);
  assert.equal(posted.length, 1);
  setUp(true);
  feed.connected();
  await feed.settle();
  assert.equal(posted.length, 2);
  assert.equal(posted[1].seq, 1);
  assert.equal(posted[1].full, true);
  assert.equal(posted[1].tabs[0].title, "gone");
});

test("a read begun under a connection that closed meanwhile posts nothing", async () => {
  const { feed, posted } = rig();
  feed.connected();
  const first = feed.settle();
  feed.disconnected();
  await first;
  assert.equal(posted.length, 0);
});
