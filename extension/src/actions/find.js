/**
 * find {text? | role? | name?, limit?} → {url, title, matches: [{uid, role, name, text?, context?}], total, note?}
 *
 * Searches the task tab's current document (its shadow roots and same-process
 * frames) in one page call, without walking the page as extract does. The
 * uids come from the tab's uid map (extract/uid-map.js), so they work in
 * every action and stay the same in a later extract.
 */

import { ACTIONS } from "../protocol.js";
import { taskTab } from "../targets/action-target.js";
import { syncAllListeners } from "../extract/listeners.js";
import { SCRIPT_ROLES } from "../extract/page-controls.js";
import { callPage, mainFrameId } from "../extract/run-in-page.js";
import { outOfViewNote } from "../extract/pixel-judge.js";
import { watchTab } from "../extract/tab-watch.js";
import { observeTopDocument, uidFor } from "../extract/uid-map.js";

/** The largest limit the declaration allows (app/protocol/actions/find.py), named when more matched. */
const MAX_LIMIT = 100;

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {{uid: string, role: string, name: string, text?: string, context?: string}} Match
 */

/**
 * @param {import("./support/context.js").ActionOf<"find">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"find">>}
 */
export async function find(action, ctx) {
  const query = { text: action.text, role: action.role, name: action.name, limit: action.limit ?? ACTIONS.find.defaults.limit };
  const tabId = await taskTab(action, ctx);
  watchTab(ctx.debugger, tabId);
  const frame = { tabId, frameId: await mainFrameId(ctx.debugger, tabId) };
  // Script controls are told by their listeners, as extract tells them (page-controls.js): a query that may
  // match one (not one for a semantic role) has the page's listeners synced first.
  if (!query.role || SCRIPT_ROLES.includes(query.role)) await syncAllListeners(ctx.debugger, frame);
  const res = await callPage(ctx.debugger, frame, "search", [{ value: query }]);
  const { doc, total, found, deferred } = res.value;
  observeTopDocument(tabId, doc);
  const matches = found.map((/** @type {{id: number, role: string, name: string, text?: string, context: string}} */ f) => {
    const uid = uidFor(tabId, { sessionId: undefined, frameId: frame.frameId, doc, id: f.id, role: f.role, name: f.name, context: f.context || undefined });
    /** @type {Match} */
    const match = { uid, role: f.role, name: f.name };
    if (f.text) match.text = f.text;
    if (f.context) match.context = f.context;
    return match;
  });
  const tab = await ctx.tabs.get(tabId).catch(() => null);
  /** @type {import("./support/context.js").ResultOf<"find">} */
  const result = { url: tab?.url ?? "", title: tab?.title ?? "", matches, total };
  if (total > matches.length) {
    result.note = `${total - matches.length} more matches not shown; narrow the search (role, name) or raise limit (at most ${MAX_LIMIT})`;
  } else if (total === 0) {
    result.note = "nothing matched in this document (cross-site frames are not searched); check the spelling, or extract to read the page";
  }
  if (deferred) result.note = [result.note, outOfViewNote(deferred, "find")].filter(Boolean).join(". ");
  return result;
}

export { find as handler };
