/**
 * read_download {id, max_chars?} → where the file is ({id, filename, path, mime, size}); the app reads it
 * (app/bridge/file_hooks.py, declared by `answers_from_disk`), since the extension cannot read the disk. Only the
 * calling task's downloads (tabs/downloads.js): another task's id is answered as unknown.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { taskDownloads } from "./support/task-downloads.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"read_download">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"read_download">>}
 */
export async function readDownload(action, ctx) {
  const id = action.id;
  const record = await taskDownloads(ctx).get(ctx.taskId, id);
  if (!record) {
    const ids = (await taskDownloads(ctx).list(ctx.taskId)).map((r) => r.id);
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

export { readDownload as handler };
