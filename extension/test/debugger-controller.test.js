import { test } from "node:test";
import assert from "node:assert/strict";

import { CdpError, DebuggerController } from "../src/tabs/debugger-controller.js";
import { ActionError } from "../src/protocol.js";
import { createDebugger, createTabs } from "./chrome-stub.js";

function setup() {
  const tabs = createTabs();
  const api = createDebugger(tabs);
  const controller = new DebuggerController(api);
  const tab = tabs.add({ url: "https://example.com/" });
  return { tabs, api, controller, tabId: tab.id };
}

test("attaches lazily on first send, once, with protocol 1.3", async () => {
  const { api, controller, tabId } = setup();
  assert.equal(controller.isAttached(tabId), false);
  assert.equal(api.attachCount, 0);
  await Promise.all([controller.send(tabId, "Page.enable"), controller.send(tabId, "Runtime.enable")]);
  await controller.send(tabId, "DOM.enable");
  assert.equal(api.attachCount, 1);
  assert.equal(controller.isAttached(tabId), true);
  assert.deepEqual(api.calls.map((c) => c.method), ["Page.enable", "Runtime.enable", "DOM.enable"]);
});

test("returns the command result", async () => {
  const { api, controller, tabId } = setup();
  api.handlers["Runtime.evaluate"] = (params) => ({ result: { value: params.expression.length } });
  assert.deepEqual(await controller.send(tabId, "Runtime.evaluate", { expression: "1+1" }), { result: { value: 3 } });
});

test("forgets the tab on onDetach and re-attaches on next use", async () => {
  const { api, controller, tabId } = setup();
  await controller.send(tabId, "Page.enable");
  api.forceDetach(tabId, "canceled_by_user");
  assert.equal(controller.isAttached(tabId), false);
  await controller.send(tabId, "Page.enable");
  assert.equal(api.attachCount, 2);
  assert.equal(controller.isAttached(tabId), true);
});

test("re-attaches when Chrome says it is not attached although we thought so", async () => {
  const { api, controller, tabId } = setup();
  await controller.send(tabId, "Page.enable");
  api.attached.delete(tabId);
  await controller.send(tabId, "Page.reload");
  assert.equal(api.attachCount, 2);
  assert.deepEqual(api.calls.map((c) => c.method), ["Page.enable", "Page.reload"]);
});

test("another debugger on the tab gives a clear error", async () => {
  const { api, controller, tabId } = setup();
  api.heldByOther.add(tabId);
  await assert.rejects(controller.send(tabId, "Page.enable"), (err) => {
    assert.ok(err instanceof ActionError);
    assert.match(err.message, /another tool \(DevTools or another extension\)/);
    assert.match(err.message, new RegExp(`tab ${tabId}`));
    return true;
  });
  assert.equal(controller.isAttached(tabId), false);
  api.heldByOther.delete(tabId);
  await controller.send(tabId, "Page.enable");
  assert.equal(controller.isAttached(tabId), true);
});

test("a session left by a previous worker is taken over", async () => {
  const { api, tabId } = setup();
  api.attached.add(tabId);
  const fresh = new DebuggerController(api);
  await fresh.send(tabId, "Page.enable");
  assert.equal(fresh.isAttached(tabId), true);
  assert.equal(api.callsOf("Page.enable").length, 1);
});

test("a missing tab is tab_not_found; a chrome:// tab is forbidden_url", async () => {
  const { tabs, controller } = setup();
  await assert.rejects(controller.send(999, "Page.enable"), { code: "tab_not_found", message: "tab 999 does not exist; call get_tabs" });
  const settings = tabs.add({ url: "chrome://settings/" });
  await assert.rejects(controller.send(settings.id, "Page.enable"), { code: "forbidden_url" });
});

test("a rejected CDP command becomes a CdpError with Chrome's message", async () => {
  const { api, controller, tabId } = setup();
  api.handlers["DOM.getBoxModel"] = () => { throw new Error("Could not compute box model."); };
  await assert.rejects(controller.send(tabId, "DOM.getBoxModel", { nodeId: 1 }), (err) => {
    assert.ok(err instanceof CdpError);
    assert.equal(err.method, "DOM.getBoxModel");
    assert.equal(err.cdpMessage, "Could not compute box model.");
    return true;
  });
});

test("events go to the tab's subscribers for that method until unsubscribed", async () => {
  const { tabs, api, controller, tabId } = setup();
  const other = tabs.add().id;
  /** @type {any[]} */
  const seen = [];
  const off = controller.on(tabId, "Page.loadEventFired", (params, source) => seen.push([params, source]));
  controller.on(other, "Page.loadEventFired", () => seen.push("other tab"));
  api.emit(tabId, "Page.loadEventFired", { timestamp: 1 });
  api.emit(tabId, "Page.frameNavigated", { frame: {} });
  off();
  api.emit(tabId, "Page.loadEventFired", { timestamp: 2 });
  assert.deepEqual(seen, [[{ timestamp: 1 }, { tabId }]]);
});

test("a throwing event listener does not stop the others", async () => {
  const { api, controller, tabId } = setup();
  let reached = false;
  const warn = console.warn;
  console.warn = () => {};
  try {
    controller.on(tabId, "Page.loadEventFired", () => { throw new Error("bad listener"); });
    controller.on(tabId, "Page.loadEventFired", () => { reached = true; });
    api.emit(tabId, "Page.loadEventFired", {});
  } finally {
    console.warn = warn;
  }
  assert.equal(reached, true);
});

test("onDetach listeners hear the reason", async () => {
  const { api, controller, tabId } = setup();
  /** @type {string[]} */
  const reasons = [];
  const off = controller.onDetach(tabId, (reason) => reasons.push(reason));
  await controller.send(tabId, "Page.enable");
  api.forceDetach(tabId, "target_closed");
  off();
  api.forceDetach(tabId, "target_closed");
  assert.deepEqual(reasons, ["target_closed"]);
});

test("detach releases the tab and never throws", async () => {
  const { api, controller, tabId } = setup();
  await controller.send(tabId, "Page.enable");
  await controller.detach(tabId);
  assert.equal(api.attached.has(tabId), false);
  assert.equal(controller.isAttached(tabId), false);
  await assert.doesNotReject(controller.detach(tabId));
});
