/**
 * open_tab {url, focus?}: a new tab for the task — by default in the
 * minimised bua window (never takes the person's focus), with `focus: true`
 * in the person's focused window — loaded like navigate; it becomes the
 * task's current tab.
 *
 * close_tab {tab_id}: closes a tab the task opened or navigated; other tabs
 * (the person's own, other tasks') are refused.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { checkNavigableUrl } from "../tabs/url-policy.js";
import { findTab, optionalTabId } from "../tabs/tab-resolver.js";
import { navigate } from "./navigate.js";

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<{tab_id: number, window_id: number, url: string, title: string}>}
 */
export async function openTab(action, ctx) {
  const url = checkNavigableUrl(action.url);
  const win = ctx.buaWindow;
  if (!win) throw new ActionError(ErrorCode.INTERNAL_ERROR, "no bua window to open the tab in; retry once");
  const tab = action.focus ? await win.focusedTab() : await win.backgroundTab();
  await ctx.claimTab?.(tab.id, tab.windowId);
  await ctx.taskTabs.set(ctx.taskId, tab.id);
  const loaded = await navigate({ type: "navigate", url, tab_id: tab.id }, ctx);
  return { tab_id: tab.id, window_id: tab.windowId, url: loaded.url, title: loaded.title };
}

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<{closed: number, current_tab_id: number | null}>}
 */
export async function closeTab(action, ctx) {
  const tabId = optionalTabId(action.tab_id);
  if (tabId === null) throw new ActionError(ErrorCode.INVALID_ACTION, "'tab_id' is required: the id of the tab to close, from get_tabs");
  if (!(await findTab(ctx.tabs, tabId))) {
    throw new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} does not exist (already closed?); call get_tabs`);
  }
  if (!(await ctx.taskTabs.owns(ctx.taskId, tabId))) {
    throw new ActionError(ErrorCode.TAB_NOT_FOUND,
      `tab ${tabId} is not one of this task's tabs (it is the person's or another task's); only tabs this task opened or navigated can be closed`);
  }
  try {
    await ctx.tabs.remove(tabId);
  } catch {
    throw new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} is already gone; call get_tabs`);
  }
  await ctx.taskTabs.forgetTab(tabId);
  let current = (await ctx.taskTabs.get(ctx.taskId)) ?? null;
  if (current === null) {
    const owned = await ctx.taskTabs.ownedTabs(ctx.taskId);
    current = owned.length > 0 ? owned[owned.length - 1] : null;
    if (current !== null) await ctx.taskTabs.set(ctx.taskId, current);
  }
  return { closed: tabId, current_tab_id: current };
}
