/**
 * chrome.debugger wrapper: one CDP session per tab, attached lazily on first
 * use and forgotten when Chrome detaches it (tab closed, user cancelled the
 * infobar, DevTools took over), so the next use attaches again.
 *
 * Events are routed per tab and handed the raw `source` debuggee; events of
 * child sessions carry `source.sessionId`.
 *
 * Child targets: `enableChildTargets(tabId)` turns on Target.setAutoAttach
 * {autoAttach, flatten, waitForDebuggerOnStart} on the tab and on every
 * child session it yields, so out-of-process iframes (cross-site iframes,
 * nested ones too) and workers become sessions addressed as the debuggee
 * {tabId, sessionId} (Chrome 125+). A child created later starts paused:
 * the `onChildStart` hooks run first (the network hold turns Fetch on in it,
 * safety/network-hold.js), then it is resumed (Runtime.runIfWaitingForDebugger)
 * whatever they did — failed, hung past CHILD_START_CEILING_MS, or none
 * registered. `childTargets(tabId)` lists the live ones;
 * `send(tabId, method, params, sessionId)` talks to one. Child sessions are
 * forgotten on Target.detachedFromTarget and when the tab detaches.
 */

import { ActionError, ErrorCode } from "../protocol.js";

export const PROTOCOL_VERSION = "1.3";

/** A CDP command that Chrome rejected. */
export class CdpError extends Error {
  /**
   * @param {string} method
   * @param {string} message
   */
  constructor(method, message) {
    super(`${method} failed: ${message}`);
    this.name = "CdpError";
    this.method = method;
    this.cdpMessage = message;
  }
}

/**
 * @typedef {{tabId?: number, sessionId?: string, targetId?: string, extensionId?: string}} Debuggee
 * @typedef {(params: any, source: Debuggee) => void} EventListener
 * @typedef {(reason: string) => void} DetachListener
 * @typedef {{sessionId: string, targetId: string, type: string, url: string, parentSessionId?: string}} ChildTarget
 * @typedef {(child: ChildTarget) => Promise<unknown> | void} ChildStartHook
 */

const AUTO_ATTACH = { autoAttach: true, waitForDebuggerOnStart: true, flatten: true };
/** The longest a new child target is kept paused for its start hooks (a hung command must not freeze it). */
export const CHILD_START_CEILING_MS = 2000;

