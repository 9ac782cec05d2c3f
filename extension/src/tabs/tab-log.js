/**
 * What a session's tab logged since the session began: console messages
 * (Runtime.consoleAPICalled and the browser's own Log.entryAdded lines),
 * uncaught errors and unhandled rejections (Runtime.exceptionThrown), and
 * requests that failed (network error, blocked, HTTP >= 400) or were slow
 * (over SLOW_MS, finished or still pending).
 *
 * The Runtime, Log and Network domains are turned on when the session starts
 * (and again after a re-attachment, and at the first page_log), never before:
 * a tab that is not the agent's is not listened to. Each kind keeps its last
 * MAX_ENTRIES entries, texts cut at MAX_TEXT characters; entries are numbered
 * per tab so a later call can ask for what came `since` the last one it saw.
 */

import { perAttachment } from "./attachment-cache.js";

export const KINDS = /** @type {const} */ (["console", "errors", "network"]);
export const MAX_ENTRIES = 200;
export const MAX_TEXT = 500;
export const MAX_URL = 300;
export const SLOW_MS = 2000;
const MAX_PENDING = 2000;

/**
 * @typedef {typeof KINDS[number]} Kind
 * @typedef {{seq: number, t_ms: number} & Record<string, unknown>} Entry t_ms: since the log began
 * @typedef {{url: string, method: string, type: string, started: number, wall: number, status?: number}} Pending
 * @typedef {{began: number, seq: number, dropped: Record<Kind, number>, entries: Record<Kind, Entry[]>,
 *   pending: Map<string, Pending>, offs: (() => void)[], seen: {console: number, log: number},
 *   replayed: {console: number, log: number}}} TabLog
 * @typedef {{on: Function, send: Function, isAttached: (tabId: number) => boolean,
 *   onDetach: (tabId: number, fn: () => void) => () => void}} Debugger
 */

