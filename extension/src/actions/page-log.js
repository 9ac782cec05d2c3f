/**
 * page_log {kind: console|errors|network, since?, tab_id?}
 *   → {kind, entries: [{seq, t_ms, …}], last_seq, dropped?, note?}
 *
 * Reads the tab's log kept by tabs/tab-log.js since the task's session began
 * (listening starts here if it had not: then only what follows is seen). The
 * newest entries that fit MAX_RESULT_CHARS are returned.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { taskTab } from "../targets/action-target.js";
import { MAX_ENTRIES } from "../tabs/tab-log.js";

export const MAX_RESULT_CHARS = 20000;

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"page_log">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"page_log">>}
 */
export async function pageLog(action, ctx) {
  const kind = action.kind;
  const since = action.since ?? 0;
  const logs = ctx.pageLogs;
  if (!logs) throw new ActionError(ErrorCode.INTERNAL_ERROR, "the page log is not wired in this extension build");
  const tabId = await taskTab(action, ctx);
  const wasListening = logs.read(tabId, kind).listening;
  await logs.start(tabId);
  const read = logs.read(tabId, kind, since);
  const kept = newestThatFit(read.entries);
  /** @type {import("./support/context.js").ResultOf<"page_log">} */
  const result = { kind, entries: kept, last_seq: read.last_seq };
  const notes = [];
  if (!wasListening) notes.push("bua was not listening to this tab before this call (the extension restarted or the tab was not the task's when its session began): only what happens from now on is logged; call again after acting");
  if (read.dropped) notes.push(`${read.dropped} older ${kind} entries were dropped (only the last ${MAX_ENTRIES} are kept)`);
  if (kept.length < read.entries.length) notes.push(`${read.entries.length - kept.length} older entries did not fit (an answer carries the newest ${MAX_RESULT_CHARS} characters)`);
  if (!read.entries.length && wasListening) notes.push(`no ${kind} entries ${since ? `after #${since}` : `in the ${Math.round(read.began_ms_ago / 1000)} s since the session began`}`);
  if (notes.length) result.note = notes.join("; ");
  return result;
}

/**
 * The newest entries whose JSON fits the result budget, oldest first.
 * @template T
 * @param {T[]} entries
 * @returns {T[]}
 */
export function newestThatFit(entries) {
  let size = 0;
  let from = entries.length;
  while (from > 0) {
    const next = JSON.stringify(entries[from - 1]).length + 1;
    if (size + next > MAX_RESULT_CHARS) break;
    size += next;
    from--;
  }
  return entries.slice(from);
}

export { pageLog as handler };
