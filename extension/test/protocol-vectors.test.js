import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { ActionDispatcher } from "../src/wire/action-dispatcher.js";
import { ACTION_TYPES, CONTROL_OPS, EXTENSION_EVENTS, HOST_EVENTS, errorResponse, eventMessage, okResponse } from "../src/protocol.js";
import { permissiveGate, silentLog } from "./chrome-stub.js";

const vectors = JSON.parse(readFileSync(new URL("./fixtures/protocol-vectors.json", import.meta.url), "utf8"));

function dispatcher() {
  /** @type {any[]} */
  const sent = [];
  const answer = async () => ({});
  const controls = { stopAll: answer, endSession: answer, setBlocklist: answer, configure: answer, showTab: answer, reopenTask: answer };
  const d = new ActionDispatcher({
    send: (msg) => sent.push(msg) > 0,
    actions: Object.fromEntries(ACTION_TYPES.map((t) => [t, answer])),
    services: /** @type {any} */ ({}),
    extensionVersion: "0.1.0",
    log: silentLog,
    gate: permissiveGate,
    controls: /** @type {any} */ (controls),
    holds: /** @type {any} */ ({ answer: () => false, endWhere: () => 0, report: (/** @type {string} */ _task, /** @type {unknown} */ result) => result }),
    strict: /** @type {any} */ ({ set: async (/** @type {any} */ args) => args }),
  });
  return { d, sent };
}

for (const vector of vectors.to_extension) {
  test(`to the extension: ${vector.name}`, async () => {
    const { d, sent } = dispatcher();
    await d.handle(vector.frame);
    const reply = sent.find((m) => m.kind === "response");
    assert.ok(reply, "every frame with an id is answered");
    assert.equal(reply.ok, vector.accepted, JSON.stringify(reply));
    if (!vector.accepted) assert.equal(reply.error.code, vector.code);
  });
}

/** @type {Record<string, (...args: any[]) => unknown>} */
const builders = { ok: okResponse, error: (id, code, message, details) => errorResponse(id, code, message, details), event: eventMessage };

for (const vector of vectors.from_extension) {
  test(`from the extension: ${vector.name}`, () => {
    const [kind, ...args] = vector.build;
    assert.deepEqual(builders[kind](...args), vector.frame);
  });
}

test("the vectors cover every control op and every event type", () => {
  const ops = new Set(vectors.to_extension.filter((v) => v.accepted && v.frame.kind === "control").map((v) => v.frame.op));
  assert.deepEqual([...CONTROL_OPS].filter((op) => !ops.has(op)), []);
  const events = new Set(vectors.from_extension.filter((v) => v.frame.kind === "event").map((v) => v.frame.type));
  assert.deepEqual([...EXTENSION_EVENTS, ...HOST_EVENTS].filter((t) => !events.has(t)), []);
});
