/**
 * Sessions: a session is (task_id, domain, tabId). The store is the single
 * record of which tabs an agent task may touch; it lives in
 * chrome.storage.session, so sessions survive a service-worker restart (the
 * tabs and their debugger attachments outlive the worker; dropping the
 * sessions would strand them), and every change is reported to the app as an
 * event: session_started, navigated, session_ended.
 */

export const STORAGE_KEY = "bua.sessions";

/**
 * Session ends the person caused (Stop, Stop all, End, idle or a locked screen, a blocklist entry): they stop the
 * task itself, not just the tab. A closed tab (`tab_closed`) or the agent closing its own tab (`closed_by_agent`)
 * does not: the task may open another.
 */
export const STOP_REASONS = new Set(["stopped", "ended_by_user", "idle", "blocked", "task_stopped"]);

/**
 * @typedef {object} Session
 * @property {string} task_id
 * @property {number} tab_id
 * @property {number | undefined} window_id
 * @property {string} domain
 * @property {string} url
 * @property {string} title
 * @property {string} label task description shown on the tab group
 * @property {boolean} opened_by_agent
 * @property {number} started epoch ms
 * @property {number | undefined} group_id
 * @property {number} [opener_tab_id] the session tab that opened this one (a click, target=_blank, window.open)
 *
 * @typedef {(type: string, data: Record<string, unknown>) => void} Emit
 */

/** @param {string} url */
export function domainOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
  }
}

export class SessionStore {
  #storage;
  #emit;
  /** @type {Map<number, Session>} */
  #byTab = new Map();
  /** @type {Map<string, string>} why a task's last session ended */
  #endReasons = new Map();
  /** @type {Map<string, string>} tasks the person stopped, with the first reason; cleared only by reopen() */
  #stops = new Map();
  #loaded;

