import { test } from "node:test";
import assert from "node:assert/strict";

import { ActionDispatcher } from "../src/wire/action-dispatcher.js";
import { InFlight } from "../src/wire/in-flight.js";
import { permissiveGate, silentLog } from "./chrome-stub.js";

/** A controller double: every send answers after a tick; records what was sent. */
function controller() {
  /** @type {[number, string][]} */
  const sent = [];
  return {
    sent,
    get controller() {
      return this;
    },
    /** @param {number} tabId @param {string} method */
    async send(tabId, method) {
      sent.push([tabId, method]);
      await new Promise((resolve) => setTimeout(resolve, 1));
      return {};
    },
  };
}

/** A polling handler that goes on until its next command fails (as wait_for does). */
async function pollForever(/** @type {any} */ action, /** @type {any} */ ctx) {
  for (;;) await ctx.debugger.send(action.tab_id, "Runtime.callFunctionOn");
}

function setup() {
  const dbg = controller();
  /** @type {any[]} */
  const replies = [];
  const controls = {
    stopAll: async () => ({ ended: [] }),
    endSession: async () => ({ ended: [] }),
    setBlocklist: async () => ({ patterns: ["x.example"], ended: [{ task_id: "t1", tab_id: 7, domain: "x.example" }] }),
  };
  const inFlight = new InFlight();
  const dispatcher = new ActionDispatcher({
    send: (msg) => replies.push(msg) > 0,
    actions: { wait_for: pollForever, evaluate: pollForever },
    services: /** @type {any} */ ({ debugger: dbg }),
    extensionVersion: "0.1.0",
    log: silentLog,
    controls: /** @type {any} */ (controls),
    gate: permissiveGate,
    inFlight,
  });
  /** @param {string} id @param {string} type @param {string} task @param {number} tab */
  const start = (id, type, task, tab) => dispatcher.handle({ v: 1, kind: "request", id, task_id: task, action: { type, tab_id: tab, expression: "while (true) {}", selector: "#never" } });
  /** @param {string} op @param {object} [args] */
  const control = (op, args = {}) => dispatcher.handle({ v: 1, kind: "control", id: `c-${op}`, op, args });
  return { dbg, replies, inFlight, start, control };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

test("Stop all stops the running requests in the extension: their next command fails with stopped", async () => {
  const { dbg, replies, inFlight, start, control } = setup();
  const running = [start("r1", "wait_for", "t1", 7), start("r2", "wait_for", "t2", 8)];
  await tick();
  assert.equal(inFlight.size, 2);
  await control("stop_all");
  await Promise.all(running);
  const answers = replies.filter((r) => r.id !== "c-stop_all");
  // Both requests are stopped at once; which answer is sent first is not part of the contract.
  assert.deepEqual(answers.map((r) => [r.id, r.ok, r.error?.code]).sort(), [["r1", false, "stopped"], ["r2", false, "stopped"]]);
  for (const r of answers) assert.match(r.error.message, /^stopped: Stop all; the action was cut off/);
  const count = dbg.sent.length;
  await tick();
  assert.equal(dbg.sent.length, count, "no more commands after the stop");
  assert.equal(inFlight.size, 0);
});

test("ending one task's session stops only that task's requests", async () => {
  const { replies, start, control } = setup();
  const other = start("r2", "wait_for", "t2", 8);
  const mine = start("r1", "wait_for", "t1", 7);
  await tick();
  await control("end_session", { task_id: "t1" });
  await mine;
  assert.match(replies.find((r) => r.id === "r1").error.message, /stopped: the session was ended/);
  assert.equal(replies.find((r) => r.id === "r2"), undefined, "the other task runs on");
  await control("stop_all");
  await other;
});

test("a blocklist entry stops the requests on the tabs whose sessions it ended", async () => {
  const { replies, start, control } = setup();
  const blocked = start("r1", "wait_for", "t1", 7);
  const elsewhere = start("r2", "wait_for", "t1", 9);
  await tick();
  await control("set_blocklist", { patterns: ["x.example"] });
  await blocked;
  assert.match(replies.find((r) => r.id === "r1").error.message, /stopped: the site was blocked/);
  assert.equal(replies.find((r) => r.id === "r2"), undefined);
  await control("stop_all");
  await elsewhere;
});

test("cancel stops one request's work and leaves the task's others running", async () => {
  const { dbg, replies, start, control } = setup();
  const cancelled = start("r1", "wait_for", "t1", 7);
  const sibling = start("r2", "wait_for", "t1", 7);
  await tick();
  await control("cancel", { request_ids: ["r1"], reason: "cancelled by the MCP client" });
  await cancelled;
  assert.deepEqual(replies.find((r) => r.id === "c-cancel").result, { aborted: 1 });
  assert.match(replies.find((r) => r.id === "r1").error.message, /^stopped: cancelled by the MCP client/);
  assert.equal(replies.find((r) => r.id === "r2"), undefined, "the task's other request runs on");
  const count = dbg.sent.filter(([tab]) => tab === 7).length;
  await tick();
  assert.ok(dbg.sent.filter(([tab]) => tab === 7).length > count, "r2 still polls");
  await control("cancel", { request_ids: ["r1", "r-unknown"] });
  assert.deepEqual(replies.filter((r) => r.id === "c-cancel").at(-1).result, { aborted: 0 }, "a finished id is a no-op");
  await control("cancel", {});
  assert.match(replies.at(-1).error.message, /cancel needs 'request_ids'/);
  await control("stop_all");
  await sibling;
});
