/**
 * Service worker entry: wires the modules together. Listeners are registered
 * synchronously at top level, as MV3 requires for wake-up events.
 */

import { ActionDispatcher } from "./src/action-dispatcher.js";
import { DebuggerController } from "./src/debugger-controller.js";
import { helloData } from "./src/hello.js";
import { NativePort } from "./src/native-port.js";
import { eventMessage } from "./src/protocol.js";
import { TaskTabs } from "./src/task-tabs.js";
import { navigate } from "./src/actions/navigate.js";
import { getTabs } from "./src/actions/tabs.js";

const timers = {
  setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => setTimeout(fn, ms),
  clearTimeout: (/** @type {any} */ handle) => clearTimeout(handle),
};

const port = new NativePort({ runtime: chrome.runtime, timers });
const taskTabs = new TaskTabs(chrome.storage.session);

const dispatcher = new ActionDispatcher({
  send: (msg) => port.post(msg),
  actions: { navigate, get_tabs: getTabs },
  services: {
    tabs: chrome.tabs,
    debugger: new DebuggerController(chrome.debugger),
    taskTabs,
    timers,
  },
  extensionVersion: chrome.runtime.getManifest().version,
  onHostReady: async () => {
    const data = await helloData({ runtime: chrome.runtime, storageLocal: chrome.storage.local, navigator });
    port.post(eventMessage("hello", data));
  },
});

port.onMessage = (/** @type {unknown} */ msg) => {
  dispatcher.handle(msg);
};

chrome.tabs.onRemoved.addListener((tabId) => {
  taskTabs.forgetTab(tabId).catch((err) => console.warn("bua: could not forget a closed tab:", err));
});

// Having these listeners makes Chrome start the worker with the browser and
// after an install or update, which is what opens the native port.
chrome.runtime.onStartup.addListener(() => {});
chrome.runtime.onInstalled.addListener(() => {});

port.start();
