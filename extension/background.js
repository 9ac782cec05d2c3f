/**
 * Service worker entry: wires the modules together. Listeners are registered
 * synchronously at top level, as MV3 requires for wake-up events.
 */

import { ActionDispatcher } from "./src/wire/action-dispatcher.js";
import { InFlight } from "./src/wire/in-flight.js";
import { DebuggerController } from "./src/tabs/debugger-controller.js";
import { helloData } from "./src/wire/hello.js";
import { NativePort } from "./src/wire/native-port.js";
import { eventMessage } from "./src/protocol.js";
import { TaskTabs } from "./src/tabs/task-tabs.js";
import { TabFeed } from "./src/tabs/tab-feed.js";
import { HANDLERS } from "./src/actions/index.js";
import { BuaWindow } from "./src/tabs/bua-window.js";
import { DialogGuard } from "./src/tabs/dialogs.js";
import { Blocklist } from "./src/sessions/blocklist.js";
import { SessionControls } from "./src/sessions/session-controls.js";
import { SessionGate } from "./src/sessions/session-gate.js";
import { OpenedTabs } from "./src/sessions/opened-tabs.js";
import { SessionStore } from "./src/sessions/session-store.js";
import { TabGroups } from "./src/sessions/tab-groups.js";
import { PageLogs } from "./src/tabs/tab-log.js";
import { TaskDownloads } from "./src/tabs/downloads.js";
import { Confirmations } from "./src/safety/confirmations.js";
import { readClipboard } from "./src/clipboard/clipboard-reader.js";
import { NetworkHolds } from "./src/safety/network-hold.js";
import { NewTabCover } from "./src/safety/network-new-tabs.js";
import { StrictSetting } from "./src/safety/network-strict.js";

const timers = {
  setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => setTimeout(fn, ms),
  clearTimeout: (/** @type {unknown} */ handle) => clearTimeout(/** @type {ReturnType<typeof setTimeout>} */ (handle)),
};

const port = new NativePort({ runtime: chrome.runtime, timers });
const taskTabs = new TaskTabs(chrome.storage.session, () => tabFeed.changed());
const debuggerController = new DebuggerController(chrome.debugger);
const pageLogs = new PageLogs(debuggerController);
const blocklist = new Blocklist(chrome.storage.local);
const groups = new TabGroups({ tabs: chrome.tabs, tabGroups: chrome.tabGroups, action: chrome.action });
const sessions = new SessionStore(chrome.storage.session, (type, data) => {
  port.post(eventMessage(type, data));
  tabFeed.changed();
  holdSessions(type, data);
  if (type === "session_started") {
    pageLogs.start(/** @type {number} */ (data.tab_id)).catch((err) => console.warn("bua: could not listen to the tab's log:", err));
    groups.add(/** @type {{task_id: string, tab_id: number, label: string}} */ (data)).then((groupId) => sessions.setGroup(/** @type {number} */ (data.tab_id), groupId));
  } else if (type === "navigated") {
    groups.mark(/** @type {{tab_id: number}} */ (data));
  } else if (type === "session_ended") {
    pageLogs.forget(/** @type {number} */ (data.tab_id));
    groups.remove(/** @type {{task_id: string, tab_id: number}} */ (data));
  }
});
// The tab state get_tabs reads, pushed to the app (tabs/tab-feed.js): every change that could alter it reconciles.
const tabFeed = new TabFeed({ post: (msg) => port.post(msg), tabs: chrome.tabs, sessions, taskTabs });
const feedTabs = () => tabFeed.changed();
chrome.tabs.onActivated.addListener(feedTabs);
chrome.tabs.onMoved.addListener(feedTabs);
chrome.tabs.onAttached.addListener(feedTabs);
chrome.tabs.onDetached.addListener(feedTabs);
chrome.tabs.onReplaced.addListener(feedTabs);
chrome.windows.onCreated.addListener(feedTabs);
chrome.windows.onRemoved.addListener(feedTabs);
const gate = new SessionGate({ sessions, blocklist, tabs: chrome.tabs, taskTabs });
const downloads = new TaskDownloads({ downloads: chrome.downloads, storage: chrome.storage.session, sessions, tabs: chrome.tabs });
const controls = new SessionControls({
  sessions, blocklist, idle: chrome.idle, taskTabs, tabs: chrome.tabs, windows: chrome.windows, debugger: debuggerController,
});
const dialogs = new DialogGuard({ send: (tabId, method, params, sessionId) => debuggerController.send(tabId, method, params, sessionId),
  beforeLeaving: (tabId) => holds.leaving(tabId) });

const confirmations = new Confirmations({ downloads, clipboard: readClipboard });
/** Read-only: how long the last sensitive-action checks took (bench/safety_bench.py reads it over CDP). */
/** @type {typeof globalThis & {buaCheckTimings?: () => unknown}} */ (globalThis).buaCheckTimings = () => confirmations.timings();
const strict = new StrictSetting(chrome.storage.local);
// What the page sends is held from a session's start to its end, until the app (and the person) let it go.
// A tab a session tab opens is covered by session rules until its own hold is on (safety/network-new-tabs.js).
const newTabs = new NewTabCover({ rules: chrome.declarativeNetRequest, tabs: chrome.tabs,
  isSessionTab: (tabId) => sessions.get(tabId) !== undefined });
