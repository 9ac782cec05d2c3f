import { test } from "node:test";
import assert from "node:assert/strict";

import { DebuggerController } from "../src/tabs/debugger-controller.js";
import { watchTab } from "../src/extract/tab-watch.js";
import { entryOf, formerUid, uidFor } from "../src/extract/uid-map.js";
import { createEvent } from "./chrome-stub.js";

function setup() {
  const api = { onEvent: createEvent(), onDetach: createEvent(), attach: async () => {}, detach: async () => {}, sendCommand: async () => ({}) };
  return { api, dbg: new DebuggerController(api) };
}

const entry = { sessionId: undefined, frameId: "TOP", doc: "d1", id: 1, role: "link", name: "Home" };

test("a main-frame navigation clears the tab's uids; iframe navigations do not", () => {
  const { api, dbg } = setup();
  const tab = 501;
  uidFor(tab, entry);
  watchTab(dbg, tab);
  watchTab(dbg, tab);
  api.onEvent.emit({ tabId: tab }, "Page.frameNavigated", { frame: { id: "CHILD", parentId: "TOP" } });
  api.onEvent.emit({ tabId: tab, sessionId: "S1" }, "Page.frameNavigated", { frame: { id: "OOPIF" } });
  assert.ok(entryOf(tab, "e1"));
  api.onEvent.emit({ tabId: tab }, "Page.frameNavigated", { frame: { id: "TOP" } });
  assert.equal(entryOf(tab, "e1"), undefined);
  assert.equal(formerUid(tab, "e1")?.why, "navigated");
});

test("a closed tab is forgotten", () => {
  const { api, dbg } = setup();
  const tab = 502;
  uidFor(tab, entry);
  watchTab(dbg, tab);
  api.onDetach.emit({ tabId: tab }, "target_closed");
  assert.equal(entryOf(tab, "e1"), undefined);
});