/** @param {unknown} text @param {number} max */
const cut = (text, max) => {
  const s = String(text ?? "");
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** A console argument as DevTools would print it in one line. @param {any} arg */
function argText(arg) {
  if (!arg) return "";
  if (arg.type === "string") return String(arg.value);
  if ("value" in arg) return JSON.stringify(arg.value);
  const preview = arg.preview;
  if (preview?.properties && (arg.subtype === undefined || arg.subtype === "array")) {
    const array = arg.subtype === "array";
    const items = preview.properties.map((/** @type {any} */ p) => {
      const value = p.type === "string" ? JSON.stringify(p.value) : p.value;
      return array ? value : `${p.name}: ${value}`;
    });
    if (preview.overflow) items.push("…");
    return array ? `[${items.join(", ")}]` : `{${items.join(", ")}}`;
  }
  return String(arg.unserializableValue ?? arg.description ?? arg.type ?? "");
}

export class PageLogs {
  #dbg;
  #now;
  /** @type {Map<number, TabLog>} */
  #logs = new Map();
  #enabled = perAttachment();

  /**
   * @param {Debugger} dbg
   * @param {() => number} [now]
   */
  constructor(dbg, now = Date.now) {
    this.#dbg = dbg;
    this.#now = now;
  }

  /**
   * Listen to the tab from now on (idempotent; turns the domains on again after a re-attachment).
   * @param {number} tabId
   * @returns {Promise<void>}
   */
  start(tabId) {
    if (!this.#logs.has(tabId)) this.#logs.set(tabId, this.#subscribe(tabId));
    const log = /** @type {TabLog} */ (this.#logs.get(tabId));
    return this.#enabled(/** @type {any} */ (this.#dbg), tabId, async () => {
      log.replayed = { ...log.seen };
      await Promise.all([
        this.#dbg.send(tabId, "Runtime.enable"),
        this.#dbg.send(tabId, "Log.enable"),
        this.#dbg.send(tabId, "Network.enable", { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }),
      ]);
    });
  }

  /** Stop listening and drop what was kept (the session ended, the tab closed). @param {number} tabId */
  forget(tabId) {
    const log = this.#logs.get(tabId);
    if (!log) return;
    for (const off of log.offs) off();
    this.#logs.delete(tabId);
  }

  /**
   * Entries of one kind after `since` (a seq from an earlier answer), oldest first.
   * @param {number} tabId
   * @param {Kind} kind
   * @param {number} [since]
   * @returns {{entries: Entry[], last_seq: number, dropped: number, began_ms_ago: number, listening: boolean}}
   */
  read(tabId, kind, since = 0) {
    const log = this.#logs.get(tabId);
    if (!log) return { entries: [], last_seq: 0, dropped: 0, began_ms_ago: 0, listening: false };
    /** @type {Entry[]} */
    let entries = log.entries[kind].filter((e) => e.seq > since);
    if (kind === "network") entries = [...entries, ...this.#slowPending(log)];
    return { entries, last_seq: log.seq, dropped: log.dropped[kind], began_ms_ago: this.#now() - log.began, listening: true };
  }

  /**
   * @param {number} tabId
   * @returns {TabLog}
   */
  #subscribe(tabId) {
    /** @type {TabLog} */
    const log = {
      began: this.#now(), seq: 0, dropped: { console: 0, errors: 0, network: 0 },
      entries: { console: [], errors: [], network: [] }, pending: new Map(), offs: [],
      seen: { console: 0, log: 0 }, replayed: { console: 0, log: 0 },
    };
    /** @param {Kind} kind @param {Record<string, unknown>} fields */
    const add = (kind, fields) => {
      const list = log.entries[kind];
      list.push({ seq: ++log.seq, t_ms: this.#now() - log.began, ...fields });
      if (list.length > MAX_ENTRIES) {
        list.shift();
        log.dropped[kind]++;
      }
    };
    /** @param {string} method @param {(params: any) => void} fn */
    const on = (method, fn) => log.offs.push(this.#dbg.on(tabId, method, (/** @type {any} */ params, /** @type {any} */ source) => {
      if (source?.sessionId === undefined) fn(params);
    }));
    // Turning Runtime and Log on again (after a re-attachment) replays what they sent before: up to the last
    // timestamp seen when they were turned on again (log.replayed), messages are skipped.
    on("Runtime.consoleAPICalled", (p) => {
      if (typeof p.timestamp === "number" && p.timestamp <= log.replayed.console) return;
      log.seen.console = Math.max(log.seen.console, p.timestamp ?? 0);
      add("console", { level: p.type, text: cut((p.args ?? []).map(argText).join(" "), MAX_TEXT), ...where(p.stackTrace?.callFrames?.[0]) });
    });
    on("Log.entryAdded", ({ entry }) => {
      if (typeof entry.timestamp === "number" && entry.timestamp <= log.replayed.log) return;
      log.seen.log = Math.max(log.seen.log, entry.timestamp ?? 0);
      add("console", { level: entry.level, source: entry.source, text: cut(entry.text, MAX_TEXT), ...where(entry) });
    });
    on("Runtime.exceptionThrown", ({ exceptionDetails: d }) => add("errors", {
      message: cut(d.exception?.description ?? d.text, MAX_TEXT), ...where(d),
    }));
    on("Network.requestWillBeSent", (p) => {
      if (log.pending.size >= MAX_PENDING) log.pending.delete(/** @type {string} */ (log.pending.keys().next().value));
      log.pending.set(p.requestId, {
        url: cut(p.request?.url, MAX_URL), method: p.request?.method ?? "GET", type: p.type ?? "", started: p.timestamp, wall: this.#now(),
      });
    });
    // An HTTP error is told by its headers: a body the page never reads never finishes loading.
    on("Network.responseReceived", (p) => {
      const req = log.pending.get(p.requestId);
      if (!req) return;
      req.status = p.response?.status;
      if ((req.status ?? 0) < 400) return;
      log.pending.delete(p.requestId);
      add("network", request(req, Math.round((p.timestamp - req.started) * 1000), "http_error"));
    });
    on("Network.loadingFinished", (p) => {
      const req = log.pending.get(p.requestId);
      if (!req) return;
      log.pending.delete(p.requestId);
      const ms = Math.round((p.timestamp - req.started) * 1000);
      if (ms > SLOW_MS) add("network", request(req, ms, "slow"));
    });
    on("Network.loadingFailed", (p) => {
      const req = log.pending.get(p.requestId);
      if (!req) return;
      log.pending.delete(p.requestId);
      add("network", {
        ...request(req, Math.round((p.timestamp - req.started) * 1000), p.canceled ? "canceled" : "failed"),
        error: p.blockedReason ? `blocked: ${p.blockedReason}` : p.errorText,
      });
    });
    return log;
  }

  /**
   * Requests still waiting after SLOW_MS: the state now, so listed on every read (`seq` 0: never stored).
   * @param {TabLog} log
   * @returns {Entry[]}
   */
  #slowPending(log) {
    const now = this.#now();
    return [...log.pending.values()]
      .filter((req) => now - req.wall > SLOW_MS)
      .slice(-MAX_ENTRIES)
      .map((req) => ({ seq: 0, t_ms: req.wall - log.began, ...request(req, now - req.wall, "pending") }));
  }
}

/**
 * @param {Pending} req
 * @param {number} ms
 * @param {string} outcome
 */
function request(req, ms, outcome) {
  return { outcome, method: req.method, url: req.url, type: req.type, ...(req.status ? { status: req.status } : {}), ms };
}

/** Where a message came from: `url:line`. @param {any} frame */
function where(frame) {
  const url = frame?.url;
  if (!url) return {};
  const line = typeof frame.lineNumber === "number" ? `:${frame.lineNumber + 1}` : "";
  return { at: cut(`${url}${line}`, MAX_URL) };
}
