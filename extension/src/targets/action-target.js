/**
 * Which tab and which element an action works on. Elements are resolved only
 * through targets/element-resolver.js (uids from the last extract, or a selector).
 */

import { ACTIONS, ActionError, ErrorCode, quoting } from "../protocol.js";
import { resolveElement } from "./element-resolver.js";
import { findTab, optionalTabId, requireTab } from "../tabs/tab-resolver.js";
import { prepareTab } from "../tabs/tab-prep.js";
import { policyOf } from "../tabs/dialogs.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {{objectId: string, sessionId?: string, backendNodeId?: number, role?: string, name?: string}} ResolvedElement
 * @typedef {{records: () => import("../tabs/dialogs.js").DialogRecord[], end: () => void}} DialogWatch
 */

/**
 * The tab an action works on: `tab_id` if given, else the task's current tab.
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<number>}
 * @throws {ActionError} tab_not_found
 */
export async function taskTab(action, ctx) {
  const requested = optionalTabId(action.tab_id);
  if (requested !== null && ctx.sessions?.get(requested)) return requested;
  if (requested !== null) return (await requireTab(ctx.tabs, requested)).id;
  const current = await ctx.taskTabs.get(ctx.taskId);
  if (current !== undefined && (await findTab(ctx.tabs, current))) return current;
  throw new ActionError(
    ErrorCode.TAB_NOT_FOUND,
    "no tab for this task yet: navigate or open_tab first (or pass a tab_id from get_tabs)",
  );
}

/**
 * Make the tab the active one of the minimised bua window (never touching the person's windows): a
 * background tab there does not open target=_blank links and paints nothing (measured on Chromium 156).
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<any>} the tab as it was before (null when gone)
 */
async function frontInBuaWindow(ctx, tabId) {
  const tab = await ctx.tabs.get(tabId).catch(() => null);
  if (tab && !tab.active && (await ctx.buaWindow?.isBuaWindow(tab.windowId))) {
    await ctx.tabs.update(tabId, { active: true });
  }
  return tab;
}

/**
 * Run `work` on the action's tab, prepared for input, with the action's
 * dialog policy in force. An input action's tab is brought to the front of
 * the bua window first; with `frontConcurrently` that runs alongside `work`,
 * which gets it as `fronted` (the tab as read before, null when gone) and
 * must await it before sending input.
 * @template T
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {(tabId: number, dialogs: DialogWatch, fronted: Promise<any>) => Promise<T>} work
 * @param {{frontConcurrently?: boolean}} [options]
 * @returns {Promise<T>}
 */
export async function onTaskTab(action, ctx, work, { frontConcurrently = false } = {}) {
  const tabId = await taskTab(action, ctx);
  ctx.noteTab?.(tabId);
  await prepareTab(ctx, tabId);
  // Actions that send input as a person would: their tab must be the active one of its window.
  const input = typeof action.type === "string" && /** @type {Record<string, {needs_input_focus: boolean}>} */ (ACTIONS)[action.type]?.needs_input_focus === true;
  const fronted = input ? frontInBuaWindow(ctx, tabId) : Promise.resolve(null);
  if (!frontConcurrently) await fronted;
  else fronted.catch(() => {});
  const dialogs = ctx.dialogs?.begin(tabId, policyOf(action)) ?? { records: () => [], end: () => {} };
  try {
    return await work(tabId, dialogs, fronted);
  } finally {
    dialogs.end();
  }
}

/**
 * The element named by the action's `uid` or `selector`.
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<ResolvedElement>}
 */
export async function targetElement(action, ctx, tabId) {
  const uid = typeof action.uid === "string" ? action.uid : undefined;
  const selector = typeof action.selector === "string" ? action.selector : undefined;
  if ((uid === undefined) === (selector === undefined)) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "give exactly one of 'uid' (preferred, from the last extract) or 'selector'");
  }
  return resolveElement(ctx, tabId, uid !== undefined ? { uid } : { selector });
}

/**
 * A CDP error about a node, as the protocol error the model can act on.
 * @param {unknown} err
 * @param {string} what e.g. "the element"
 * @returns {unknown} an ActionError, or err unchanged
 */
export function nodeError(err, what = "the element") {
  const message = /** @type {any} */ (err)?.cdpMessage ?? "";
  if (/detached|Could not find node|No node with given id|Cannot find context/i.test(message)) {
    return new ActionError(ErrorCode.ELEMENT_STALE, `${what} is no longer in the page (it changed); extract again and use the new uid`,
      quoting(what === "the element" ? "" : what));
  }
  if (/layout object|not visible|Could not compute (box model|content quads)/i.test(message)) {
    return new ActionError(ErrorCode.NOT_INTERACTABLE, `${what} is not rendered (display:none or not laid out); make it visible first (open its menu or section), or extract to find a visible one`,
      quoting(what === "the element" ? "" : what));
  }
  return err;
}
