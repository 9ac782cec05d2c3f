/**
 * A task's executable downloads are stopped unless the person approved them (docs/architecture.md, "Files and
 * page logs"). The click check (safety/classify.js) can only ask first when a link's URL or `download` attribute
 * names the file; a redirect, a server's Content-Disposition or a script names it only once the download has
 * begun. So tabs/downloads.js asks this guard about every download of a task as soon as its file name is known,
 * in chrome.downloads.onDeterminingFilename, which holds the download before any file gets its name, and again
 * on each later change, as a backstop.
 *
 * An approval is what the person gave through the confirmation flow: when a held click whose finding was an
 * executable download is allowed and sent again with its token, safety/confirmations.js tells the guard, and
 * the task may then download ONE executable within APPROVAL_MS.
 *
 * Stopping a download cancels it (Chrome deletes its partial file); one that completed already has its file
 * removed. It stays in Chrome's download list (cancelled or deleted), so the person can see what happened and
 * download it themselves; it is not erased.
 */

import { EXECUTABLE } from "../safety/classify.js";

/** How long an approved click's executable download may take to begin. */
export const APPROVAL_MS = 15000;
/** What a stopped download's `error` says (no page text in it: the file name is in its own field). */
export const STOPPED_REASON = "stopped by bua: an executable file the person did not approve; the person must "
  + "download it themselves, or allow the click that starts it when bua asks";

/**
 * A program or script, by its file name or by Chrome's verdict that the file type is dangerous.
 * @param {string} filename
 * @param {string} [danger] Chrome's danger type
 */
export function isExecutable(filename, danger) {
  return EXECUTABLE.test(filename) || danger === "file";
}

/** @typedef {import("./downloads.js").DownloadRecord} DownloadRecord */

export class ExecutableGuard {
  #api;
  #now;
  /** @type {Map<string, number[]>} per task, when each approval lapses */
  #approvals = new Map();

  /**
   * @param {{downloads: any, now?: () => number}} deps chrome.downloads
   */
  constructor({ downloads, now = Date.now }) {
    this.#api = downloads;
    this.#now = now;
  }

  /**
   * The person approved a click that downloads an executable: the task may download one within APPROVAL_MS.
   * @param {string} taskId
   */
  approve(taskId) {
    this.#approvals.set(taskId, [...this.#live(taskId), this.#now() + APPROVAL_MS]);
  }

  /**
   * Decide a task's download once its name is known: nothing for a file that is no executable, nor for one
   * decided already; an approved one is marked `approved`; any other is stopped and marked `stopped`, `state`
   * "interrupted", `error` STOPPED_REASON and no `path` (no file is kept). Returns whether it stopped it now.
   * @param {DownloadRecord} record
   * @returns {Promise<boolean>}
   */
  async decide(record) {
    if (!record.executable || record.approved || record.stopped) return false;
    const live = this.#live(record.task_id);
    if (live.length > 0) {
      live.shift();
      this.#approvals.set(record.task_id, live);
      record.approved = true;
      return false;
    }
    record.stopped = true;
    record.state = "interrupted";
    record.error = STOPPED_REASON;
    record.path = "";
    await this.#stop(record.id);
    return true;
  }

  /** @param {string} taskId */
  #live(taskId) {
    const now = this.#now();
    const live = (this.#approvals.get(taskId) ?? []).filter((until) => until > now);
    if (live.length === 0) this.#approvals.delete(taskId);
    return live;
  }

  /**
   * Cancel the download (Chrome deletes the partial file); if it had completed, remove its file.
   * @param {number} id
   */
  async #stop(id) {
    try {
      await this.#api.cancel(id);
    } catch {
      // completed or gone already: the file is looked at below
    }
    try {
      const [item] = await this.#api.search({ id });
      if (item?.state === "complete" && item.exists !== false) await this.#api.removeFile(id);
    } catch (err) {
      console.warn("bua: could not remove a stopped download's file:", err);
    }
  }
}
