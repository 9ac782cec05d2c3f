import { test } from "node:test";
import assert from "node:assert/strict";

import { MAX_ENTRIES, MAX_TEXT, PageLogs, SLOW_MS } from "../src/tabs/tab-log.js";
import { newestThatFit, MAX_RESULT_CHARS } from "../src/actions/page-log.js";

function fakeDebugger() {
  /** @type {Map<string, Set<Function>>} */
  const listeners = new Map();
  /** @type {string[]} */
  const sent = [];
  let attached = true;
  /** @type {Set<Function>} */
  const detachers = new Set();
  return {
    sent,
    on: (/** @type {number} */ _tab, /** @type {string} */ method, /** @type {Function} */ fn) => {
      if (!listeners.has(method)) listeners.set(method, new Set());
      listeners.get(method)?.add(fn);
      return () => listeners.get(method)?.delete(fn);
    },
    send: async (/** @type {number} */ _tab, /** @type {string} */ method) => {
      sent.push(method);
      attached = true;
      return {};
    },
    isAttached: () => attached,
    onDetach: (/** @type {number} */ _tab, /** @type {Function} */ fn) => {
      detachers.add(fn);
      return () => detachers.delete(fn);
    },
    detach() {
      attached = false;
      for (const fn of [...detachers]) fn();
    },
    /** @param {string} method @param {any} params @param {any} [source] */
    emit(method, params, source = { tabId: 1 }) {
      for (const fn of listeners.get(method) ?? []) fn(params, source);
    },
    listenerCount: () => [...listeners.values()].reduce((n, s) => n + s.size, 0),
  };
}

test("the domains are turned on once per attachment, and again after a re-attachment", async () => {
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg);
  await logs.start(1);
  await logs.start(1);
  assert.deepEqual(dbg.sent.sort(), ["Log.enable", "Network.enable", "Runtime.enable"]);
  dbg.detach();
  await logs.start(1);
  assert.equal(dbg.sent.length, 6);
});

test("console, errors and network entries are numbered, cut and capped; since leaves out what was read", async () => {
  let now = 1000;
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg, () => now);
  await logs.start(1);
  dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: "hi" }, { type: "number", value: 3 }, { type: "object", description: "Object" }] });
  dbg.emit("Log.entryAdded", { entry: { source: "network", level: "error", text: "x".repeat(2 * MAX_TEXT), url: "http://a/b", lineNumber: 4 } });
  dbg.emit("Runtime.exceptionThrown", { exceptionDetails: { text: "Uncaught", exception: { description: "Error: boom\n    at f" }, url: "http://a/", lineNumber: 9 } });
  dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: "child frame" }] }, { tabId: 1, sessionId: "s1" });
  const console = logs.read(1, "console");
  assert.deepEqual(console.entries[0], { seq: 1, t_ms: 0, level: "log", text: "hi 3 Object" });
  assert.equal(console.entries[1].text.length, MAX_TEXT);
  assert.equal(console.entries[1].at, "http://a/b:5");
  assert.equal(console.entries.length, 2, "only the tab's own session is listened to");
  assert.deepEqual(logs.read(1, "errors").entries, [{ seq: 3, t_ms: 0, message: "Error: boom\n    at f", at: "http://a/:10" }]);
  assert.deepEqual(logs.read(1, "console", 1).entries.map((e) => e.seq), [2]);
  for (let i = 0; i < MAX_ENTRIES + 5; i++) dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: `m${i}` }] });
  const capped = logs.read(1, "console");
  assert.equal(capped.entries.length, MAX_ENTRIES);
  assert.equal(capped.dropped, 7);
  assert.equal(capped.entries.at(-1)?.text, `m${MAX_ENTRIES + 4}`);
  now = 1500;
  assert.equal(logs.read(1, "console").began_ms_ago, 500);
});

test("requests: HTTP errors at their headers, failures, slow ones when finished and when still pending", async () => {
  let now = 0;
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg, () => now);
  await logs.start(1);
  const send = (/** @type {string} */ id, /** @type {string} */ url, /** @type {number} */ t) =>
    dbg.emit("Network.requestWillBeSent", { requestId: id, request: { url, method: "GET" }, type: "Fetch", timestamp: t });
  send("a", "http://x/404", 1);
  dbg.emit("Network.responseReceived", { requestId: "a", response: { status: 404 }, timestamp: 1.02 });
  send("b", "http://x/refused", 2);
  dbg.emit("Network.loadingFailed", { requestId: "b", errorText: "net::ERR_CONNECTION_REFUSED", timestamp: 2.005 });
  send("c", "http://x/fast", 3);
  dbg.emit("Network.responseReceived", { requestId: "c", response: { status: 200 }, timestamp: 3.1 });
  dbg.emit("Network.loadingFinished", { requestId: "c", timestamp: 3.2 });
  send("d", "http://x/slow", 4);
  dbg.emit("Network.loadingFinished", { requestId: "d", timestamp: 4 + (SLOW_MS + 500) / 1000 });
  send("e", "http://x/hanging", 5);
  now = SLOW_MS + 1;
  const entries = logs.read(1, "network").entries;
  assert.deepEqual(entries.map((e) => [e.url, e.outcome, e.ms]), [
    ["http://x/404", "http_error", 20],
    ["http://x/refused", "failed", 5],
    ["http://x/slow", "slow", SLOW_MS + 500],
    ["http://x/hanging", "pending", SLOW_MS + 1],
  ]);
  assert.equal(entries[1].error, "net::ERR_CONNECTION_REFUSED");
  assert.equal(entries[0].status, 404);
});

test("forget stops listening and drops the tab's log", async () => {
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg);
  await logs.start(1);
  assert.ok(dbg.listenerCount() > 0);
  logs.forget(1);
  assert.equal(dbg.listenerCount(), 0);
  assert.equal(logs.read(1, "console").listening, false);
});

test("an answer keeps the newest entries that fit its budget", () => {
  const entries = Array.from({ length: 100 }, (_, i) => ({ seq: i + 1, text: "y".repeat(500) }));
  const kept = newestThatFit(entries);
  assert.ok(kept.length < 100 && kept.length > 10);
  assert.equal(kept.at(-1)?.seq, 100);
  assert.ok(JSON.stringify(kept).length <= MAX_RESULT_CHARS);
});

test("what Runtime and Log replay when turned on again is not logged twice", async () => {
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg);
  await logs.start(1);
  dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: "once" }], timestamp: 100 });
  dbg.emit("Log.entryAdded", { entry: { source: "network", level: "error", text: "404", timestamp: 101 } });
  dbg.detach();
  await logs.start(1);
  dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: "once" }], timestamp: 100 });
  dbg.emit("Log.entryAdded", { entry: { source: "network", level: "error", text: "404", timestamp: 101 } });
  dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value: "new" }], timestamp: 200 });
  assert.deepEqual(logs.read(1, "console").entries.map((e) => e.text), ["once", "404", "new"]);
});

test("messages logged in the same millisecond are all kept", async () => {
  const dbg = fakeDebugger();
  const logs = new PageLogs(dbg);
  await logs.start(1);
  for (const value of ["a", "b", "c"]) dbg.emit("Runtime.consoleAPICalled", { type: "log", args: [{ type: "string", value }], timestamp: 500 });
  assert.deepEqual(logs.read(1, "console").entries.map((e) => e.text), ["a", "b", "c"]);
});
