import { test } from "node:test";
import assert from "node:assert/strict";

import { ActionDispatcher } from "../src/wire/action-dispatcher.js";
import { ACTION_TYPES, ActionError, ErrorCode } from "../src/protocol.js";
import { permissiveGate, silentLog } from "./chrome-stub.js";

/** @param {Partial<ConstructorParameters<typeof ActionDispatcher>[0]>} [overrides] */
function setup(overrides = {}) {
  /** @type {any[]} */
  const sent = [];
  const dispatcher = new ActionDispatcher({
    send: (msg) => {
      sent.push(msg);
      return true;
    },
    actions: {},
    services: /** @type {any} */ ({ marker: "services" }),
    extensionVersion: "0.1.0",
    log: silentLog,
    gate: permissiveGate,
    ...overrides,
  });
  return { dispatcher, sent };
}

/** @param {any} action */
const request = (action, id = "r1") => ({ v: 1, kind: "request", id, task_id: "t1", action });

test("ping answers pong with the extension version", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "control", id: "c3", op: "ping", args: {} });
  assert.deepEqual(sent, [
    { v: 1, kind: "response", id: "c3", ok: true, result: { pong: true, extension_version: "0.1.0" } },
  ]);
});

test("an unknown control op names the valid ops", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "control", id: "c4", op: "reboot", args: {} });
  assert.equal(sent.length, 1);
  assert.equal(sent[0].id, "c4");
  assert.equal(sent[0].ok, false);
  assert.equal(sent[0].error.code, "invalid_action");
  assert.match(sent[0].error.message, /reboot/);
  assert.match(sent[0].error.message, /ping, stop_all, end_session, set_blocklist/);
});

test("session control ops without session controls are refused clearly", async () => {
  const { dispatcher, sent } = setup();
  for (const op of ["stop_all", "end_session", "set_blocklist", "configure"]) {
    await dispatcher.handle({ v: 1, kind: "control", id: op, op, args: {} });
  }
  assert.deepEqual(sent.map((m) => [m.id, m.ok, m.error.code]), [
    ["stop_all", false, "invalid_action"],
    ["end_session", false, "invalid_action"],
    ["set_blocklist", false, "invalid_action"],
    ["configure", false, "invalid_action"],
  ]);
  for (const m of sent) assert.match(m.error.message, /not available/);
});

test("an unknown kind with an id is answered, without an id ignored", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "gossip", id: "x1" });
  await dispatcher.handle({ v: 1, kind: "gossip" });
  assert.equal(sent.length, 1);
  assert.equal(sent[0].id, "x1");
  assert.equal(sent[0].error.code, "invalid_action");
  assert.match(sent[0].error.message, /gossip/);
});

test("a missing or wrong protocol version is treated like an unknown kind", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ kind: "control", id: "a", op: "ping" });
  await dispatcher.handle({ v: 2, kind: "control", id: "b", op: "ping" });
  await dispatcher.handle({ v: 2, kind: "control", op: "ping" });
  assert.deepEqual(sent.map((m) => [m.id, m.error.code]), [["a", "invalid_action"], ["b", "invalid_action"]]);
  assert.match(sent[1].error.message, /version 2/);
});

test("non-object messages and responses are ignored", async () => {
  const { dispatcher, sent } = setup();
  for (const msg of [null, 42, "hi", [1, 2], { v: 1, kind: "response", id: "r9", ok: true }]) {
    await dispatcher.handle(msg);
  }
  assert.deepEqual(sent, []);
});

test("an unknown action type lists the valid types", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle(request({ type: "teleport" }));
  assert.equal(sent[0].error.code, "invalid_action");
  assert.match(sent[0].error.message, /teleport/);
  assert.match(sent[0].error.message, new RegExp(ACTION_TYPES.join(", ")));
});

test("a missing action or type is invalid_action", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "request", id: "r1", task_id: "t1" });
  await dispatcher.handle(request({ url: "http://x/" }, "r2"));
  assert.deepEqual(sent.map((m) => [m.id, m.error.code]), [["r1", "invalid_action"], ["r2", "invalid_action"]]);
});

test("a request without an id is ignored", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "request", task_id: "t1", action: { type: "get_tabs" } });
  assert.deepEqual(sent, []);
});

test("action types of later slices answer not implemented", async () => {
  const { dispatcher, sent } = setup({ actions: { navigate: async () => ({}), get_tabs: async () => ({}) } });
  await dispatcher.handle(request({ type: "click", uid: "e1" }));
  assert.deepEqual(sent[0].error, {
    code: "invalid_action",
    message: "'click' is not implemented yet in this extension version",
  });
});

test("missing required fields are invalid_action", async () => {
  let called = false;
  const { dispatcher, sent } = setup({ actions: { navigate: async () => { called = true; } } });
  await dispatcher.handle(request({ type: "navigate" }));
  await dispatcher.handle(request({ type: "navigate", url: null }, "r2"));
  assert.equal(called, false);
  assert.deepEqual(sent.map((m) => [m.id, m.error.code]), [["r1", "invalid_action"], ["r2", "invalid_action"]]);
  assert.match(sent[0].error.message, /'navigate' needs 'url'/);
});

test("a handler gets the action, the services, the task id and the request id", async () => {
  /** @type {any[]} */
  const calls = [];
  const { dispatcher, sent } = setup({
    actions: { get_tabs: async (action, ctx) => { calls.push({ action, ctx }); return { tabs: [] }; } },
  });
  await dispatcher.handle(request({ type: "get_tabs" }, "r7"));
  assert.deepEqual(sent, [{ v: 1, kind: "response", id: "r7", ok: true, result: { tabs: [] } }]);
  assert.deepEqual(calls[0].action, { type: "get_tabs" });
  assert.equal(calls[0].ctx.taskId, "t1");
  assert.equal(calls[0].ctx.requestId, "r7");
  assert.equal(calls[0].ctx.marker, "services");
});

