/**
 * A small in-memory stand-in for the chrome.* APIs the extension uses, with
 * Chrome's own error messages, plus fake timers and a silent logger.
 */

export function createEvent() {
  /** @type {Set<Function>} */
  const listeners = new Set();
  return {
    addListener: (/** @type {Function} */ fn) => listeners.add(fn),
    removeListener: (/** @type {Function} */ fn) => listeners.delete(fn),
    hasListener: (/** @type {Function} */ fn) => listeners.has(fn),
    /** @param {...unknown} args */
    emit: (...args) => {
      for (const fn of [...listeners]) fn(...args);
    },
  };
}

/** @param {Record<string, unknown>} [initial] */
export function createStorageArea(initial = {}) {
  const data = structuredClone(initial);
  return {
    data,
    /** @param {string | string[] | null | undefined} keys */
    async get(keys) {
      if (keys === null || keys === undefined) return structuredClone(data);
      const list = Array.isArray(keys) ? keys : [keys];
      /** @type {Record<string, unknown>} */
      const out = {};
      for (const k of list) if (k in data) out[k] = structuredClone(data[k]);
      return out;
    },
    /** @param {Record<string, unknown>} items */
    async set(items) {
      Object.assign(data, structuredClone(items));
    },
    /** @param {string | string[]} keys */
    async remove(keys) {
      for (const k of Array.isArray(keys) ? keys : [keys]) delete data[k];
    },
  };
}

function createPort(/** @type {string} */ name) {
  const port = {
    name,
    onMessage: createEvent(),
    onDisconnect: createEvent(),
    /** @type {unknown[]} */
    sent: [],
    disconnected: false,
    /** @param {unknown} msg */
    postMessage(msg) {
      if (port.disconnected) throw new Error("Attempting to use a disconnected port object");
      port.sent.push(structuredClone(msg));
    },
    disconnect() {
      port.disconnected = true;
    },
  };
  return port;
}

export function createRuntime({ version = "0.1.0" } = {}) {
  const runtime = {
    /** @type {ReturnType<typeof createPort>[]} */
    ports: [],
    /** @type {{message: string} | undefined} */
    lastError: undefined,
    connectNativeThrows: false,
    onStartup: createEvent(),
    onInstalled: createEvent(),
    /** @param {string} name */
    connectNative(name) {
      if (runtime.connectNativeThrows) throw new Error("Access to the specified native messaging host is forbidden.");
      const port = createPort(name);
      runtime.ports.push(port);
      return port;
    },
    getManifest: () => ({ version }),
    get lastPort() {
      return runtime.ports[runtime.ports.length - 1];
    },
    /**
     * Chrome closing the port, with runtime.lastError set during onDisconnect.
     * @param {ReturnType<typeof createPort>} port
     * @param {string} [message]
     */
    closePort(port, message = "Native host has exited.") {
      port.disconnected = true;
      runtime.lastError = { message };
      try {
        port.onDisconnect.emit(port);
      } finally {
        runtime.lastError = undefined;
      }
    },
  };
  return runtime;
}

export function createTabs() {
  /** @type {Map<number, any>} */
  const all = new Map();
  /** @type {Map<number, string>} window id -> window type */
  const windows = new Map([[1, "normal"]]);
  let nextId = 100;
  const tabs = {
    all,
    windows,
    onRemoved: createEvent(),
    onCreated: createEvent(),
    onUpdated: createEvent(),
    onActivated: createEvent(),
    onMoved: createEvent(),
    onAttached: createEvent(),
    onDetached: createEvent(),
    onReplaced: createEvent(),
    /** @param {Partial<{id: number, windowId: number, url: string, title: string, active: boolean}>} props */
    add(props = {}) {
      const tab = { id: nextId++, windowId: 1, url: "about:blank", title: "", active: false, ...props };
      all.set(tab.id, tab);
      return tab;
    },
    /** @param {number} id */
    async get(id) {
      const tab = all.get(id);
      if (!tab) throw new Error(`No tab with id: ${id}.`);
      return { ...tab };
    },
    /** @param {{url?: string, active?: boolean, windowId?: number}} props */
    async create(props) {
      const tab = tabs.add({ url: props.url ?? "about:blank", active: props.active ?? true, windowId: props.windowId ?? 1 });
      tabs.onCreated.emit({ ...tab });
      return { ...tab };
    },
    /** @param {{windowType?: string, windowId?: number}} query */
    async query(query = {}) {
      return [...all.values()]
        .filter((t) => !query.windowType || windows.get(t.windowId) === query.windowType)
        .filter((t) => query.windowId === undefined || t.windowId === query.windowId)
        .map((t) => ({ ...t }));
    },
    /** @param {number} id */
    async remove(id) {
      if (!all.delete(id)) throw new Error(`No tab with id: ${id}.`);
      tabs.onRemoved.emit(id, { windowId: 1, isWindowClosing: false });
    },
  };
  return tabs;
}

