import { test } from "node:test";
import assert from "node:assert/strict";

import { keepInBackground, releaseWindow } from "../src/input/window-focus.js";
import { createChrome } from "./chrome-stub.js";

/** A bua window (2, minimised) with one tab, the person's window 1 focused, and a guard driven by hand. */
async function setup() {
  const chrome = createChrome();
  const created = await chrome.windows.create({ url: "about:blank", state: "minimized", focused: false });
  chrome.windows.info.get(1).focused = true;
  const tabId = created.tabs[0].id;
  /** @type {(() => void)[]} */
  const ticks = [];
  const guard = { delays: [1, 1, 1], sleep: () => new Promise((resolve) => ticks.push(() => resolve(undefined))) };
  const ctx = /** @type {any} */ ({ tabs: chrome.tabs, windows: chrome.windows });
  const tick = async () => { ticks.shift()?.(); await new Promise((r) => setTimeout(r, 0)); };
  return { chrome, tabId, windowId: created.id, guard, ctx, tick };
}

test("a window restored by the press is minimised again at once", async () => {
  const { chrome, tabId, windowId, guard, ctx } = await setup();
  const restore = await keepInBackground(ctx, tabId, guard);
  chrome.windows.info.get(windowId).state = "normal";
  await restore();
  assert.equal(chrome.windows.info.get(windowId).state, "minimized");
});

test("a window the window manager restores late is minimised again by the guard", async () => {
  const { chrome, tabId, windowId, guard, ctx, tick } = await setup();
  const restore = await keepInBackground(ctx, tabId, guard);
  await restore();
  assert.deepEqual(chrome.windows.updates, [], "nothing to put back yet");
  chrome.windows.info.get(windowId).state = "normal";
  chrome.windows.info.get(windowId).focused = true;
  chrome.windows.info.get(1).focused = false;
  await tick();
  assert.equal(chrome.windows.info.get(windowId).state, "minimized");
  assert.equal(chrome.windows.info.get(1).focused, true, "the person's window gets the focus back");
});

test("the person's window is not refocused when the bua window never took the focus", async () => {
  const { chrome, tabId, windowId, guard, ctx, tick } = await setup();
  const restore = await keepInBackground(ctx, tabId, guard);
  await restore();
  chrome.windows.info.get(1).focused = false;
  await tick();
  await tick();
  assert.deepEqual(chrome.windows.updates.filter((u) => u.focused), [], "never raises the person's window over another app");
  assert.equal(chrome.windows.info.get(windowId).state, "minimized");
});

test("Show tab releases the window: the guard stops putting it back", async () => {
  const { chrome, tabId, windowId, guard, ctx, tick } = await setup();
  const restore = await keepInBackground(ctx, tabId, guard);
  await restore();
  releaseWindow(windowId);
  chrome.windows.info.get(windowId).state = "normal";
  await tick();
  await tick();
  assert.equal(chrome.windows.info.get(windowId).state, "normal");
});

test("a press in the person's focused window changes no window", async () => {
  const { chrome, ctx } = await setup();
  const tab = chrome.tabs.add({ windowId: 1, active: true });
  const restore = await keepInBackground(ctx, tab.id, { delays: [] });
  await restore();
  assert.deepEqual(chrome.windows.updates, []);
});

test("a press during an earlier press's guard puts the window back to what it was before the first", async () => {
  const { chrome, tabId, windowId, guard, ctx } = await setup();
  const first = await keepInBackground(ctx, tabId, guard);
  await first();
  // The window manager restores the window late: the next action reads it as shown but not (yet) focused.
  chrome.windows.info.get(windowId).state = "normal";
  const reads = chrome.windows.reads;
  const second = await keepInBackground(ctx, tabId, guard);
  await second();
  assert.equal(chrome.windows.info.get(windowId).state, "minimized", "not left shown");
  assert.equal(chrome.windows.reads, reads + 1, "only the check after the press");
});

test("once a guard has run out, the window is read afresh", async () => {
  const { chrome, tabId, windowId, ctx } = await setup();
  const first = await keepInBackground(ctx, tabId, { delays: [] });
  await first();
  await new Promise((r) => setTimeout(r, 0));
  chrome.windows.info.get(windowId).state = "normal";
  chrome.windows.info.get(windowId).focused = true;
  chrome.windows.info.get(1).focused = false;
  const second = await keepInBackground(ctx, tabId, { delays: [] });
  await second();
  assert.equal(chrome.windows.info.get(windowId).state, "normal", "a window the person brought forward is left alone");
});
