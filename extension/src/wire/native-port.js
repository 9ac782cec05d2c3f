/**
 * The connection to the native host, kept open for the worker's lifetime.
 *
 * On disconnect it reconnects with exponential backoff (250 ms doubling up to
 * 5 s). The backoff resets only when the host reports `host_ready` (it is
 * connected to the app), so a host that starts and exits at once is retried
 * slowly rather than in a tight loop.
 */

export const HOST_NAME = "com.bua.native_host";
export const BACKOFF_INITIAL_MS = 250;
export const BACKOFF_MAX_MS = 5000;

/**
 * @typedef {object} Timers
 * @property {(fn: () => void, ms: number) => unknown} setTimeout
 *
 * @typedef {object} Logger
 * @property {(...args: unknown[]) => void} info
 * @property {(...args: unknown[]) => void} warn
 */

/** @param {unknown} msg */
function isHostReady(msg) {
  const m = /** @type {any} */ (msg);
  return m?.kind === "event" && m?.type === "host_ready";
}

export class NativePort {
  /** @type {((msg: unknown) => void) | null} called for every message from the host */
  onMessage = null;
  /** @type {((reason: string) => void) | null} called when the host goes away (the app with it) */
  onDisconnect = null;

  #runtime;
  #timers;
  #hostName;
  #log;
  /** @type {any} */
  #port = null;
  #delay = BACKOFF_INITIAL_MS;
  /** @type {unknown} */
  #timer = null;

  /**
   * @param {object} deps
   * @param {any} deps.runtime chrome.runtime (connectNative, lastError)
   * @param {Timers} deps.timers
   * @param {string} [deps.hostName]
   * @param {Logger} [deps.log]
   */
  constructor({ runtime, timers, hostName = HOST_NAME, log = console }) {
    this.#runtime = runtime;
    this.#timers = timers;
    this.#hostName = hostName;
    this.#log = log;
  }

  start() {
    if (!this.#port && this.#timer === null) this.#connect();
  }

  get connected() {
    return this.#port !== null;
  }

  /** Delay before the next reconnect attempt, in ms. */
  get nextDelayMs() {
    return this.#delay;
  }

  /**
   * Send a message to the host. Returns false when there is no connection
   * (the message is dropped); throws what postMessage throws (e.g. too large).
   * @param {unknown} msg
   */
  post(msg) {
    if (!this.#port) return false;
    this.#port.postMessage(msg);
    return true;
  }

  #connect() {
    this.#timer = null;
    let port;
    try {
      port = this.#runtime.connectNative(this.#hostName);
    } catch (err) {
      this.#log.warn(`bua: connectNative(${this.#hostName}) threw:`, err);
      this.#scheduleReconnect();
      return;
    }
    this.#port = port;
    port.onMessage.addListener((/** @type {unknown} */ msg) => this.#handleMessage(port, msg));
    port.onDisconnect.addListener(() => this.#handleDisconnect(port));
  }

  /**
   * @param {any} port
   * @param {unknown} msg
   */
  #handleMessage(port, msg) {
    if (port !== this.#port) return;
    if (isHostReady(msg)) this.#delay = BACKOFF_INITIAL_MS;
    try {
      this.onMessage?.(msg);
    } catch (err) {
      this.#log.warn("bua: message handler threw:", err);
    }
  }

  /** @param {any} port */
  #handleDisconnect(port) {
    const reason = this.#runtime.lastError?.message ?? "port closed";
    if (port !== this.#port) return;
    this.#port = null;
    this.#log.info(`bua: native host disconnected (${reason}); retrying in ${this.#delay} ms`);
    try {
      this.onDisconnect?.(reason);
    } catch (err) {
      this.#log.warn("bua: disconnect handler threw:", err);
    }
    this.#scheduleReconnect();
  }

  #scheduleReconnect() {
    if (this.#timer !== null) return;
    const delay = this.#delay;
    this.#delay = Math.min(delay * 2, BACKOFF_MAX_MS);
    this.#timer = this.#timers.setTimeout(() => this.#connect(), delay);
  }
}