/**
 * chrome.windows over the tabs stub: window 1 is the person's focused window.
 * @param {ReturnType<typeof createTabs>} tabs
 */
export function createWindows(tabs) {
  let nextId = 2;
  /** @type {Map<number, {id: number, state: string, focused: boolean}>} */
  const info = new Map([[1, { id: 1, state: "normal", focused: true }]]);
  const windows = {
    info,
    onCreated: createEvent(),
    onRemoved: createEvent(),
    /** @type {Record<string, unknown>[]} */
    created: [],
    /** @type {Record<string, unknown>[]} every update, in order */
    updates: [],
    /** how many times a window was read */
    reads: 0,
    /** @param {number} id */
    async get(id) {
      windows.reads++;
      const win = info.get(id);
      if (!win) throw new Error(`No window with id: ${id}.`);
      return { ...win };
    },
    async getLastFocused() {
      const win = [...info.values()].find((w) => w.focused);
      if (!win) throw new Error("No last-focused window");
      return { ...win };
    },
    async getAll() {
      return [...info.values()].map((w) => ({ ...w }));
    },
    /** @param {{url?: string, state?: string, focused?: boolean}} props */
    async create(props = {}) {
      windows.created.push(props);
      const id = nextId++;
      info.set(id, { id, state: props.state ?? "normal", focused: props.focused ?? true });
      tabs.windows.set(id, "normal");
      const tab = await tabs.create({ url: props.url, windowId: id, active: true });
      return { id, state: props.state ?? "normal", tabs: [tab] };
    },
    /**
     * @param {number} id
     * @param {{focused?: boolean, state?: string}} props
     */
    async update(id, props) {
      const win = info.get(id);
      if (!win) throw new Error(`No window with id: ${id}.`);
      windows.updates.push({ id, ...props });
      if (props.state) win.state = props.state;
      if (props.focused) for (const w of info.values()) w.focused = w.id === id;
      return { ...win };
    },
    /** @param {number} id the person closing it */
    close(id) {
      info.delete(id);
      for (const tab of [...tabs.all.values()]) if (tab.windowId === id) tabs.all.delete(tab.id);
    },
  };
  return windows;
}

