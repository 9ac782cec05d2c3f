/**
 * get_tabs {}: the task's own tabs (its live sessions: opened or navigated by it, or opened by its clicks), each
 * with URL and title, and its current one. Every other tab (the person's own, other tasks', blocked sites) is only
 * counted: a task never learns their URLs or titles.
 */

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

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
 * @param {Record<string, unknown>} _action
 * @param {ActionContext} ctx
 * @returns {Promise<{tabs: TabInfo[], other_tabs: number}>}
 */
export async function getTabs(_action, ctx) {
  const [tabs, current, owned] = await Promise.all([
    ctx.tabs.query({ windowType: "normal" }),
    ctx.taskTabs.get(ctx.taskId),
    ctx.taskTabs.ownedTabs(ctx.taskId),
  ]);
  const mine = (/** @type {any} */ tab) => (ctx.sessions
    ? ctx.sessions.get(tab.id)?.task_id === ctx.taskId : tab.id === current || owned.includes(tab.id));
  const own = tabs.filter(mine);
  return {
    tabs: own.map((/** @type {any} */ tab) => ({
      tab_id: tab.id,
      window_id: tab.windowId,
      url: tab.url || tab.pendingUrl || "",
      title: tab.title ?? "",
      active: Boolean(tab.active),
      in_task: true,
      current: tab.id === current,
    })),
    other_tabs: tabs.length - own.length,
  };
}