  /**
   * @param {any} storageSession chrome.storage.session
   * @param {Emit} emit
   */
  constructor(storageSession, emit) {
    this.#storage = storageSession;
    this.#emit = emit;
    this.#loaded = storageSession.get(STORAGE_KEY).then((/** @type {any} */ got) => {
      const saved = got?.[STORAGE_KEY];
      for (const s of saved?.sessions ?? []) this.#byTab.set(s.tab_id, s);
      for (const [task, reason] of Object.entries(saved?.endReasons ?? {})) this.#endReasons.set(task, String(reason));
      for (const [task, reason] of Object.entries(saved?.stops ?? {})) this.#stops.set(task, String(reason));
    });
  }

  ready() {
    return this.#loaded;
  }

  async #save() {
    await this.#storage.set({
      [STORAGE_KEY]: { sessions: [...this.#byTab.values()], endReasons: Object.fromEntries(this.#endReasons),
        stops: Object.fromEntries(this.#stops) },
    });
  }

  /** @param {number} tabId */
  get(tabId) {
    return this.#byTab.get(tabId);
  }

  /** @param {string} taskId */
  forTask(taskId) {
    return [...this.#byTab.values()].filter((s) => s.task_id === taskId);
  }

  all() {
    return [...this.#byTab.values()];
  }

  /** @param {string} taskId */
  endReason(taskId) {
    return this.#endReasons.get(taskId);
  }

  /**
   * Why the person stopped this task, if they did: until reopen(), every action of the task answers `stopped`.
   * @param {string} taskId
   */
  stopReason(taskId) {
    return this.#stops.get(taskId);
  }

  /** The tasks the person stopped (until reopen()). */
  stopped() {
    return [...this.#stops.keys()];
  }

  /**
   * The person stopped the task (also when it holds no session right now). The first reason is kept.
   * @param {string} taskId
   * @param {string} reason
   */
  async markStopped(taskId, reason) {
    await this.#loaded;
    if (this.#noteStop(taskId, reason)) await this.#save();
  }

  /**
   * A new instruction from the person: the task may work again (its end reason stays for the record).
   * @param {string} taskId
   * @returns {Promise<string | undefined>} the reason it had been stopped for
   */
  async reopen(taskId) {
    await this.#loaded;
    const reason = this.#stops.get(taskId);
    if (reason === undefined) return undefined;
    this.#stops.delete(taskId);
    await this.#save();
    return reason;
  }

  /** @param {string} taskId @param {string} reason @returns {boolean} whether it changed */
  #noteStop(taskId, reason) {
    if (!STOP_REASONS.has(reason) || this.#stops.has(taskId)) return false;
    this.#stops.set(taskId, reason);
    return true;
  }

  /**
   * @param {{taskId: string, tabId: number, windowId?: number, url: string, title?: string, label?: string,
   *   openedByAgent: boolean, openerTabId?: number}} p
   * @returns {Promise<Session>}
   */
  async start({ taskId, tabId, windowId, url, title = "", label = "", openedByAgent, openerTabId }) {
    await this.#loaded;
    const existing = this.#byTab.get(tabId);
    if (existing && existing.task_id === taskId) return existing;
    /** @type {Session} */
    const session = {
      task_id: taskId, tab_id: tabId, window_id: windowId, domain: domainOf(url), url, title,
      label: label || taskId, opened_by_agent: openedByAgent, started: Date.now(), group_id: undefined,
      ...(openerTabId !== undefined ? { opener_tab_id: openerTabId } : {}),
    };
    this.#byTab.set(tabId, session);
    await this.#save();
    this.#emit("session_started", { ...session });
    return session;
  }

  /**
   * The session follows its tab to a new URL (and domain).
   * @param {number} tabId
   * @param {string} url
   * @param {string} [title]
   */
  async follow(tabId, url, title) {
    const session = this.#byTab.get(tabId);
    if (!session || (session.url === url && (title === undefined || title === session.title))) return;
    session.url = url;
    session.domain = domainOf(url);
    if (title !== undefined) session.title = title;
    await this.#save();
    this.#emit("navigated", { task_id: session.task_id, tab_id: tabId, url, title: session.title, domain: session.domain });
  }

  /** @param {number} tabId @param {number | undefined} groupId */
  async setGroup(tabId, groupId) {
    const session = this.#byTab.get(tabId);
    if (!session) return;
    session.group_id = groupId;
    await this.#save();
  }

  /**
   * @param {number} tabId
   * @param {string} reason tab_closed | idle | stopped | ended_by_user | blocked | task_stopped
   * @returns {Promise<Session | undefined>}
   */
  async end(tabId, reason) {
    await this.#loaded;
    const session = this.#byTab.get(tabId);
    if (!session) return undefined;
    this.#byTab.delete(tabId);
    this.#noteEnd(session.task_id, reason);
    await this.#save();
    this.#emit("session_ended", { task_id: session.task_id, tab_id: tabId, domain: session.domain, reason });
    return session;
  }

  /**
   * A stop is never overwritten by a later, lesser end (a tab closing after Stop stays "stopped").
   * @param {string} taskId
   * @param {string} reason
   */
  #noteEnd(taskId, reason) {
    if (reason === "closed_by_agent") return;
    this.#noteStop(taskId, reason);
    this.#endReasons.set(taskId, this.#stops.get(taskId) ?? reason);
  }

  /**
   * @param {(s: Session) => boolean} predicate
   * @param {string} reason
   * @returns {Promise<Session[]>}
   */
  async endWhere(predicate, reason) {
    await this.#loaded;
    const ended = [...this.#byTab.values()].filter(predicate);
    if (ended.length === 0) return ended;
    for (const session of ended) {
      this.#byTab.delete(session.tab_id);
      this.#noteEnd(session.task_id, reason);
    }
    // One write for the batch, then the events: Stop all with 50 sessions must not pay 50 storage writes.
    await this.#save();
    for (const session of ended) {
      this.#emit("session_ended", { task_id: session.task_id, tab_id: session.tab_id, domain: session.domain, reason });
    }
    return ended;
  }
}
