import { test } from "node:test";
import assert from "node:assert/strict";

import { LOAD_GRACE_MS, navigate } from "../src/actions/navigate.js";
import { ACTIONS } from "../src/protocol.js";
import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { TaskTabs } from "../src/tabs/task-tabs.js";
import { BuaWindow } from "../src/tabs/bua-window.js";
import { createChrome, realTimers } from "./chrome-stub.js";

function setup() {
  const chrome = createChrome();
  const api = chrome.debugger;
  const taskTabs = new TaskTabs(chrome.storage.session);
  const ctx = {
    tabs: chrome.tabs,
    debugger: new DebuggerController(api),
    taskTabs,
    buaWindow: new BuaWindow({ windows: chrome.windows, tabs: chrome.tabs, storage: chrome.storage.session }),
    timers: realTimers,
    taskId: "t1",
    requestId: "r1",
  };
  return { chrome, api, taskTabs, ctx };
}

/**
 * Page.navigate commits at once: the tab shows `finalUrl` and, unless
 * `emit` is null, the page then fires that load signal.
 * @param {ReturnType<typeof setup>} s
 * @param {{finalUrl?: string, title?: string, emit?: null | ((tabId: number) => void)}} [opts]
 */
function pageLoads(s, { finalUrl, title = "Fixture page", emit } = {}) {
  let n = 0;
  s.api.handlers["Page.navigate"] = ({ url }, tabId) => {
    const tab = s.chrome.tabs.all.get(tabId);
    tab.url = finalUrl ?? url;
    tab.title = title;
    const loaderId = `L${++n}`;
    const fire = emit === undefined ? () => s.api.emit(tabId, "Page.loadEventFired", { timestamp: 1 }) : emit;
    if (fire) setTimeout(() => fire(tabId), 1);
    return { frameId: "MAIN", loaderId };
  };
}

const nav = (/** @type {Record<string, unknown>} */ fields) => ({ type: "navigate", ...fields });

test("forbidden URLs are refused before any tab or CDP work", async () => {
  const s = setup();
  for (const url of ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,x", "chrome://settings", "about:config"]) {
    await assert.rejects(navigate(nav({ url }), s.ctx), { code: "forbidden_url" }, url);
  }
  assert.equal(s.chrome.tabs.all.size, 0);
  assert.deepEqual(s.api.calls, []);
});

test("a tab_id that does not exist is tab_not_found", async () => {
  const s = setup();
  await assert.rejects(navigate(nav({ url: "http://127.0.0.1:8000/", tab_id: 123 }), s.ctx), {
    code: "tab_not_found",
    message: "tab 123 does not exist; call get_tabs",
  });
});

test("without a current tab it opens an about:blank tab in a new minimised bua window, navigates it and remembers it", async () => {
  const s = setup();
  pageLoads(s);
  const result = await navigate(nav({ url: "http://127.0.0.1:8000/", timeout_ms: 2000 }), s.ctx);
  assert.equal(s.chrome.tabs.all.size, 1);
  const [tab] = s.chrome.tabs.all.values();
  assert.deepEqual(s.chrome.windows.created, [{ url: "about:blank", state: "minimized", focused: false, type: "normal" }]);
  assert.notEqual(tab.windowId, 1, "not in the person's window");
  assert.deepEqual(result, { tab_id: tab.id, url: "http://127.0.0.1:8000/", title: "Fixture page" }, "loaded: no status to say");
  assert.equal(await s.taskTabs.get("t1"), tab.id);
  assert.deepEqual(s.api.calls.map((c) => c.method), [
    "Page.enable", "Emulation.setFocusEmulationEnabled", "Page.setWebLifecycleState",
    "Page.enable", "Page.setLifecycleEventsEnabled", "Page.navigate",
  ]);
  assert.deepEqual(s.api.callsOf("Page.navigate")[0].params, { url: "http://127.0.0.1:8000/" });
});

test("the result url is the final one after redirects", async () => {
  const s = setup();
  pageLoads(s, { finalUrl: "http://127.0.0.1:8000/login?next=%2F" });
  const result = await navigate(nav({ url: "http://127.0.0.1:8000/account" }), s.ctx);
  assert.equal(result.url, "http://127.0.0.1:8000/login?next=%2F");
});

