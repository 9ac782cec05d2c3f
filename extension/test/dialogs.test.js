import { test } from "node:test";
import assert from "node:assert/strict";

import { DialogGuard, decideDialog, policyOf } from "../src/tabs/dialogs.js";
import { silentLog } from "./chrome-stub.js";

test("the default policy: alert and beforeunload accepted, confirm and prompt dismissed", () => {
  assert.deepEqual(decideDialog("alert", {}), { accept: true });
  assert.deepEqual(decideDialog("beforeunload", {}), { accept: true });
  assert.deepEqual(decideDialog("confirm", {}), { accept: false });
  assert.deepEqual(decideDialog("prompt", {}, "x"), { accept: false });
});

test("the action can ask otherwise; prompt_text answers a prompt", () => {
  assert.deepEqual(decideDialog("confirm", { dialog: "accept" }), { accept: true });
  assert.deepEqual(decideDialog("beforeunload", { dialog: "dismiss" }), { accept: false });
  assert.deepEqual(decideDialog("alert", { dialog: "dismiss" }), { accept: true }, "an alert only has OK");
  assert.deepEqual(decideDialog("prompt", { dialog: "accept" }, "default"), { accept: true, promptText: "default" });
  assert.deepEqual(decideDialog("prompt", { promptText: "Ada" }), { accept: true, promptText: "Ada" });
  assert.deepEqual(decideDialog("prompt", { promptText: "Ada", dialog: "dismiss" }), { accept: false });
  assert.deepEqual(policyOf({ dialog: "accept", prompt_text: "x", other: 1 }), { dialog: "accept", promptText: "x" });
  assert.deepEqual(policyOf({ dialog: "maybe" }), {});
});

function guard() {
  /** @type {any[]} */
  const sent = [];
  const dialogs = new DialogGuard({
    send: async (tabId, method, params, sessionId) => {
      sent.push({ tabId, method, params, sessionId });
      if (params.accept === undefined) throw new Error("bad");
    },
    log: silentLog,
  });
  return { dialogs, sent };
}

test("a dialog during an action is answered under its policy and reported to it", async () => {
  const { dialogs, sent } = guard();
  const watch = dialogs.begin(7, { dialog: "accept" });
  await dialogs.onEvent({ tabId: 7 }, "Page.javascriptDialogOpening", { type: "confirm", message: "Delete?" });
  assert.deepEqual(sent, [{ tabId: 7, method: "Page.handleJavaScriptDialog", params: { accept: true }, sessionId: undefined }]);
  assert.deepEqual(watch.records(), [{ type: "confirm", message: "Delete?", handled: "accepted" }]);
  watch.end();
});

test("a dialog between actions is answered by default and reported to the next action on that tab", async () => {
  const { dialogs, sent } = guard();
  await dialogs.onEvent({ tabId: 7 }, "Page.javascriptDialogOpening", { type: "prompt", message: "Name?", defaultPrompt: "x" });
  assert.deepEqual(sent[0].params, { accept: false });
  assert.deepEqual(dialogs.begin(8, {}).records(), [], "another tab");
  const next = dialogs.begin(7, {});
  assert.deepEqual(next.records(), [{ type: "prompt", message: "Name?", handled: "dismissed", while_idle: true }]);
  next.end();
  assert.deepEqual(dialogs.begin(7, {}).records(), [], "reported once");
});

test("dialogs of a child session are answered on that session; other events are ignored", async () => {
  const { dialogs, sent } = guard();
  assert.equal(dialogs.onEvent({ tabId: 7 }, "Page.loadEventFired", {}), undefined);
  await dialogs.onEvent({ tabId: 7, sessionId: "S1" }, "Page.javascriptDialogOpening", { type: "alert", message: "hi" });
  assert.equal(sent[0].sessionId, "S1");
});

test("a stray dialog found before an action is dismissed and reported", async () => {
  const { dialogs, sent } = guard();
  assert.equal(await dialogs.closeStray(7), true);
  assert.deepEqual(sent[0].params, { accept: false });
  assert.equal(dialogs.begin(7, {}).records()[0].handled, "dismissed");
  const quiet = new DialogGuard({ send: async () => { throw new Error("No dialog is showing"); }, log: silentLog });
  assert.equal(await quiet.closeStray(7), false);
});
