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
 */

export const STORAGE_KEY = "bua.downloads";
export const MATCH_MS = 15000;
const MAX_PER_TASK = 100;
const EXECUTABLE = /\.(exe|msi|msix|bat|cmd|com|scr|ps1|vbs|js|jar|apk|app|dmg|pkg|deb|rpm|sh|run|bin|appimage|dll|so|dylib)$/i;

/**
 * @typedef {object} DownloadRecord
 * @property {number} id chrome.downloads id
 * @property {string} task_id
 * @property {number} tab_id
 * @property {string} url
 * @property {string} filename base name
 * @property {string} path absolute path on disk ("" until Chrome has chosen it)
 * @property {string} mime
 * @property {number} size bytes (total, or received so far while in progress; -1 unknown)
 * @property {"in_progress" | "complete" | "interrupted"} state
 * @property {string} [error] why it was interrupted
 * @property {boolean} executable a program or script: sensitive
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
    this.#loaded = this.#load();
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

  /** chrome.downloads.onChanged. @param {any} delta */
  onChanged(delta) {
    const pending = this.#unmatched.get(delta.id)?.item;
    if (pending) {
      for (const [key, change] of Object.entries(delta)) if (key !== "id" && change && "current" in change) pending[key] = change.current;
      return;
    }
    const record = this.#records.get(delta.id);
    if (!record) return;
    if (delta.filename?.current) {
      record.path = delta.filename.current;
      record.filename = baseName(record.path);
      record.executable = EXECUTABLE.test(record.filename);
    }
    if (delta.mime?.current) record.mime = delta.mime.current;
    if (typeof delta.fileSize?.current === "number" && delta.fileSize.current >= 0) record.size = delta.fileSize.current;
    else if (typeof delta.totalBytes?.current === "number" && delta.totalBytes.current >= 0) record.size = delta.totalBytes.current;
    if (delta.state?.current) record.state = delta.state.current;
    if (delta.error?.current) record.error = delta.error.current;
    if (delta.danger?.current && delta.danger.current !== "safe") record.danger = delta.danger.current;
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
      const record = [...this.#records.values()].reverse().find((r) => r.task_id === taskId && r.url === url);
      if (record) await this.#refresh(record);
      if ((record && record.state !== "in_progress") || this.#now() >= deadline) return record;
      await new Promise((resolve) => {
        const done = () => {
          this.#waiters.delete(done);
          clearTimeout(timer);
          resolve(undefined);
        };
        const timer = setTimeout(done, Math.min(100, Math.max(0, deadline - this.#now())));
        this.#waiters.add(done);
      });
    }
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
      executable: EXECUTABLE.test(filename), started: this.#now(),
    };
    if (item.error) record.error = item.error;
    if (item.danger && item.danger !== "safe") record.danger = item.danger;
    this.#records.set(record.id, record);
    const ofTask = [...this.#records.values()].filter((r) => r.task_id === begun.taskId);
    if (ofTask.length > MAX_PER_TASK) this.#records.delete(ofTask[0].id);
    this.#changed();
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
    try {
      const [item] = await this.#api.search({ id: record.id });
      if (!item) return;
      if (item.filename) {
        record.path = item.filename;
        record.filename = baseName(item.filename);
        record.executable = EXECUTABLE.test(record.filename);
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
  };
}
