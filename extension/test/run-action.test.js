import { test } from "node:test";
import assert from "node:assert/strict";

import { ACTION_STEPS, runAction } from "../src/wire/run-action.js";
import { ActionError, ErrorCode } from "../src/protocol.js";

test("an action goes through the steps in this order", () => {
  assert.deepEqual(ACTION_STEPS.map((step) => step.name),
    ["checkRequest", "openContext", "passSessionGate", "askPerson", "holdNetwork", "runHandler", "recordSession"]);
});

/**
 * Deps that note which step touched what.
 * @param {string[]} seen
 * @param {{before?: () => Promise<number | undefined>, handler?: () => Promise<unknown>}} [how]
 */
function depsNoting(seen, how = {}) {
  return /** @type {any} */ ({
    actions: { click: async () => { seen.push("handler"); return how.handler ? how.handler() : { clicked: true }; } },
    services: { debugger: {} },
    gate: {
      before: async () => { seen.push("gate"); return how.before ? how.before() : 5; },
      after: async () => { seen.push("after"); },
      holds: () => true,
    },
    confirmations: { check: async () => { seen.push("confirm"); } },
    holds: { begin: async () => { seen.push("hold"); return { settle: async (/** @type {any} */ r) => r, linger: () => seen.push("linger") }; } },
  });
}

/** @param {any} action */
const request = (action) => ({ v: 1, kind: "request", id: "r1", task_id: "t1", action });

/** @param {string[]} seen */
const out = (seen) => ({
  answer: (/** @type {any} */ o) => seen.push(o.ok ? "answer ok" : `answer ${o.error.code ?? o.error.message}`),
  report: (/** @type {any} */ run, /** @type {boolean} */ ok) => seen.push(`report ${run.allowedTab} ${ok}`),
});

test("a click passes the gate, is confirmed, held, handled, recorded, answered and reported", async () => {
  /** @type {string[]} */
  const seen = [];
  await runAction(request({ type: "click", uid: "e1" }), depsNoting(seen), out(seen));
  assert.deepEqual(seen, ["gate", "confirm", "hold", "handler", "linger", "after", "answer ok", "report 5 true"]);
});

test("a request the gate refuses is answered and not reported; later steps do not run", async () => {
  /** @type {string[]} */
  const seen = [];
  const deps = depsNoting(seen, { before: async () => { throw new ActionError(ErrorCode.SESSION_NOT_FOUND, "no session"); } });
  await runAction(request({ type: "click", uid: "e1" }), deps, out(seen));
  assert.deepEqual(seen, ["gate", "answer session_not_found"]);
});

test("a handler that fails still lets the hold linger, and the failure is answered and reported", async () => {
  /** @type {string[]} */
  const seen = [];
  const deps = depsNoting(seen, { handler: async () => { throw new ActionError(ErrorCode.TIMEOUT, "slow"); } });
  await runAction(request({ type: "click", uid: "e1" }), deps, out(seen));
  assert.deepEqual(seen, ["gate", "confirm", "hold", "handler", "linger", "answer timeout", "report 5 false"]);
});

test("a bad request stops at the check, before anything is in flight", async () => {
  /** @type {string[]} */
  const seen = [];
  await runAction(request({ type: "teleport" }), depsNoting(seen), out(seen));
  assert.deepEqual(seen, ["answer invalid_action"]);
});