test("an ActionError keeps its code; any other exception is internal_error", async () => {
  const { dispatcher, sent } = setup({
    actions: {
      navigate: async () => { throw new ActionError(ErrorCode.TIMEOUT, "too slow"); },
      get_tabs: async () => { throw new TypeError("cannot read properties of undefined"); },
    },
  });
  await dispatcher.handle(request({ type: "navigate", url: "http://x/" }, "r1"));
  await dispatcher.handle(request({ type: "get_tabs" }, "r2"));
  assert.deepEqual(sent[0].error, { code: "timeout", message: "too slow" });
  assert.deepEqual(sent[1].error, { code: "internal_error", message: "cannot read properties of undefined",
    page_text: ["cannot read properties of undefined"] }, "nobody wrote it for the model: it counts as page text");
});

test("a synchronous throw in a handler is also internal_error", async () => {
  const { dispatcher, sent } = setup({
    actions: { get_tabs: /** @type {any} */ (() => { throw new Error("sync boom"); }) },
  });
  await dispatcher.handle(request({ type: "get_tabs" }));
  assert.deepEqual(sent[0].error, { code: "internal_error", message: "sync boom", page_text: ["sync boom"] });
});

test("host_ready calls onHostReady; host_error and unknown events are ignored", async () => {
  let ready = 0;
  const { dispatcher, sent } = setup({ onHostReady: () => { ready++; } });
  await dispatcher.handle({ v: 1, kind: "event", type: "host_ready", data: {} });
  await dispatcher.handle({ v: 1, kind: "event", type: "host_error", data: { message: "app gone" } });
  await dispatcher.handle({ v: 1, kind: "event", type: "weather", data: {} });
  assert.equal(ready, 1);
  assert.deepEqual(sent, []);
});

test("a failing onHostReady does not escape handle()", async () => {
  const { dispatcher, sent } = setup({ onHostReady: async () => { throw new Error("storage down"); } });
  await assert.doesNotReject(dispatcher.handle({ v: 1, kind: "event", type: "host_ready", data: {} }));
  assert.deepEqual(sent, []);
});

test("a response that cannot be posted is replaced by an error for the same id", async () => {
  /** @type {any[]} */
  const sent = [];
  const { dispatcher } = setup({
    send: (msg) => {
      if (/** @type {any} */ (msg).ok) throw new Error("Message exceeds maximum allowed size");
      sent.push(msg);
      return true;
    },
    actions: { get_tabs: async () => ({ tabs: [] }) },
  });
  await dispatcher.handle(request({ type: "get_tabs" }, "r5"));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].id, "r5");
  assert.equal(sent[0].ok, false);
  assert.equal(sent[0].error.code, "internal_error");
});

test("numeric ids are echoed as given", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "control", id: 17, op: "ping", args: {} });
  assert.equal(sent[0].id, 17);
});

test("after each answer, an action on a session tab is reported to the app; a failed one too", async () => {
  const gate = { before: async () => 7, after: async () => {}, holds: (/** @type {string} */ task, /** @type {number} */ tab) => task === "t1" && tab === 7 };
  const { dispatcher, sent } = setup({
    gate: /** @type {any} */ (gate),
    actions: {
      extract: async () => ({ title: "T" }),
      click: async () => { throw new ActionError(ErrorCode.NOT_INTERACTABLE, "covered"); },
    },
  });
  await dispatcher.handle(request({ type: "extract" }, "r1"));
  await dispatcher.handle(request({ type: "click", uid: "e1" }, "r2"));
  assert.deepEqual(sent.map((m) => [m.kind, m.id ?? m.type, m.ok ?? m.data.ok]), [
    ["response", "r1", true], ["event", "action_done", true],
    ["response", "r2", false], ["event", "action_done", false],
  ]);
  assert.deepEqual(sent[3].data, { task_id: "t1", tab_id: 7, action: "click", ok: false });
});

test("the dispatcher refuses to be built without a session gate", () => {
  assert.throws(() => setup({ gate: /** @type {any} */ (undefined) }), /needs a session gate/);
});

test("an answer is posted only after the tab state it may have changed (forced for an action that may change tabs)", async () => {
  /** @type {any[]} */
  const order = [];
  const tabFeed = {
    settle: async (/** @type {boolean | undefined} */ force) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`settled${force ? " (forced)" : ""}`);
    },
  };
  const sent = order;
  const dispatcher = new ActionDispatcher({
    send: (msg) => { sent.push(/** @type {any} */ (msg).id); return true; },
    actions: { open_tab: async () => ({ tab_id: 5 }), get_tabs: async () => ({ tabs: [], other_tabs: 0 }) },
    services: /** @type {any} */ ({}), extensionVersion: "0.1.0", log: silentLog, gate: permissiveGate, tabFeed,
  });
  await dispatcher.handle(request({ type: "open_tab", url: "https://a.test/" }, "r-open"));
  await dispatcher.handle(request({ type: "get_tabs" }, "r-read"));
  await dispatcher.handle(request({ type: "no_such_action" }, "r-bad")); // refused before it ran: nothing to force
  await dispatcher.handle({ v: 1, kind: "control", id: "c-ping", op: "ping", args: {} });
  assert.deepEqual(order, ["settled (forced)", "r-open", "settled", "r-read", "settled", "r-bad", "settled", "c-ping"]);
});