/** @param {ReturnType<typeof createTabs>} tabs */
export function createDebugger(tabs) {
  const dbg = {
    /** @type {Set<number>} */
    attached: new Set(),
    /** @type {Set<number>} tabs held by DevTools or another extension */
    heldByOther: new Set(),
    /** @type {{tabId: number, method: string, params: any}[]} */
    calls: [],
    attachCount: 0,
    /** @type {Record<string, (params: any, tabId: number) => any>} */
    handlers: {
      "Page.handleJavaScriptDialog": () => {
        throw new Error("No dialog is showing");
      },
    },
    onEvent: createEvent(),
    onDetach: createEvent(),
    /**
     * @param {{tabId: number}} target
     * @param {string} version
     */
    async attach({ tabId }, version) {
      if (version !== "1.3") throw new Error(`Requested protocol version is not supported: ${version}.`);
      const tab = tabs.all.get(tabId);
      if (!tab) throw new Error(`No tab with given id ${tabId}.`);
      if (dbg.attached.has(tabId) || dbg.heldByOther.has(tabId)) {
        throw new Error(`Another debugger is already attached to the tab with id: ${tabId}.`);
      }
      if (/^chrome:/.test(tab.url)) throw new Error("Cannot access a chrome:// URL");
      dbg.attached.add(tabId);
      dbg.attachCount++;
    },
    /** @param {{tabId: number}} target */
    async detach({ tabId }) {
      if (!dbg.attached.delete(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
    },
    /**
     * @param {{tabId: number}} target
     * @param {string} method
     * @param {any} params
     */
    async sendCommand({ tabId }, method, params) {
      if (!dbg.attached.has(tabId)) throw new Error(`Debugger is not attached to the tab with id: ${tabId}.`);
      dbg.calls.push({ tabId, method, params });
      const handler = dbg.handlers[method];
      if (!handler) return {};
      try {
        return await handler(params, tabId);
      } catch (err) {
        throw new Error(JSON.stringify({ code: -32000, message: /** @type {Error} */ (err).message }));
      }
    },
    /**
     * A CDP event from the tab's page.
     * @param {number} tabId
     * @param {string} method
     * @param {any} [params]
     */
    emit(tabId, method, params = {}) {
      dbg.onEvent.emit({ tabId }, method, params);
    },
    /**
     * Chrome detaching on its own (tab closed, infobar cancelled).
     * @param {number} tabId
     * @param {string} reason
     */
    forceDetach(tabId, reason) {
      dbg.attached.delete(tabId);
      dbg.onDetach.emit({ tabId }, reason);
    },
    /** @param {string} method */
    callsOf(method) {
      return dbg.calls.filter((c) => c.method === method);
    },
  };
  return dbg;
}

export function createChrome() {
  const tabs = createTabs();
  return {
    runtime: createRuntime(),
    storage: { local: createStorageArea(), session: createStorageArea() },
    tabs,
    windows: createWindows(tabs),
    debugger: createDebugger(tabs),
    idle: { onStateChanged: createEvent(), intervals: /** @type {number[]} */ ([]),
      setDetectionInterval(/** @type {number} */ s) { this.intervals.push(s); } },
    downloads: createDownloads(),
  };
}

/**
 * chrome.downloads: items the test adds, found by search({id}), with its events; cancel and removeFile act on
 * the items as Chrome does (a cancel interrupts one in progress, removeFile needs a complete one) and are recorded
 * in `calls`.
 */
export function createDownloads() {
  /** @type {Map<number, any>} */
  const items = new Map();
  /** @type {[string, number][]} */
  const calls = [];
  return {
    items,
    calls,
    onCreated: createEvent(),
    onChanged: createEvent(),
    onDeterminingFilename: createEvent(),
    async search(/** @type {{id: number}} */ { id }) {
      return items.has(id) ? [{ ...items.get(id) }] : [];
    },
    async cancel(/** @type {number} */ id) {
      calls.push(["cancel", id]);
      const item = items.get(id);
      if (item?.state === "in_progress") Object.assign(item, { state: "interrupted", error: "USER_CANCELED" });
    },
    async removeFile(/** @type {number} */ id) {
      calls.push(["removeFile", id]);
      const item = items.get(id);
      if (item?.state !== "complete") throw new Error("Download must be complete");
      item.exists = false;
    },
  };
}

/** Timers that run only when the test says so. */
export function createFakeTimers() {
  let nextHandle = 1;
  /** @type {Map<number, {fn: () => void, ms: number}>} */
  const pending = new Map();
  return {
    /**
     * @param {() => void} fn
     * @param {number} ms
     */
    setTimeout(fn, ms) {
      const handle = nextHandle++;
      pending.set(handle, { fn, ms });
      return handle;
    },
    /** @param {unknown} handle */
    clearTimeout(handle) {
      pending.delete(/** @type {number} */ (handle));
    },
    /** Delays of the timers still pending, in scheduling order. */
    get delays() {
      return [...pending.values()].map((t) => t.ms);
    },
    /** Run the oldest pending timer; returns its delay. */
    runNext() {
      const [handle, timer] = pending.entries().next().value ?? [];
      if (handle === undefined) throw new Error("no pending timer");
      pending.delete(handle);
      timer.fn();
      return timer.ms;
    },
  };
}

export const realTimers = {
  setTimeout: (/** @type {() => void} */ fn, /** @type {number} */ ms) => setTimeout(fn, ms),
  clearTimeout: (/** @type {any} */ handle) => clearTimeout(handle),
};

export const silentLog = { info() {}, warn() {} };

/**
 * A session gate that allows every action on the tab it names and holds no session, so no action_done events
 * (tests of the dispatcher alone, which refuses to run without a gate).
 */
export const permissiveGate = {
  /** @returns {Promise<number | undefined>} */
  async before() {
    return undefined;
  },
  async after() {},
  holds() {
    return false;
  },
};