test("the next navigate reuses the task's tab; a closed one is replaced", async () => {
  const s = setup();
  pageLoads(s);
  const first = await navigate(nav({ url: "http://a.test/" }), s.ctx);
  const second = await navigate(nav({ url: "http://b.test/" }), s.ctx);
  assert.equal(second.tab_id, first.tab_id);
  assert.equal(s.chrome.tabs.all.size, 1);
  await s.chrome.tabs.remove(first.tab_id);
  const third = await navigate(nav({ url: "http://c.test/" }), s.ctx);
  assert.notEqual(third.tab_id, first.tab_id);
  assert.equal(await s.taskTabs.get("t1"), third.tab_id);
});

test("tasks get tabs of their own", async () => {
  const s = setup();
  pageLoads(s);
  const a = await navigate(nav({ url: "http://a.test/" }), s.ctx);
  const b = await navigate(nav({ url: "http://b.test/" }), { ...s.ctx, taskId: "t2" });
  assert.notEqual(a.tab_id, b.tab_id);
});

test("an explicit tab_id is navigated and becomes the task's current tab", async () => {
  const s = setup();
  pageLoads(s);
  const mine = s.chrome.tabs.add({ url: "https://example.com/" });
  const result = await navigate(nav({ url: "http://a.test/", tab_id: mine.id }), s.ctx);
  assert.equal(result.tab_id, mine.id);
  assert.equal(s.chrome.tabs.all.size, 1);
  assert.equal(await s.taskTabs.get("t1"), mine.id);
});

test("errorText from Page.navigate is navigation_failed", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = () => ({ frameId: "MAIN", loaderId: "L1", errorText: "net::ERR_CONNECTION_REFUSED" });
  await assert.rejects(navigate(nav({ url: "http://127.0.0.1:9/" }), s.ctx), (err) => {
    assert.equal(/** @type {any} */ (err).code, "navigation_failed");
    assert.match(/** @type {Error} */ (err).message, /net::ERR_CONNECTION_REFUSED/);
    assert.match(/** @type {Error} */ (err).message, /http:\/\/127\.0\.0\.1:9\//);
    return true;
  });
});

test("a CDP error from Page.navigate is navigation_failed", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = () => { throw new Error("Cannot navigate to invalid URL"); };
  await assert.rejects(navigate(nav({ url: "http://a.test/" }), s.ctx), {
    code: "navigation_failed",
    message: /Cannot navigate to invalid URL/,
  });
});

test("no load event within timeout_ms is timeout", async () => {
  const s = setup();
  pageLoads(s, { emit: null });
  await assert.rejects(navigate(nav({ url: "http://slow.test/", timeout_ms: 40 }), s.ctx), {
    code: "timeout",
    message: "page did not finish loading in 40 ms; the page may still be usable: call extract",
  });
  assert.notEqual(await s.taskTabs.get("t1"), undefined, "the tab stays the task's tab for a follow-up extract");
});

test("a Page.navigate that never answers (server stalls) is also timeout", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = () => new Promise(() => {});
  await assert.rejects(navigate(nav({ url: "http://stall.test/", timeout_ms: 30 }), s.ctx), { code: "timeout" });
});

test("a load event from before the Page.navigate response does not count", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = (_params, tabId) => {
    s.api.emit(tabId, "Page.loadEventFired", { timestamp: 0 });
    s.api.emit(tabId, "Page.frameStoppedLoading", { frameId: "MAIN" });
    return { frameId: "MAIN", loaderId: "L1" };
  };
  await assert.rejects(navigate(nav({ url: "http://a.test/", timeout_ms: 40 }), s.ctx), { code: "timeout" });
});

test("a lifecycle load for the new loader counts even when it beats the response", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = (_params, tabId) => {
    s.api.emit(tabId, "Page.lifecycleEvent", { frameId: "MAIN", loaderId: "OLD", name: "load" });
    s.api.emit(tabId, "Page.lifecycleEvent", { frameId: "MAIN", loaderId: "L1", name: "load" });
    return { frameId: "MAIN", loaderId: "L1" };
  };
  const result = await navigate(nav({ url: "http://a.test/", timeout_ms: 1000 }), s.ctx);
  assert.equal(result.status, undefined);
});

test("frameStoppedLoading of the main frame counts, of a child frame not", async () => {
  const s = setup();
  pageLoads(s, { emit: (tabId) => s.api.emit(tabId, "Page.frameStoppedLoading", { frameId: "CHILD" }) });
  await assert.rejects(navigate(nav({ url: "http://a.test/", timeout_ms: 40 }), s.ctx), { code: "timeout" });
  pageLoads(s, { emit: (tabId) => s.api.emit(tabId, "Page.frameStoppedLoading", { frameId: "MAIN" }) });
  const result = await navigate(nav({ url: "http://a.test/", timeout_ms: 1000 }), s.ctx);
  assert.equal(result.status, undefined);
});

