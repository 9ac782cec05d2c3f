import { test } from "node:test";
import assert from "node:assert/strict";

import { BuaWindow, WINDOW_KEY } from "../src/tabs/bua-window.js";
import { createChrome } from "./chrome-stub.js";

function setup() {
  const chrome = createChrome();
  const bua = new BuaWindow({ windows: chrome.windows, tabs: chrome.tabs, storage: chrome.storage.session });
  return { chrome, bua };
}

test("background tabs go into one minimised, unfocused bua window, created once", async () => {
  const { chrome, bua } = setup();
  const [a, b] = await Promise.all([bua.backgroundTab(), bua.backgroundTab()]);
  assert.deepEqual(chrome.windows.created, [{ url: "about:blank", state: "minimized", focused: false, type: "normal" }]);
  assert.equal(a.windowId, b.windowId);
  assert.notEqual(a.id, b.id);
  assert.equal(chrome.storage.session.data[WINDOW_KEY], a.windowId);
  assert.equal(chrome.windows.info.get(1)?.focused, true, "the person's window keeps the focus");
});

test("a closed bua window is created again", async () => {
  const { chrome, bua } = setup();
  const first = await bua.backgroundTab();
  chrome.windows.close(first.windowId);
  const second = await bua.backgroundTab();
  assert.notEqual(second.windowId, first.windowId);
  assert.equal(chrome.windows.created.length, 2);
});

test("focused tabs go into the person's last focused window, never the bua window", async () => {
  const { chrome, bua } = setup();
  const background = await bua.backgroundTab();
  chrome.windows.info.get(background.windowId).focused = true;
  chrome.windows.info.get(1).focused = false;
  const tab = await bua.focusedTab();
  assert.equal(tab.windowId, 1);
  assert.equal(chrome.tabs.all.get(tab.id).active, true);
  assert.equal(chrome.windows.info.get(1)?.focused, true);
});

test("with no window of the person's a focused one is created", async () => {
  const { chrome, bua } = setup();
  chrome.windows.close(1);
  const tab = await bua.focusedTab();
  assert.deepEqual(chrome.windows.created, [{ url: "about:blank", focused: true, type: "normal" }]);
  assert.equal(chrome.tabs.all.get(tab.id).windowId, tab.windowId);
});

test("a bua window that is closing (still found, taking no tab) is replaced by a new one", async () => {
  const { chrome, bua } = setup();
  const first = await bua.backgroundTab();
  const create = chrome.tabs.create;
  chrome.tabs.create = async (/** @type {any} */ props) => {
    if (props.windowId === first.windowId) throw new Error(`No window with id: ${first.windowId}.`);
    return create.call(chrome.tabs, props);
  };
  const second = await bua.backgroundTab();
  assert.notEqual(second.windowId, first.windowId);
  assert.equal(chrome.windows.created.length, 2);
  assert.equal(chrome.storage.session.data[WINDOW_KEY], second.windowId);
});
