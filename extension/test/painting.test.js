import { test } from "node:test";
import assert from "node:assert/strict";

import { keepPainting } from "../src/input/painting.js";
import { createChrome } from "./chrome-stub.js";

/** A tab in a minimised window (not painting) and a debugger double that records commands. */
async function setup() {
  const chrome = createChrome();
  const created = await chrome.windows.create({ url: "about:blank", state: "minimized", focused: false });
  /** @type {string[]} */
  const sent = [];
  const ctx = /** @type {any} */ ({
    tabs: chrome.tabs, windows: chrome.windows,
    debugger: { send: async (/** @type {number} */ _tab, /** @type {string} */ method) => { sent.push(method); return {}; } },
  });
  return { ctx, sent, tabId: created.tabs[0].id };
}

test("overlapping holders share one screencast: it starts with the first and stops with the last", async () => {
  const { ctx, sent, tabId } = await setup();
  const [outer, inner] = await Promise.all([keepPainting(ctx, tabId), keepPainting(ctx, tabId)]);
  assert.deepEqual(sent, ["Page.startScreencast"]);
  await inner();
  await inner();
  assert.deepEqual(sent, ["Page.startScreencast"], "the outer holder still needs frames; a second stop is ignored");
  await outer();
  assert.deepEqual(sent, ["Page.startScreencast", "Page.stopScreencast"]);
  const again = await keepPainting(ctx, tabId);
  await again();
  assert.deepEqual(sent.slice(2), ["Page.startScreencast", "Page.stopScreencast"], "a later holder starts afresh");
});

test("a tab that paints by itself gets no screencast", async () => {
  const { ctx, sent } = await setup();
  const visible = ctx.tabs.add({ windowId: 1, active: true });
  const stop = await keepPainting(ctx, visible.id);
  await stop();
  assert.deepEqual(sent, []);
});

test("a capture gets a screencast even in a tab that looks painting", async () => {
  const { ctx, sent } = await setup();
  const visible = ctx.tabs.add({ windowId: 1, active: true });
  const stop = await keepPainting(ctx, visible.id, { forCapture: true });
  assert.deepEqual(sent, ["Page.startScreencast"], "a window's state does not tell whether its tab paints");
  await stop();
  assert.deepEqual(sent, ["Page.startScreencast", "Page.stopScreencast"]);
});

test("a capture inside an input's screencast shares it", async () => {
  const { ctx, sent, tabId } = await setup();
  const input = await keepPainting(ctx, tabId);
  const capture = await keepPainting(ctx, tabId, { forCapture: true });
  await capture();
  await input();
  assert.deepEqual(sent, ["Page.startScreencast", "Page.stopScreencast"]);
});
