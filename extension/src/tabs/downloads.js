/**
 * The downloads the agent's tabs started, each belonging to the task whose
 * session tab started it. Other tasks cannot list or read it, and downloads
 * the person starts in their own tabs are never recorded.
 *
 * Two signals are joined by URL. A session tab's Page.downloadWillBegin
 * (CDP) says which tab started a download. chrome.downloads says the file:
 * onCreated gives its id, URL and type, and onChanged its final path, size
 * and state. Either may come first, and they are matched within MATCH_MS.
 * A download that no session tab announced (a link that opens a new tab to
 * download, which bua had not attached to yet) belongs to a task when its
 * referrer is the page of that task's session tab and of no other open tab.
 * Downloads land where the person's browser puts them. Records are kept in
 * chrome.storage.session, so they survive a service-worker restart.
 *
 * A task's executable download is stopped unless the person approved it
 * (executable-guard.js). chrome.downloads.onDeterminingFilename holds every
 * download until its listeners suggest a name: an executable waits there, up
 * to OWNER_WAIT_MS, until it is known whether a session tab began it, and a
 * task's is decided before its file gets its name. Later changes (a name or a
 * danger verdict Chrome reports afterwards) are decided again, as a backstop.
 */

import { ExecutableGuard, isExecutable } from "./executable-guard.js";

export const STORAGE_KEY = "bua.downloads";
export const MATCH_MS = 15000;
/** How long an executable's download is held while it is not yet known whether a session tab began it. */
export const OWNER_WAIT_MS = 2000;
const MAX_PER_TASK = 100;

/**
 * @typedef {object} DownloadRecord
 * @property {number} id chrome.downloads id
 * @property {string} task_id
 * @property {number} tab_id
 * @property {string} url
 * @property {string} [requested] the URL it was requested at, when a redirect led elsewhere
 * @property {string} filename base name
 * @property {string} path absolute path on disk ("" until Chrome has chosen it)
 * @property {string} mime
 * @property {number} size bytes (total, or received so far while in progress; -1 unknown)
 * @property {"in_progress" | "complete" | "interrupted"} state
 * @property {string} [error] why it was interrupted
 * @property {boolean} executable a program or script: sensitive
 * @property {boolean} [approved] an executable the person approved (executable-guard.js)
 * @property {boolean} [stopped] an executable bua stopped: state "interrupted", `error` says why, no file
 * @property {string} [danger] Chrome's danger type, when not "safe"
 * @property {number} started epoch ms
 *
 * @typedef {{tabId: number, taskId: string, url: string, at: number}} Begun
 */

/** @param {string} path */
const baseName = (path) => path.split(/[\\/]/).pop() ?? path;

export class TaskDownloads {
  #api;
  #tabs;
  #storage;
  #sessions;
  #now;
  /** @type {Map<number, DownloadRecord>} */
  #records = new Map();
  /** @type {Begun[]} session tabs that began a download not yet seen by chrome.downloads */
  #begun = [];
  /** @type {Map<number, {item: any, at: number}>} chrome.downloads items not yet matched to a tab */
  #unmatched = new Map();
  /** @type {Set<() => void>} */
  #waiters = new Set();
  #loaded;
  #guard;

  /**
   * @param {object} deps
   * @param {any} deps.downloads chrome.downloads
   * @param {any} deps.storage chrome.storage.session
   * @param {{get: (tabId: number) => {task_id: string} | undefined,
   *   all: () => {task_id: string, tab_id: number, url: string}[]}} deps.sessions
   * @param {any} [deps.tabs] chrome.tabs (for the referrer rule)
   * @param {() => number} [deps.now]
   */
  constructor({ downloads, storage, sessions, tabs, now = Date.now }) {
    this.#api = downloads;
    this.#tabs = tabs;
    this.#storage = storage;
    this.#sessions = sessions;
    this.#now = now;
    this.#guard = new ExecutableGuard({ downloads, now });
    this.#loaded = this.#load();
  }

  /**
   * The person approved a click of this task that downloads an executable (safety/confirmations.js).
   * @param {string} taskId
   */
  approveExecutable(taskId) {
    this.#guard.approve(taskId);
  }

  /** Wait until the records kept before a worker restart are back. */
  ready() {
    return this.#loaded;
  }

