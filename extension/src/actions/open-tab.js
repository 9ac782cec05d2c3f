/**
 * open_tab {url, focus?}: a new tab for the task — by default in the
 * minimised bua window (never takes the person's focus), with `focus: true`
 * in the person's focused window — loaded like navigate; it becomes the
 * task's current tab.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { checkNavigableUrl } from "../tabs/url-policy.js";
import { navigate } from "./navigate.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"open_tab">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"open_tab">>}
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

export { openTab as handler };
