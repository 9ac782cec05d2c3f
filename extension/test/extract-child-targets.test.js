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
    params: { autoAttach: true, waitForDebuggerOnStart: false, flatten: true } }]);
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
