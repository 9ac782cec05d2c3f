import { test } from "node:test";
import assert from "node:assert/strict";

import { BACKOFF_INITIAL_MS, BACKOFF_MAX_MS, HOST_NAME, NativePort } from "../src/wire/native-port.js";
import { createFakeTimers, createRuntime, silentLog } from "./chrome-stub.js";

const HOST_READY = { v: 1, kind: "event", type: "host_ready", data: {} };

function setup() {
  const runtime = createRuntime();
  const timers = createFakeTimers();
  const port = new NativePort({ runtime, timers, log: silentLog });
  return { runtime, timers, port };
}

/** Close the current port and run the reconnect timer; returns the delay used. */
function dropAndReconnect(/** @type {ReturnType<typeof setup>} */ { runtime, timers }) {
  runtime.closePort(runtime.lastPort, "Specified native messaging host not found.");
  assert.equal(timers.delays.length, 1, "one reconnect scheduled");
  return timers.runNext();
}

test("connects to the bua host at start-up", () => {
  const { runtime, port } = setup();
  port.start();
  assert.equal(runtime.ports.length, 1);
  assert.equal(runtime.lastPort.name, HOST_NAME);
  assert.equal(port.connected, true);
});

test("reconnects after onDisconnect with a doubling backoff capped at 5 s", () => {
  const s = setup();
  s.port.start();
  const delays = [];
  for (let i = 0; i < 8; i++) delays.push(dropAndReconnect(s));
  assert.deepEqual(delays, [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
  assert.equal(BACKOFF_INITIAL_MS, 250);
  assert.equal(BACKOFF_MAX_MS, 5000);
  assert.equal(s.runtime.ports.length, 9);
  assert.equal(s.port.connected, true);
});

test("host_ready resets the backoff", () => {
  const s = setup();
  s.port.start();
  for (let i = 0; i < 4; i++) dropAndReconnect(s);
  assert.equal(s.port.nextDelayMs, 4000);
  s.runtime.lastPort.onMessage.emit(HOST_READY);
  assert.equal(s.port.nextDelayMs, 250);
  assert.equal(dropAndReconnect(s), 250);
  assert.equal(dropAndReconnect(s), 500);
});

test("other messages do not reset the backoff", () => {
  const s = setup();
  s.port.start();
  dropAndReconnect(s);
  dropAndReconnect(s);
  s.runtime.lastPort.onMessage.emit({ v: 1, kind: "event", type: "host_error", data: {} });
  s.runtime.lastPort.onMessage.emit({ v: 1, kind: "control", id: "c1", op: "ping", args: {} });
  assert.equal(s.port.nextDelayMs, 1000);
});

test("passes every host message to onMessage, host_ready included", () => {
  const { runtime, port } = setup();
  const seen = [];
  port.onMessage = (msg) => seen.push(msg);
  port.start();
  runtime.lastPort.onMessage.emit(HOST_READY);
  runtime.lastPort.onMessage.emit({ v: 1, kind: "request", id: "r1" });
  assert.deepEqual(seen, [HOST_READY, { v: 1, kind: "request", id: "r1" }]);
});

test("an onMessage that throws does not break the port", () => {
  const { runtime, port } = setup();
  port.onMessage = () => {
    throw new Error("boom");
  };
  port.start();
  assert.doesNotThrow(() => runtime.lastPort.onMessage.emit(HOST_READY));
  assert.equal(port.connected, true);
});

test("post sends on the live port and returns false while disconnected", () => {
  const { runtime, timers, port } = setup();
  port.start();
  assert.equal(port.post({ a: 1 }), true);
  assert.deepEqual(runtime.lastPort.sent, [{ a: 1 }]);
  runtime.closePort(runtime.lastPort);
  assert.equal(port.connected, false);
  assert.equal(port.post({ a: 2 }), false);
  timers.runNext();
  assert.equal(port.post({ a: 3 }), true);
  assert.deepEqual(runtime.lastPort.sent, [{ a: 3 }]);
});

test("a connectNative that throws is retried with backoff", () => {
  const { runtime, timers, port } = setup();
  runtime.connectNativeThrows = true;
  port.start();
  assert.equal(port.connected, false);
  assert.deepEqual(timers.delays, [250]);
  timers.runNext();
  assert.deepEqual(timers.delays, [500]);
  runtime.connectNativeThrows = false;
  timers.runNext();
  assert.equal(port.connected, true);
  assert.deepEqual(timers.delays, []);
});

test("events from an old port are ignored and schedule nothing", () => {
  const { runtime, timers, port } = setup();
  const seen = [];
  port.onMessage = (msg) => seen.push(msg);
  port.start();
  const old = runtime.lastPort;
  runtime.closePort(old);
  timers.runNext();
  old.onMessage.emit({ stale: true });
  runtime.closePort(old);
  assert.deepEqual(seen, []);
  assert.deepEqual(timers.delays, []);
  assert.equal(port.connected, true);
});

test("start is idempotent", () => {
  const { runtime, port } = setup();
  port.start();
  port.start();
  assert.equal(runtime.ports.length, 1);
});
