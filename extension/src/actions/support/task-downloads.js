/**
 * The calling task's downloads (tabs/downloads.js), shared by downloads and read_download: only the task's own
 * are ever listed or read.
 */

import { ActionError, ErrorCode } from "../../protocol.js";

/**
 * @param {import("./context.js").ActionContext} ctx
 * @returns {import("../../tabs/downloads.js").TaskDownloads}
 */
export function taskDownloads(ctx) {
  if (!ctx.downloads) throw new ActionError(ErrorCode.INTERNAL_ERROR, "downloads are not wired in this extension build");
  return ctx.downloads;
}
