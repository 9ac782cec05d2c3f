/**
 * downloads {} → {downloads: [{id, filename, path, size, mime, state, url, error?, executable?, danger?, stopped?}]}
 * read_download {id, max_chars?} → where the file is ({id, filename, path, mime, size}); the app reads it
 *   (app/bridge/file_hooks.py), since the extension cannot read the disk.
 *
 * Only the calling task's downloads (tabs/downloads.js): another task's id is answered as unknown.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/**
 * @param {Record<string, unknown>} _action
 * @param {ActionContext} ctx
 */
export async function listDownloads(_action, ctx) {
  const records = await registry(ctx).list(ctx.taskId);
  return { downloads: records.map(shown) };
}

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 */
export async function readDownload(action, ctx) {
  const id = action.id;
  if (!Number.isSafeInteger(id) || /** @type {number} */ (id) < 0) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "'id' must be a download id from downloads");
  }
  const record = await registry(ctx).get(ctx.taskId, /** @type {number} */ (id));
  if (!record) {
    const ids = (await registry(ctx).list(ctx.taskId)).map((r) => r.id);
    throw new ActionError(ErrorCode.INVALID_ACTION, ids.length
      ? `this task has no download ${id}; its downloads are: ${ids.join(", ")}`
      : `this task has no download ${id}; it has downloaded nothing (a click that starts a download says so in its effects)`);
  }
  if (record.state === "in_progress") {
    throw new ActionError(ErrorCode.TIMEOUT, `${record.filename} is still downloading (${record.size} bytes so far); wait a moment and read it again`,
      quoting(record.filename));
  }
  if (record.stopped) {
    throw new ActionError(ErrorCode.NAVIGATION_FAILED, `${record.filename} was not downloaded (${record.error}); `
      + "hand off with status needs_user and ask the person to download it themselves", quoting(record.filename));
  }
  if (record.state === "interrupted" || !record.path) {
    throw new ActionError(ErrorCode.NAVIGATION_FAILED, `${record.filename} did not download (${record.error ?? "interrupted"}); click the link again or report it`,
      quoting(record.filename));
  }
  return { id: record.id, filename: record.filename, path: record.path, mime: record.mime, size: record.size };
}

/** @param {ActionContext} ctx */
function registry(ctx) {
  if (!ctx.downloads) throw new ActionError(ErrorCode.INTERNAL_ERROR, "downloads are not wired in this extension build");
  return ctx.downloads;
}

/** @param {import("../tabs/downloads.js").DownloadRecord} r */
function shown(r) {
  return {
    id: r.id, filename: r.filename, path: r.path, size: r.size, mime: r.mime, state: r.state, url: r.url,
    ...(r.error ? { error: r.error } : {}), ...(r.executable ? { executable: true } : {}), ...(r.danger ? { danger: r.danger } : {}),
    ...(r.stopped ? { stopped: true } : {}),
  };
}
