/**
 * get_tabs {}: every tab of the normal browser windows, marking the task's
 * tabs (opened or navigated by it, or opened by its clicks) and its current one.
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
 * @returns {Promise<{tabs: TabInfo[]}>}
 */
export async function getTabs(_action, ctx) {
  const [tabs, current, owned] = await Promise.all([
    ctx.tabs.query({ windowType: "normal" }),
    ctx.taskTabs.get(ctx.taskId),
    ctx.taskTabs.ownedTabs(ctx.taskId),
  ]);
  return {
    tabs: tabs.map((/** @type {any} */ tab) => ({
      tab_id: tab.id,
      window_id: tab.windowId,
      url: tab.url || tab.pendingUrl || "",
      title: tab.title ?? "",
      active: Boolean(tab.active),
      in_task: ctx.sessions ? ctx.sessions.get(tab.id)?.task_id === ctx.taskId : tab.id === current || owned.includes(tab.id),
      current: tab.id === current,
    })),
  };
}