/** @param {unknown} err */
function messageOf(err) {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Chrome reports a CDP error as the JSON of the protocol error object.
 * @param {string} message
 */
function cdpMessage(message) {
  try {
    const parsed = JSON.parse(message);
    if (typeof parsed?.message === "string") return parsed.message;
  } catch {
    // not JSON: an extension-API error such as "Debugger is not attached..."
  }
  return message;
}

const NOT_ATTACHED = /Debugger is not attached/i;
const ALREADY_ATTACHED = /Another debugger is already attached/i;
const NO_TAB = /No tab with (given )?id/i;
const RESTRICTED = /Cannot (access|attach)/i;

export class DebuggerController {
  #api;
  #version;
  /** @type {Map<number, Promise<void>>} attached or attaching tabs */
  #attached = new Map();
  /** @type {Map<number, Map<string, Set<EventListener>>>} */
  #listeners = new Map();
  /** @type {Map<number, Set<DetachListener>>} */
  #detachListeners = new Map();
  /** @type {Map<number, Map<string, ChildTarget>>} child sessions per tab, by session id */
  #children = new Map();
  /** @type {Map<number, Promise<void>>} tabs with auto-attach on, for the current attachment */
  #autoAttach = new Map();
  /** @type {Map<number, Set<ChildStartHook>>} */
  #childStartHooks = new Map();

  #childStartCeilingMs;

  /**
   * @param {any} debuggerApi chrome.debugger
   * @param {{protocolVersion?: string, childStartCeilingMs?: number}} [options]
   */
  constructor(debuggerApi, { protocolVersion = PROTOCOL_VERSION, childStartCeilingMs = CHILD_START_CEILING_MS } = {}) {
    this.#api = debuggerApi;
    this.#version = protocolVersion;
    this.#childStartCeilingMs = childStartCeilingMs;
    debuggerApi.onEvent.addListener((/** @type {Debuggee} */ source, /** @type {string} */ method, /** @type {any} */ params) =>
      this.#dispatchEvent(source, method, params));
    debuggerApi.onDetach.addListener((/** @type {Debuggee} */ source, /** @type {string} */ reason) =>
      this.#handleDetach(source, reason));
  }

  /** This controller itself, also when reached through a per-request wrapper (wire/in-flight.js): a stable key. */
  get controller() {
    return this;
  }

  /** @param {number} tabId */
  isAttached(tabId) {
    return this.#attached.has(tabId);
  }

  /**
   * Attach to the tab unless already attached (or attaching).
   * @param {number} tabId
   * @returns {Promise<void>}
   */
  attach(tabId) {
    let pending = this.#attached.get(tabId);
    if (!pending) {
      pending = this.#attachNow(tabId);
      this.#attached.set(tabId, pending);
      const settled = pending;
      settled.catch(() => {
        if (this.#attached.get(tabId) === settled) this.#attached.delete(tabId);
      });
    }
    return pending;
  }

  /**
   * Send a CDP command to the tab's main target (or to one of its child
   * sessions), attaching first if needed.
   * @param {number} tabId
   * @param {string} method
   * @param {Record<string, unknown>} [params]
   * @param {string} [sessionId] a child session from childTargets(); undefined = the tab itself
   * @returns {Promise<any>}
   */
  async send(tabId, method, params = {}, sessionId = undefined) {
    await this.attach(tabId);
    const debuggee = sessionId === undefined ? { tabId } : { tabId, sessionId };
    try {
      return await this.#api.sendCommand(debuggee, method, params);
    } catch (err) {
      const message = messageOf(err);
      if (!NOT_ATTACHED.test(message) || sessionId !== undefined) throw this.#translate(tabId, method, message);
    }
    this.#forget(tabId);
    await this.attach(tabId);
    try {
      return await this.#api.sendCommand({ tabId }, method, params);
    } catch (err) {
      throw this.#translate(tabId, method, messageOf(err));
    }
  }

  /**
   * Auto-attach to the tab's child targets (out-of-process iframes), and to
   * theirs. Idempotent per attachment; Chrome reports the child targets that
   * already exist before the command returns.
   * @param {number} tabId
   * @returns {Promise<void>}
   */
  enableChildTargets(tabId) {
    let pending = this.#autoAttach.get(tabId);
    if (!pending) {
      pending = this.send(tabId, "Target.setAutoAttach", AUTO_ATTACH);
      this.#autoAttach.set(tabId, pending);
      const settled = pending;
      settled.catch(() => {
        if (this.#autoAttach.get(tabId) === settled) this.#autoAttach.delete(tabId);
      });
    }
    return pending;
  }

  /**
   * The tab's live child sessions (empty until enableChildTargets).
   * @param {number} tabId
   * @returns {ChildTarget[]}
   */
  childTargets(tabId) {
    return [...(this.#children.get(tabId)?.values() ?? [])];
  }

  /**
   * Subscribe to a CDP event of one tab. Subscribing does not attach, so a
   * listener can be in place before the command that causes the event.
   * @param {number} tabId
   * @param {string} method e.g. "Page.loadEventFired"
   * @param {EventListener} fn
   * @returns {() => void} unsubscribe
   */
  on(tabId, method, fn) {
    let byMethod = this.#listeners.get(tabId);
    if (!byMethod) this.#listeners.set(tabId, (byMethod = new Map()));
    let set = byMethod.get(method);
    if (!set) byMethod.set(method, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0 && byMethod.get(method) === set) byMethod.delete(method);
      if (byMethod.size === 0 && this.#listeners.get(tabId) === byMethod) this.#listeners.delete(tabId);
    };
  }

  /**
   * Run `fn` on each child target of the tab that starts paused, before it runs (it is resumed once every hook
   * settled, or after CHILD_START_CEILING_MS).
   * @param {number} tabId
   * @param {ChildStartHook} fn
   * @returns {() => void} unsubscribe
   */
  onChildStart(tabId, fn) {
    return subscribe(this.#childStartHooks, tabId, fn);
  }

  /**
   * Be told when Chrome detaches the debugger from the tab.
   * @param {number} tabId
   * @param {DetachListener} fn receives Chrome's reason ("target_closed", "canceled_by_user")
   * @returns {() => void} unsubscribe
   */
  onDetach(tabId, fn) {
    return subscribe(this.#detachListeners, tabId, fn);
  }

  /**
   * Detach if attached; never throws.
   * @param {number} tabId
   */
  async detach(tabId) {
    if (!this.#attached.has(tabId)) return;
    this.#forget(tabId);
    try {
      await this.#api.detach({ tabId });
    } catch {
      // already detached by Chrome: nothing to undo
    }
  }

  /** @param {number} tabId */
  async #attachNow(tabId) {
    try {
      await this.#api.attach({ tabId }, this.#version);
      return;
    } catch (err) {
      const message = messageOf(err);
      if (!ALREADY_ATTACHED.test(message)) throw this.#translate(tabId, "attach", message);
    }
    // A session left over from a previous instance of this worker can be
    // detached by us; someone else's (DevTools, another extension) cannot.
    try {
      await this.#api.detach({ tabId });
    } catch {
      throw new ActionError(
        ErrorCode.INTERNAL_ERROR,
        `tab ${tabId} is being debugged by another tool (DevTools or another extension), so bua cannot control it; ` +
          "ask the user to close DevTools on that tab, or navigate without tab_id to work in a new tab",
      );
    }
    try {
      await this.#api.attach({ tabId }, this.#version);
    } catch (err) {
      throw this.#translate(tabId, "attach", messageOf(err));
    }
  }

  /**
   * @param {number} tabId
   * @param {string} method
   * @param {string} message
   */
  #translate(tabId, method, message) {
    if (NO_TAB.test(message)) {
      return new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} does not exist; call get_tabs`);
    }
    if (method === "attach" && RESTRICTED.test(message)) {
      return new ActionError(
        ErrorCode.FORBIDDEN_URL,
        `tab ${tabId} shows a page extensions may not control (${message}); navigate without tab_id to work in a new tab`,
      );
    }
    return new CdpError(method, cdpMessage(message));
  }

  /**
   * Drop everything that belonged to the tab's attachment.
   * @param {number} tabId
   */
  #forget(tabId) {
    this.#attached.delete(tabId);
    this.#autoAttach.delete(tabId);
    this.#children.delete(tabId);
  }

  /**
   * Keep the child-session table current; nested children get auto-attach too.
   * @param {number} tabId
   * @param {Debuggee} source
   * @param {string} method
   * @param {any} params
   */
  #trackChildren(tabId, source, method, params) {
    if (method === "Target.attachedToTarget" && params?.sessionId) {
      let children = this.#children.get(tabId);
      if (!children) this.#children.set(tabId, (children = new Map()));
      const info = params.targetInfo ?? {};
      /** @type {ChildTarget} */
      const child = {
        sessionId: params.sessionId,
        targetId: info.targetId ?? "",
        type: info.type ?? "",
        url: info.url ?? "",
        ...(source.sessionId ? { parentSessionId: source.sessionId } : {}),
      };
      children.set(params.sessionId, child);
      const nested = this.#api.sendCommand({ tabId, sessionId: params.sessionId }, "Target.setAutoAttach", AUTO_ATTACH)
        .catch(() => {});
      this.#startChild(tabId, child, nested, params.waitingForDebugger === true);
    } else if (method === "Target.detachedFromTarget" && params?.sessionId) {
      this.#children.get(tabId)?.delete(params.sessionId);
    } else if (method === "Target.targetInfoChanged" && params?.targetInfo) {
      for (const child of this.#children.get(tabId)?.values() ?? []) {
        if (child.targetId === params.targetInfo.targetId) child.url = params.targetInfo.url ?? child.url;
      }
    }
  }

  /**
   * Resume a child that Chrome paused at its start, once its start hooks (and its own auto-attach, so its
   * children are caught too) have settled or the ceiling passed; never left paused.
   * @param {number} tabId
   * @param {ChildTarget} child
   * @param {Promise<unknown>} nested
   * @param {boolean} paused Chrome paused it (false: it existed before auto-attach; the hooks still run)
   */
  #startChild(tabId, child, nested, paused) {
    const hooks = [...(this.#childStartHooks.get(tabId) ?? [])].map((fn) => Promise.resolve().then(() => fn(child))
      .catch((err) => console.warn(`bua: a start hook of ${child.type} ${child.sessionId} failed:`, err)));
    if (!paused) return;
    /** @type {unknown} */
    let timer;
    const ceiling = new Promise((resolve) => { timer = setTimeout(resolve, this.#childStartCeilingMs); });
    Promise.race([Promise.all([nested, ...hooks]), ceiling]).finally(() => {
      clearTimeout(/** @type {any} */ (timer));
      this.#api.sendCommand({ tabId, sessionId: child.sessionId }, "Runtime.runIfWaitingForDebugger", {}).catch(() => {});
    });
  }

  /**
   * @param {Debuggee} source
   * @param {string} method
   * @param {any} params
   */
  #dispatchEvent(source, method, params) {
    if (source?.tabId === undefined) return;
    if (method.startsWith("Target.")) this.#trackChildren(source.tabId, source, method, params);
    const set = this.#listeners.get(source.tabId)?.get(method);
    if (!set) return;
    for (const fn of [...set]) {
      try {
        fn(params ?? {}, source);
      } catch (err) {
        console.warn(`bua: listener for ${method} threw:`, err);
      }
    }
  }

  /**
   * @param {Debuggee} source
   * @param {string} reason
   */
  #handleDetach(source, reason) {
    const tabId = source?.tabId;
    if (tabId === undefined) return;
    this.#forget(tabId);
    for (const fn of [...(this.#detachListeners.get(tabId) ?? [])]) {
      try {
        fn(reason);
      } catch (err) {
        console.warn("bua: detach listener threw:", err);
      }
    }
  }
}

/**
 * Adds `fn` to the tab's set in `byTab`; the returned function removes it, and the tab's entry once empty.
 * @template T
 * @param {Map<number, Set<T>>} byTab
 * @param {number} tabId
 * @param {T} fn
 * @returns {() => void}
 */
function subscribe(byTab, tabId, fn) {
  let set = byTab.get(tabId);
  if (!set) byTab.set(tabId, (set = new Set()));
  set.add(fn);
  return () => {
    set.delete(fn);
    if (set.size === 0 && byTab.get(tabId) === set) byTab.delete(tabId);
  };
}