  /**
   * A CDP event of any tab (background.js forwards chrome.debugger.onEvent).
   * @param {{tabId?: number, sessionId?: string}} source
   * @param {string} method
   * @param {any} params
   */
  onCdpEvent(source, method, params) {
    if (method !== "Page.downloadWillBegin" || source.tabId === undefined) return;
    const session = this.#sessions.get(source.tabId);
    if (!session) return;
    const begun = { tabId: source.tabId, taskId: session.task_id, url: String(params?.url ?? ""), at: this.#now() };
    this.#prune();
    for (const [id, { item }] of this.#unmatched) {
      if (this.#sameUrl(item, begun.url)) {
        this.#unmatched.delete(id);
        this.#own(item, begun);
        return;
      }
    }
    this.#begun.push(begun);
  }

  /** chrome.downloads.onCreated. @param {any} item */
  onCreated(item) {
    if (this.#records.has(item.id) || this.#unmatched.has(item.id)) return;
    this.#prune();
    const index = this.#begun.findIndex((b) => this.#sameUrl(item, b.url));
    if (index < 0) {
      this.#unmatched.set(item.id, { item, at: this.#now() });
      this.#byReferrer(item).catch(() => {});
      return;
    }
    const [begun] = this.#begun.splice(index, 1);
    this.#own(item, begun);
  }

  /**
   * chrome.downloads.onDeterminingFilename: Chrome gives the download's file its name only once `suggest` is
   * called. A file that is no executable goes on at once; an executable is held until its owner is known and, if
   * a task's, decided (stopped or approved).
   * @param {any} item
   * @param {(suggestion?: object) => void} suggest
   * @returns {boolean} true: `suggest` is called later (Chrome's rule for a listener that answers later)
   */
  onDeterminingFilename(item, suggest) {
    const name = baseName(String(item.filename ?? ""));
    if (!isExecutable(name, item.danger)) {
      suggest();
      return false;
    }
    this.#hold(item, name).catch((err) => console.warn("bua: could not check an executable download:", err)).finally(() => {
      try {
        suggest();
      } catch {
        // cancelled: Chrome no longer waits for a name
      }
    });
    return true;
  }

  /**
   * Wait (up to OWNER_WAIT_MS) until a session tab's Page.downloadWillBegin or the referrer rule says whose
   * download this is; a task's is decided by the guard.
   * @param {any} item
   * @param {string} name the file name Chrome means to give it
   */
  async #hold(item, name) {
    this.onCreated(item);
    const deadline = this.#now() + OWNER_WAIT_MS;
    // With no session tab at all, no task can own it: the person's own download is not held up.
    while (!this.#records.has(item.id) && this.#unmatched.has(item.id) && this.#sessions.all().length > 0
      && this.#now() < deadline) await this.#nextChange(deadline);
    const record = this.#records.get(item.id);
    if (!record) return;
    record.filename = name;
    record.executable = true;
    await this.#decide(record);
  }

