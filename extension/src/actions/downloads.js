/**
 * downloads {} → {downloads: [{id, filename, path, size, mime, state, url, error?, executable?, danger?, stopped?}]}:
 * only the calling task's downloads (tabs/downloads.js).
 */

import { taskDownloads } from "./support/task-downloads.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"downloads">} _action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"downloads">>}
 */
export async function listDownloads(_action, ctx) {
  const records = await taskDownloads(ctx).list(ctx.taskId);
  return { downloads: records.map(shown) };
}

/** @param {import("../tabs/downloads.js").DownloadRecord} r */
function shown(r) {
  return {
    id: r.id, filename: r.filename, path: r.path, size: r.size, mime: r.mime, state: r.state, url: r.url,
    ...(r.error ? { error: r.error } : {}), ...(r.executable ? { executable: true } : {}), ...(r.danger ? { danger: r.danger } : {}),
    ...(r.stopped ? { stopped: true } : {}),
  };
}

export { listDownloads as handler };