test("a same-document navigation (no loaderId) is done when the main frame reports it, load or not", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = ({ url }, tabId) => {
    setTimeout(() => {
      s.chrome.tabs.all.get(tabId).url = url;
      s.api.emit(tabId, "Page.navigatedWithinDocument", { frameId: "CHILD", url: "http://frame.test/#x" });
      s.api.emit(tabId, "Page.navigatedWithinDocument", { frameId: "MAIN", url });
    }, 1);
    return { frameId: "MAIN" };
  };
  const result = await navigate(nav({ url: "http://a.test/#section-2", timeout_ms: 1000 }), s.ctx);
  assert.equal(result.url, "http://a.test/#section-2");
  assert.equal(result.status, undefined);
});

test("a same-document navigation reported before the Page.navigate response counts", async () => {
  const s = setup();
  s.api.handlers["Page.navigate"] = ({ url }, tabId) => {
    s.chrome.tabs.all.get(tabId).url = url;
    s.api.emit(tabId, "Page.navigatedWithinDocument", { frameId: "MAIN", url });
    return { frameId: "MAIN" };
  };
  const result = await navigate(nav({ url: "http://a.test/#top", timeout_ms: 1000 }), s.ctx);
  assert.equal(result.url, "http://a.test/#top");
});

test("a tab closed while loading is tab_not_found", async () => {
  const s = setup();
  pageLoads(s, {
    emit: (tabId) => {
      s.chrome.tabs.all.delete(tabId);
      s.api.forceDetach(tabId, "target_closed");
    },
  });
  await assert.rejects(navigate(nav({ url: "http://a.test/", timeout_ms: 1000 }), s.ctx), {
    code: "tab_not_found",
    message: /was closed while loading/,
  });
});

/** Timers that run only when told, by delay. */
function heldTimers() {
  /** @type {Map<number, {fn: () => void, ms: number}>} */
  const pending = new Map();
  let next = 1;
  return {
    /** @param {() => void} fn @param {number} ms */
    setTimeout(fn, ms) {
      pending.set(next, { fn, ms });
      return next++;
    },
    /** @param {unknown} handle */
    clearTimeout(handle) {
      pending.delete(/** @type {number} */ (handle));
    },
    delays: () => [...pending.values()].map((t) => t.ms),
    /** @param {number} ms */
    run(ms) {
      const [handle, timer] = [...pending.entries()].find(([, t]) => t.ms === ms) ?? [];
      if (handle === undefined) throw new Error(`no timer of ${ms} ms`);
      pending.delete(handle);
      timer.fn();
    },
  };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

test("a ready document whose load event is still waited on answers 'interactive' after the grace, with a note", async () => {
  const s = setup();
  const timers = heldTimers();
  pageLoads(s, { emit: (tabId) => s.api.emit(tabId, "Page.lifecycleEvent", { name: "DOMContentLoaded", frameId: "MAIN", loaderId: "L1" }) });
  const pending = navigate(nav({ url: "http://127.0.0.1:8000/slow-images" }), { ...s.ctx, timers });
  await settle();
  assert.deepEqual(timers.delays(), [ACTIONS.navigate.defaults.timeout_ms, LOAD_GRACE_MS], "the grace starts at DOMContentLoaded");
  timers.run(LOAD_GRACE_MS);
  const result = await pending;
  assert.equal(result.status, "interactive");
  assert.match(result.note, /still loading.*extract now/);
  assert.deepEqual(timers.delays(), [], "no timer is left behind");
});

test("a load event within the grace answers 'loaded'", async () => {
  const s = setup();
  const timers = heldTimers();
  pageLoads(s, { emit: (tabId) => {
    s.api.emit(tabId, "Page.lifecycleEvent", { name: "DOMContentLoaded", frameId: "MAIN", loaderId: "L1" });
    setTimeout(() => s.api.emit(tabId, "Page.lifecycleEvent", { name: "load", frameId: "MAIN", loaderId: "L1" }), 5);
  } });
  const result = await navigate(nav({ url: "http://127.0.0.1:8000/" }), { ...s.ctx, timers });
  assert.equal(result.status, undefined);
  assert.equal(result.note, undefined);
});
