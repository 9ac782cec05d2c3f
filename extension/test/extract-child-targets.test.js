import { test } from "node:test";
import assert from "node:assert/strict";

import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { createEvent } from "./chrome-stub.js";

/** A chrome.debugger fake that records debuggees, so child-session routing is visible. */
function fakeApi() {
  const api = {
    /** @type {{debuggee: any, method: string, params: any}[]} */
    calls: [],
    onEvent: createEvent(),
    onDetach: createEvent(),
    async attach() {},
    async detach() {},
    /** @param {any} debuggee @param {string} method @param {any} params */
    async sendCommand(debuggee, method, params) {
      api.calls.push({ debuggee, method, params });
      if (debuggee.sessionId === "gone") throw new Error(JSON.stringify({ code: -32001, message: "No session with given id" }));
      return { ok: true };
    },
  };
  return api;
}

const attached = (/** @type {string} */ sessionId, /** @type {string} */ targetId, url = "https://pay.example/") =>
  ({ sessionId, targetInfo: { targetId, type: "iframe", url }, waitingForDebugger: false });

test("enableChildTargets turns on flat auto-attach once per attachment", async () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api);
  await Promise.all([dbg.enableChildTargets(7), dbg.enableChildTargets(7)]);
  const auto = api.calls.filter((c) => c.method === "Target.setAutoAttach");
  assert.deepEqual(auto, [{ debuggee: { tabId: 7 }, method: "Target.setAutoAttach",
    params: { autoAttach: true, waitForDebuggerOnStart: true, flatten: true } }]);
  api.onDetach.emit({ tabId: 7 }, "canceled_by_user");
  await dbg.enableChildTargets(7);
  assert.equal(api.calls.filter((c) => c.method === "Target.setAutoAttach").length, 2, "again after a re-attach");
});

test("child sessions are tracked, nested ones auto-attach too, and detaches forget them", async () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api);
  await dbg.enableChildTargets(7);
  api.onEvent.emit({ tabId: 7 }, "Target.attachedToTarget", attached("S1", "F1"));
  api.onEvent.emit({ tabId: 7, sessionId: "S1" }, "Target.attachedToTarget", attached("S2", "F2", "https://x.example/"));
  assert.deepEqual(dbg.childTargets(7), [
    { sessionId: "S1", targetId: "F1", type: "iframe", url: "https://pay.example/" },
    { sessionId: "S2", targetId: "F2", type: "iframe", url: "https://x.example/", parentSessionId: "S1" },
  ]);
  assert.ok(api.calls.some((c) => c.method === "Target.setAutoAttach" && c.debuggee.sessionId === "S1"));
  api.onEvent.emit({ tabId: 7 }, "Target.targetInfoChanged", { targetInfo: { targetId: "F1", url: "https://pay.example/step2" } });
  assert.equal(dbg.childTargets(7)[0].url, "https://pay.example/step2");
  api.onEvent.emit({ tabId: 7 }, "Target.detachedFromTarget", { sessionId: "S1" });
  assert.deepEqual(dbg.childTargets(7).map((c) => c.sessionId), ["S2"]);
  api.onDetach.emit({ tabId: 7 }, "target_closed");
  assert.deepEqual(dbg.childTargets(7), []);
});

test("send routes to a child session as {tabId, sessionId}; its errors are not retried on the tab", async () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api);
  await dbg.send(7, "Runtime.evaluate", { expression: "1" }, "S1");
  assert.deepEqual(api.calls.at(-1)?.debuggee, { tabId: 7, sessionId: "S1" });
  await assert.rejects(dbg.send(7, "Runtime.evaluate", {}, "gone"), { name: "CdpError", cdpMessage: "No session with given id" });
  assert.equal(api.calls.at(-1)?.debuggee.sessionId, "gone");
});

test("events of child sessions reach the tab's listeners with the session in source", () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api);
  /** @type {any[]} */
  const seen = [];
  dbg.on(7, "Page.frameNavigated", (params, source) => seen.push([params.frame.id, source.sessionId]));
  api.onEvent.emit({ tabId: 7, sessionId: "S1" }, "Page.frameNavigated", { frame: { id: "F1" } });
  api.onEvent.emit({ tabId: 7 }, "Page.frameNavigated", { frame: { id: "TOP" } });
  assert.deepEqual(seen, [["F1", "S1"], ["TOP", undefined]]);
});

const started = (/** @type {string} */ sessionId, type = "worker") =>
  ({ sessionId, targetInfo: { targetId: `T-${sessionId}`, type, url: "https://a.example/w.js" }, waitingForDebugger: true });
const resumed = (/** @type {any} */ api) =>
  api.calls.filter((/** @type {any} */ c) => c.method === "Runtime.runIfWaitingForDebugger").map((/** @type {any} */ c) => c.debuggee.sessionId);
const turn = () => new Promise((resolve) => setTimeout(resolve, 0));

test("a child that starts paused runs once its start hooks settled, after what they sent", async () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api);
  /** @type {() => void} */
  let finish = () => {};
  const off = dbg.onChildStart(7, (child) => {
    api.calls.push({ debuggee: { tabId: 7, sessionId: child.sessionId }, method: "hook", params: child.type });
    return new Promise((resolve) => { finish = () => resolve(undefined); });
  });
  api.onEvent.emit({ tabId: 7 }, "Target.attachedToTarget", started("W1"));
  await turn();
  assert.deepEqual(resumed(api), [], "still paused while the hook works");
  finish();
  await turn();
  assert.deepEqual(resumed(api), ["W1"]);
  const order = api.calls.filter((c) => c.debuggee.sessionId === "W1").map((c) => c.method);
  assert.deepEqual(order, ["Target.setAutoAttach", "hook", "Runtime.runIfWaitingForDebugger"]);
  off();
  api.onEvent.emit({ tabId: 7 }, "Target.attachedToTarget", started("W2"));
  await turn();
  assert.deepEqual(resumed(api), ["W1", "W2"], "with no hook it runs at once");
});

test("a child is never left paused: a failing hook or one that hangs past the ceiling still resumes it", async () => {
  const api = fakeApi();
  const dbg = new DebuggerController(api, { childStartCeilingMs: 20 });
  dbg.onChildStart(7, () => { throw new Error("boom"); });
  dbg.onChildStart(7, () => new Promise(() => {}));
  api.onEvent.emit({ tabId: 7 }, "Target.attachedToTarget", started("W1"));
  await turn();
  assert.deepEqual(resumed(api), []);
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.deepEqual(resumed(api), ["W1"]);
  api.onEvent.emit({ tabId: 7 }, "Target.attachedToTarget", attached("S9", "F9"));
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.deepEqual(resumed(api), ["W1"], "a child Chrome did not pause is not resumed");
});
