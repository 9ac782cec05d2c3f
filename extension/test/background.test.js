import { test } from "node:test";
import assert from "node:assert/strict";

import { createChrome } from "./chrome-stub.js";

const chrome = createChrome();
Object.assign(globalThis, {
  chrome,
  navigator: { userAgent: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36" },
});
await import("../background.js");

/** Let the dispatcher's promises settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

/**
 * Wait (up to 2 s: a loaded machine) until the worker has answered `id`; its answer.
 * @param {any} port
 * @param {string} id
 */
const answered = async (port, id) => {
  for (let i = 0; i < 200 && !port.sent.some((/** @type {any} */ m) => m.id === id); i++) await settle();
  return port.sent.find((/** @type {any} */ m) => m.id === id);
};

test("the worker connects to the host at start-up", () => {
  assert.equal(chrome.runtime.ports.length, 1);
  assert.equal(chrome.runtime.lastPort.name, "com.bua.native_host");
});

test("host_ready is answered with hello", async () => {
  const port = chrome.runtime.lastPort;
  port.onMessage.emit({ v: 1, kind: "event", type: "host_ready", data: {} });
  await settle();
  const sent = /** @type {any[]} */ (port.sent);
  const at = sent.findIndex((m) => m.type === "hello");
  const hello = sent[at];
  // Then the tab state the app mirrors, whole (tabs/tab-feed.js).
  assert.deepEqual(sent.slice(at + 1).map((m) => [m.type, m.data.full, m.data.seq]), [["tab_state", true, 1]]);
  assert.equal(hello.v, 1);
  assert.equal(hello.kind, "event");
  assert.equal(hello.type, "hello");
  assert.equal(hello.data.extension_version, "0.1.0");
  assert.equal(hello.data.browser, "Chrome 156.0.0.0");
  assert.equal(hello.data.user_agent, globalThis.navigator.userAgent);
  assert.equal(hello.data.profile_id, chrome.storage.local.data["bua.profileId"]);
});

test("requests are dispatched and answered on the port", async () => {
  const port = chrome.runtime.lastPort;
  port.onMessage.emit({ v: 1, kind: "control", id: "c1", op: "ping", args: {} });
  port.onMessage.emit({ v: 1, kind: "request", id: "r1", task_id: "t1", action: { type: "get_tabs" } });
  await settle();
  assert.deepEqual(port.sent.slice(-2), [
    { v: 1, kind: "response", id: "c1", ok: true, result: { pong: true, extension_version: "0.1.0" } },
    { v: 1, kind: "response", id: "r1", ok: true, result: { tabs: [], other_tabs: 0 } },
  ]);
});

test("a closed tab is forgotten by its task", async () => {
  const port = chrome.runtime.lastPort;
  chrome.debugger.handlers["Page.navigate"] = (_params, tabId) => {
    setTimeout(() => chrome.debugger.emit(tabId, "Page.loadEventFired", {}), 1);
    return { frameId: "MAIN", loaderId: "L1" };
  };
  port.onMessage.emit({ v: 1, kind: "request", id: "r2", task_id: "t9", action: { type: "navigate", url: "http://a.test/" } });
  const response = await answered(port, "r2");
  await settle();
  assert.equal(response.ok, true);
  assert.deepEqual(port.sent.at(-1), { v: 1, kind: "event", type: "action_done",
    data: { task_id: "t9", tab_id: response.result.tab_id, action: "navigate", ok: true } }, "after the answer");
  assert.deepEqual(chrome.storage.session.data["bua.taskTabs"], { t9: response.result.tab_id });
  await chrome.tabs.remove(response.result.tab_id);
  await settle();
  assert.deepEqual(chrome.storage.session.data["bua.taskTabs"], {});
  const closed = port.sent.filter((m) => /** @type {any} */ (m).type === "tab_closed" || /** @type {any} */ (m).type === "session_ended");
  assert.deepEqual(closed.map((m) => [/** @type {any} */ (m).type, /** @type {any} */ (m).data.tab_id]),
    [["tab_closed", response.result.tab_id], ["session_ended", response.result.tab_id]]);
});

test("hello lists live sessions; a closed session tab ends its session with an event", async () => {
  const port = chrome.runtime.lastPort;
  const tab = chrome.tabs.add({ url: "http://a.test/" });
  port.onMessage.emit({ v: 1, kind: "control", id: "b1", op: "set_blocklist", args: { patterns: ["bank.test"] } });
  assert.deepEqual((await answered(port, "b1")).result, { patterns: ["bank.test"], ended: [] });
  assert.deepEqual(chrome.storage.local.data["bua.blocklist"], ["bank.test"]);
  port.onMessage.emit({ v: 1, kind: "request", id: "n1", task_id: "t9",
    action: { type: "navigate", url: "https://www.bank.test/" } });
  assert.equal((await answered(port, "n1")).error.code, "blocked");
  port.onMessage.emit({ v: 1, kind: "request", id: "x1", task_id: "t9", action: { type: "close_tab", tab_id: tab.id } });
  assert.equal((await answered(port, "x1")).error.code, "session_not_found", "a tab the person opened is not the task's");
});

test("idle ends every session and configure sets the idle threshold", async () => {
  const port = chrome.runtime.lastPort;
  port.onMessage.emit({ v: 1, kind: "control", id: "cfg", op: "configure", args: { idle_threshold_s: 300 } });
  await settle();
  assert.deepEqual(port.sent.at(-1).result, { idle_threshold_s: 300 });
  assert.deepEqual(chrome.idle.intervals, [300]);
});

/**
 * A navigate of `taskId` to `url` in a new tab; its tab id.
 * @param {any} port
 * @param {string} id
 * @param {string} taskId
 * @param {string} url
 */
async function navigated(port, id, taskId, url) {
  chrome.debugger.handlers["Page.navigate"] = (_params, tabId) => {
    setTimeout(() => chrome.debugger.emit(tabId, "Page.loadEventFired", {}), 1);
    return { frameId: "MAIN", loaderId: "L1" };
  };
  port.onMessage.emit({ v: 1, kind: "request", id, task_id: taskId, action: { type: "navigate", url } });
  const response = await answered(port, id);
  assert.equal(response.ok, true, JSON.stringify(response.error));
  return /** @type {number} */ (response.result.tab_id);
}

/**
 * Run `body` with console.warn and console.info noted instead of printed.
 * @param {(noted: {warn: string[], info: string[]}) => Promise<void>} body
 */
async function withConsole(body) {
  const { warn, info } = console;
  /** @type {{warn: string[], info: string[]}} */
  const noted = { warn: [], info: [] };
  console.warn = (...args) => noted.warn.push(args.map(String).join(" "));
  console.info = (...args) => noted.info.push(args.map(String).join(" "));
  try {
    await body(noted);
  } finally {
    Object.assign(console, { warn, info });
  }
}

test("a session tab whose move cannot be checked is logged, and the next action on it answers why and what to do", async () => {
  const port = chrome.runtime.lastPort;
  const tabId = await navigated(port, "f1", "t5", "http://c.test/");
  const storage = chrome.storage.session;
  const save = storage.set;
  await withConsole(async (noted) => {
    storage.set = async () => { throw new Error("storage quota exceeded"); };
    try {
      chrome.tabs.all.get(tabId).url = "http://d.test/";
      chrome.tabs.onUpdated.emit(tabId, { url: "http://d.test/" });
      for (let i = 0; i < 200 && noted.warn.length === 0; i++) await settle();
      assert.equal(noted.warn.length, 1);
      assert.match(noted.warn[0], new RegExp(`could not check where session tab ${tabId} went.*storage quota exceeded`));
      // It moves on before the next action, and saving where it is still fails: the action does not run.
      chrome.tabs.all.get(tabId).url = "http://d2.test/";
      port.onMessage.emit({ v: 1, kind: "request", id: "f2", task_id: "t5", action: { type: "close_tab", tab_id: tabId } });
      const refused = await answered(port, "f2");
      assert.equal(refused.error.code, "internal_error");
      assert.match(refused.error.message, new RegExp(`which site tab ${tabId} is on now \\(storage quota exceeded\\).*did not run: retry it once`));
      assert.ok(chrome.tabs.all.has(tabId), "the action did not run");
    } finally {
      storage.set = save;
    }
    port.onMessage.emit({ v: 1, kind: "request", id: "f3", task_id: "t5", action: { type: "close_tab", tab_id: tabId } });
    assert.equal((await answered(port, "f3")).ok, true, "checked again once storage works, the action runs");
  });
});

test("a session tab that reaches a blocked site ends its session, which is no failure to log", async () => {
  const port = chrome.runtime.lastPort;
  const tabId = await navigated(port, "g1", "t6", "http://e.test/");
  await withConsole(async (noted) => {
    chrome.tabs.all.get(tabId).url = "https://www.bank.test/login";
    chrome.tabs.onUpdated.emit(tabId, { url: "https://www.bank.test/login" });
    for (let i = 0; i < 200 && noted.info.length === 0; i++) await settle();
    assert.deepEqual(noted.warn, []);
    assert.match(noted.info[0], /reached a blocked site/);
  });
  const ended = port.sent.filter((m) => /** @type {any} */ (m).type === "session_ended" && /** @type {any} */ (m).data.tab_id === tabId);
  assert.deepEqual(ended.map((m) => /** @type {any} */ (m).data.reason), ["blocked"]);
});
