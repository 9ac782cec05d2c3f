/**
 * close_tab {tab_id}: closes a tab the task opened or navigated; other tabs (the person's own, other tasks') are
 * refused.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { findTab } from "../tabs/tab-resolver.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"close_tab">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"close_tab">>}
 */
export async function closeTab(action, ctx) {
  const tabId = action.tab_id;
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

export { closeTab as handler };
