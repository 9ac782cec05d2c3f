import { test } from "node:test";
import assert from "node:assert/strict";

import { CONTROL_TABLE } from "../src/wire/control-ops.js";
import { ActionDispatcher } from "../src/wire/action-dispatcher.js";
import { CONTROL_OPS } from "../src/protocol.js";
import { permissiveGate, silentLog } from "./chrome-stub.js";

test("every control op the app can send has exactly one entry, and every entry is an op the app sends", () => {
  // CONTROL_OPS is generated from app/protocol/envelope.py's ControlOp, the type of Bridge.control's op.
  assert.equal(new Set(CONTROL_OPS).size, CONTROL_OPS.length, "the app declares each op once");
  assert.deepEqual(Object.keys(CONTROL_TABLE).sort(), [...CONTROL_OPS].sort());
  for (const [op, entry] of Object.entries(CONTROL_TABLE)) {
    assert.equal(typeof entry.run, "function", op);
    assert.ok(entry.needs === undefined || entry.needs === "controls" || entry.needs === "strict", op);
  }
});

/** @param {Partial<ConstructorParameters<typeof ActionDispatcher>[0]>} [overrides] */
function setup(overrides = {}) {
  /** @type {any[]} */
  const sent = [];
  const dispatcher = new ActionDispatcher({
    send: (msg) => sent.push(msg) > 0, actions: {}, services: /** @type {any} */ ({}), extensionVersion: "0.1.0",
    log: silentLog, gate: permissiveGate, ...overrides,
  });
  return { dispatcher, sent };
}

test("an op whose part of the build is missing is refused by name; one that needs nothing runs", async () => {
  const { dispatcher, sent } = setup();
  for (const op of CONTROL_OPS) await dispatcher.handle({ v: 1, kind: "control", id: op, op, args: {} });
  for (const m of sent) {
    const needs = CONTROL_TABLE[m.id].needs;
    if (needs) assert.match(m.error.message, new RegExp(`control op '${m.id}' is not available`), m.id);
    else assert.ok(m.ok || m.error.code === "invalid_action", m.id);
  }
  assert.equal(sent.length, CONTROL_OPS.length, "each op answered once");
});

test("an op's bad arguments are invalid_action naming what it needs", async () => {
  const { dispatcher, sent } = setup();
  await dispatcher.handle({ v: 1, kind: "control", id: "c1", op: "answer_hold", args: { hold_id: "h1", decision: "maybe" } });
  await dispatcher.handle({ v: 1, kind: "control", id: "c2", op: "cancel", args: { request_ids: [1] } });
  assert.deepEqual(sent.map((m) => m.error.code), ["invalid_action", "invalid_action"]);
  assert.match(sent[0].error.message, /'decision': 'allow' or 'deny'/);
  assert.match(sent[1].error.message, /'request_ids': a list of the ids/);
});

test("an op name that is an Object.prototype member is an unknown op", async () => {
  const { dispatcher, sent } = setup();
  for (const op of ["toString", "constructor", "__proto__"]) await dispatcher.handle({ v: 1, kind: "control", id: op, op, args: {} });
  assert.deepEqual(sent.map((m) => m.error.code), ["invalid_action", "invalid_action", "invalid_action"]);
  for (const m of sent) assert.match(m.error.message, /unknown control op .*valid ops: ping/);
});

test("set_blocklist aborts the requests on tabs whose sessions the blocklist ended", async () => {
  /** @type {any[]} */
  const aborted = [];
  const inFlight = /** @type {any} */ ({ abortWhere: (/** @type {any} */ pick, /** @type {string} */ why) => {
    aborted.push([[{ tabId: 7 }, { tabId: 8 }].filter(pick).map((r) => r.tabId), why]);
  } });
  const controls = /** @type {any} */ ({ setBlocklist: async () => ({ patterns: ["x.test"], ended: [{ tab_id: 7 }] }) });
  const { dispatcher, sent } = setup({ controls, inFlight });
  await dispatcher.handle({ v: 1, kind: "control", id: "b", op: "set_blocklist", args: { patterns: ["x.test"] } });
  assert.deepEqual(sent[0].result, { patterns: ["x.test"], ended: [{ tab_id: 7 }] });
  assert.deepEqual(aborted, [[[7], "the site was blocked"]]);
});
