/**
 * get_tabs {}: the task's own tabs (its live sessions: opened or navigated by it, or opened by its clicks), each
 * with URL and title, and its current one. Every other tab (the person's own, other tasks', blocked sites) is only
 * counted: a task never learns their URLs or titles. The app answers it from its mirror of the same query
 * (tabs/tab-feed.js, app/bridge/tab_mirror.py) and asks here only when it has no trustworthy mirror.
 */

import { TAB_QUERY, tabFields } from "../tabs/tab-feed.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @typedef {object} TabInfo
 * @property {number} tab_id
 * @property {number} window_id
 * @property {string} url
 * @property {string} title
 * @property {boolean} active
 * @property {boolean} in_task whether the task owns this tab
 * @property {boolean} current whether actions without tab_id go to this tab
 */

/**
 * @param {import("./support/context.js").ActionOf<"get_tabs">} _action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"get_tabs"> & {tabs: TabInfo[], other_tabs: number}>}
 */
export async function getTabs(_action, ctx) {
  const [tabs, current, owned] = await Promise.all([
    ctx.tabs.query(TAB_QUERY),
    ctx.taskTabs.get(ctx.taskId),
    ctx.taskTabs.ownedTabs(ctx.taskId),
  ]);
  const mine = (/** @type {number} */ id) => (ctx.sessions
    ? ctx.sessions.get(id)?.task_id === ctx.taskId : id === current || owned.includes(id));
  const own = tabs.filter((tab) => tab.id !== undefined && mine(tab.id));
  return {
    tabs: own.map((tab) => ({
      ...tabFields(tab),
      in_task: true,
      current: tab.id === current,
    })),
    other_tabs: tabs.length - own.length,
  };
}

export { getTabs as handler };