chrome.webNavigation?.onErrorOccurred.addListener((details) => newTabs.navigationFailed(details));
chrome.webNavigation?.onCommitted.addListener((details) => newTabs.committed(details));
chrome.webRequest?.onErrorOccurred.addListener((details) => newTabs.requestFailed(details), { urls: ["<all_urls>"] });
const holds = new NetworkHolds({ post: (msg) => port.post(msg), timers, strict: () => strict.get(), cover: newTabs,
  debugger: debuggerController, sessions });

/**
 * A session's hold begins and ends with it; the sessions a restarted worker finds are held again.
 * @param {string} type
 * @param {Record<string, unknown>} data
 */
function holdSessions(type, data) {
  const tabId = /** @type {number} */ (data.tab_id);
  if (type === "session_started") holds.hold(String(data.task_id), tabId).catch((err) => console.warn("bua: could not hold a session tab:", err));
  else if (type === "session_ended") holds.sessionEnded(tabId, String(data.reason ?? "ended"));
}
sessions.ready().then(() => holds.restore(sessions.all()));

const dispatcher = new ActionDispatcher({
  send: (msg) => port.post(msg),
  actions: HANDLERS,
  gate,
  controls,
  inFlight: new InFlight(),
  confirmations,
  holds,
  strict,
  tabFeed,
  services: {
    sessions,
    tabs: chrome.tabs,
    windows: chrome.windows,
    debugger: debuggerController,
    taskTabs,
    dialogs,
    blocklist,
    pageLogs,
    downloads,
    buaWindow: new BuaWindow({ windows: chrome.windows, tabs: chrome.tabs, storage: chrome.storage.session }),
    timers,
  },
  extensionVersion: chrome.runtime.getManifest().version,
  onHostReady: async () => {
    const data = await helloData({ runtime: chrome.runtime, storageLocal: chrome.storage.local, navigator });
    await sessions.ready();
    port.post(eventMessage("hello", { ...data, sessions: sessions.all() }));
    tabFeed.connected();
  },
});

// Nobody is left to answer a held request: it fails.
port.onDisconnect = (/** @type {string} */ reason) => {
  tabFeed.disconnected();
  holds.releaseAll(`bua's app went away (${reason})`);
};

port.onMessage = (/** @type {unknown} */ msg) => {
  dispatcher.handle(msg);
};

// Every dialog of an attached tab is answered at once, even between actions.
chrome.debugger.onEvent.addListener((source, method, params) => {
  dialogs.onEvent(source, method, params)?.catch((err) => console.warn("bua: dialog handling failed:", err));
  downloads.onCdpEvent(source, method, params);
});

chrome.tabs.onRemoved.addListener((tabId) => {
  tabFeed.changed();
  const session = sessions.get(tabId);
  if (session) port.post(eventMessage("tab_closed", { task_id: session.task_id, tab_id: tabId, domain: session.domain }));
  dialogs.forgetTab(tabId);
  gate.forgetTab(tabId);
  openedTabs.closed(tabId);
  sessions.end(tabId, "tab_closed").catch((err) => console.warn("bua: could not end a closed tab's session:", err));
  taskTabs.forgetTab(tabId).catch((err) => console.warn("bua: could not forget a closed tab:", err));
});

// Every tab a session tab opens joins its task (or is closed at once: a blocked site, a stopped task).
const openedTabs = new OpenedTabs({ sessions, blocklist, tabs: chrome.tabs, taskTabs });
chrome.tabs.onCreated?.addListener((tab) => {
  tabFeed.changed();
  newTabs.tabCreated(tab);
  if (tab.id !== undefined && tab.openerTabId !== undefined) holds.opened(tab.openerTabId, tab.id);
  openedTabs.onCreated(tab).catch((err) => console.warn("bua: could not check a new tab:", err));
});
chrome.webNavigation?.onCreatedNavigationTarget.addListener((details) => {
  newTabs.navigationTarget(details);
  holds.opened(details.sourceTabId, details.tabId);
  openedTabs.onCreatedNavigationTarget(details).catch((err) => console.warn("bua: could not check a new tab:", err));
});

// A session follows its tab wherever it goes (links, scripts, the person); landing on a blocked site ends it.
chrome.tabs.onUpdated.addListener((tabId, change) => {
  if (change.url !== undefined || change.title !== undefined || change.status !== undefined) tabFeed.changed();
  if ((change.url || change.title) && sessions.get(tabId)) {
    gate.followTab(tabId);
  }
});

// Downloads the agent's tabs start belong to their task (downloads {}, read_download, a click's effects).
chrome.downloads.onCreated.addListener((item) => downloads.onCreated(item));
chrome.downloads.onChanged.addListener((delta) => downloads.onChanged(delta));
// Chrome names a download's file only once every listener suggested: a task's executable is stopped before.
chrome.downloads.onDeterminingFilename.addListener((item, suggest) => downloads.onDeterminingFilename(item, suggest));

// The person going idle or locking the screen ends every session.
chrome.idle.onStateChanged.addListener((state) => {
  if (state !== "active") controls.onIdle().catch((err) => console.warn("bua: idle handling failed:", err));
});

// Having these listeners makes Chrome start the worker with the browser and
// after an install or update, which is what opens the native port.
chrome.runtime.onStartup.addListener(() => {});
chrome.runtime.onInstalled.addListener(() => {});

port.start();
