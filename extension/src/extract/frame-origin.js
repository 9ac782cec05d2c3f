/**
 * Which frame of another origin than the tab's page an element an action targets stands in: the origin of its
 * out-of-process frame (its uid's session), or undefined (the page's own; a selector, which the top document
 * answers). What the action's result quotes of it is that site's (framed.js shownBy).
 */

import { entryOf } from "./uid-map.js";
import { otherOrigin } from "./framed.js";

/**
 * @param {import("../actions/support/context.js").ActionContext} ctx
 * @param {number} tabId
 * @param {string | undefined} sessionId the element's session (undefined: the tab's own)
 * @returns {Promise<string | undefined>}
 */
export async function frameOrigin(ctx, tabId, sessionId) {
  const child = sessionId ? ctx.debugger.childTargets(tabId).find((c) => c.sessionId === sessionId) : undefined;
  if (!child) return undefined;
  const tab = await ctx.tabs.get(tabId).catch(() => null);
  return otherOrigin(child.url, tab?.url ?? "");
}

/**
 * The origin of the frame of another origin that a targeted uid stands in, or undefined.
 * @param {import("../actions/support/context.js").ActionContext} ctx
 * @param {number} tabId
 * @param {{uid?: string}} target
 */
export const targetFrameOrigin = (ctx, tabId, target) =>
  frameOrigin(ctx, tabId, target.uid ? entryOf(tabId, target.uid)?.sessionId : undefined);