  /**
   * Let the guard decide an executable (it never throws: a failure is logged, the record stays as it was).
   * @param {DownloadRecord} record
   */
  async #decide(record) {
    try {
      await this.#guard.decide(record);
    } catch (err) {
      console.warn("bua: could not check an executable download:", err);
    }
    this.#changed();
  }

  /** chrome.downloads.onChanged. @param {any} delta */
  onChanged(delta) {
    const pending = this.#unmatched.get(delta.id)?.item;
    if (pending) {
      for (const [key, change] of Object.entries(delta)) if (key !== "id" && change && "current" in change) pending[key] = change.current;
      return;
    }
    const record = this.#records.get(delta.id);
    if (!record) return;
    if (record.stopped) return;
    if (delta.filename?.current) {
      record.path = delta.filename.current;
      record.filename = baseName(record.path);
    }
    if (delta.mime?.current) record.mime = delta.mime.current;
    if (typeof delta.fileSize?.current === "number" && delta.fileSize.current >= 0) record.size = delta.fileSize.current;
    else if (typeof delta.totalBytes?.current === "number" && delta.totalBytes.current >= 0) record.size = delta.totalBytes.current;
    if (delta.state?.current) record.state = delta.state.current;
    if (delta.error?.current) record.error = delta.error.current;
    if (delta.danger?.current && delta.danger.current !== "safe") record.danger = delta.danger.current;
    record.executable = isExecutable(record.filename, record.danger);
    if (record.executable && (delta.filename?.current || delta.danger?.current || delta.state?.current)) {
      void this.#decide(record);
      return;
    }
    this.#changed();
  }

  /**
   * The task's downloads, oldest first, brought up to date from chrome.downloads.
   * @param {string} taskId
   * @returns {Promise<DownloadRecord[]>}
   */
  async list(taskId) {
    await this.#loaded;
    const mine = [...this.#records.values()].filter((r) => r.task_id === taskId);
    await Promise.all(mine.map((r) => this.#refresh(r)));
    return mine;
  }

  /**
   * One of the task's downloads, or undefined when there is none by that id (or it is another task's).
   * @param {string} taskId
   * @param {number} id
   */
  async get(taskId, id) {
    await this.#loaded;
    const record = this.#records.get(id);
    if (!record || record.task_id !== taskId) return undefined;
    await this.#refresh(record);
    return record;
  }

  /**
   * The download a tab's action started (seen as Page.downloadWillBegin with this URL), waiting up to `ms`
   * for chrome.downloads to report it and, a little longer, for a small file to finish.
   * @param {string} taskId
   * @param {string} url
   * @param {number} ms
   * @returns {Promise<DownloadRecord | undefined>}
   */
  async started(taskId, url, ms) {
    const deadline = this.#now() + ms;
    for (;;) {
      const record = [...this.#records.values()].reverse()
        .find((r) => r.task_id === taskId && (r.url === url || r.requested === url));
      if (record) await this.#refresh(record);
      if ((record && record.state !== "in_progress") || this.#now() >= deadline) return record;
      await this.#nextChange(deadline);
    }
  }

  /**
   * Until a record changes, 100 ms pass or the deadline comes, whichever is first.
   * @param {number} deadline epoch ms
   */
  #nextChange(deadline) {
    return new Promise((resolve) => {
      const done = () => {
        this.#waiters.delete(done);
        clearTimeout(timer);
        resolve(undefined);
      };
      const timer = setTimeout(done, Math.min(100, Math.max(0, deadline - this.#now())));
      this.#waiters.add(done);
    });
  }

  /**
   * @param {any} item
   * @param {Begun} begun
   */
  #own(item, begun) {
    const path = String(item.filename ?? "");
    const filename = path ? baseName(path) : baseName(new URL(item.finalUrl || item.url).pathname) || "download";
    /** @type {DownloadRecord} */
    const record = {
      id: item.id, task_id: begun.taskId, tab_id: begun.tabId, url: String(item.finalUrl || item.url || begun.url),
      filename, path, mime: String(item.mime ?? ""), size: sizeOf(item), state: item.state ?? "in_progress",
      executable: isExecutable(filename, item.danger), started: this.#now(),
    };
    if (item.url && item.url !== record.url) record.requested = String(item.url);
    if (item.error) record.error = item.error;
    if (item.danger && item.danger !== "safe") record.danger = item.danger;
    this.#records.set(record.id, record);
    const ofTask = [...this.#records.values()].filter((r) => r.task_id === begun.taskId);
    if (ofTask.length > MAX_PER_TASK) this.#records.delete(ofTask[0].id);
    // A name Chrome chose already (the item was created before bua saw it) is decided now; otherwise when named.
    if (record.executable && path) void this.#decide(record);
    else this.#changed();
  }

  /**
   * Own a download no session tab announced when its referrer is the page of exactly one task's session tabs
   * and of no tab outside every session (the person's own tab on the same page keeps it theirs).
   * @param {any} item
   */
  async #byReferrer(item) {
    const referrer = String(item.referrer ?? "");
    if (!referrer || !this.#tabs) return;
    const sessions = this.#sessions.all().filter((s) => s.url === referrer);
    if (new Set(sessions.map((s) => s.task_id)).size !== 1) return;
    const open = await this.#tabs.query({});
    if (open.some((/** @type {any} */ t) => (t.url === referrer || t.pendingUrl === referrer) && !this.#sessions.get(t.id))) return;
    if (!this.#unmatched.has(item.id)) return;
    this.#unmatched.delete(item.id);
    this.#own(item, { tabId: sessions[0].tab_id, taskId: sessions[0].task_id, url: String(item.url ?? ""), at: this.#now() });
  }

  /** Forget signals too old to be matched any more. */
  #prune() {
    const now = this.#now();
    this.#begun = this.#begun.filter((b) => now - b.at < MATCH_MS);
    for (const [id, { at }] of this.#unmatched) if (now - at >= MATCH_MS) this.#unmatched.delete(id);
  }

  /** @param {any} item @param {string} url */
  #sameUrl(item, url) {
    return Boolean(url) && (item.url === url || item.finalUrl === url);
  }

  /** @param {DownloadRecord} record */
  async #refresh(record) {
    if (record.stopped) return;
    try {
      const [item] = await this.#api.search({ id: record.id });
      if (!item) return;
      if (item.filename) {
        record.path = item.filename;
        record.filename = baseName(item.filename);
        record.executable = isExecutable(record.filename, record.danger);
      }
      record.state = item.state ?? record.state;
      record.size = item.state === "complete" ? sizeOf(item) : Math.max(0, item.bytesReceived ?? 0);
      if (item.mime) record.mime = item.mime;
      if (item.error) record.error = item.error;
      if (item.exists === false && item.state === "complete") record.error = "the file was moved or deleted";
    } catch {
      // the API is gone with the worker: keep what is known
    }
  }

  #changed() {
    for (const wake of [...this.#waiters]) wake();
    this.#storage?.set({ [STORAGE_KEY]: [...this.#records.values()] }).catch(() => {});
  }

  async #load() {
    try {
      const stored = (await this.#storage?.get(STORAGE_KEY))?.[STORAGE_KEY];
      if (Array.isArray(stored)) for (const r of stored) if (!this.#records.has(r.id)) this.#records.set(r.id, r);
    } catch {
      // nothing kept
    }
  }
}

/** @param {any} item */
function sizeOf(item) {
  if (typeof item.fileSize === "number" && item.fileSize >= 0) return item.fileSize;
  if (typeof item.totalBytes === "number" && item.totalBytes >= 0) return item.totalBytes;
  return -1;
}

/**
 * What an action's effects say about a download it started: name, size, type and state.
 * @param {DownloadRecord | undefined} record
 * @param {{url: string, filename: string}} seen
 */
export function downloadEffect(record, seen) {
  if (!record) return { filename: seen.filename, url: seen.url, state: "starting" };
  return {
    id: record.id, filename: record.filename, size: record.size, mime: record.mime, state: record.state,
    ...(record.error ? { error: record.error } : {}), ...(record.executable ? { executable: true } : {}),
    ...(record.stopped ? { stopped: true } : {}),
  };
}
