/**
 * Visible, isolated tab groups: each task's session tabs sit in their own
 * labelled group ("bua · <task>", one colour per task) with a badge, so the
 * person sees which tabs the agent holds. When a session ends the tab leaves
 * the group. Grouping is best effort: a failure never fails an action.
 */

const COLOURS = ["blue", "purple", "cyan", "orange", "green", "pink", "yellow", "red"];

/** @param {string} taskId */
export function colourFor(taskId) {
  let hash = 0;
  for (const ch of taskId) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return COLOURS[hash % COLOURS.length];
}

/** @param {string} label */
export function groupTitle(label) {
  const text = label.length > 40 ? `${label.slice(0, 39)}…` : label;
  return `bua · ${text}`;
}

export class TabGroups {
  #tabs;
  #groups;
  #action;
  #log;
  /** @type {Map<string, number>} task -> group id */
  #byTask = new Map();

  /**
   * @param {{tabs: any, tabGroups?: any, action?: any, log?: {warn: Function}}} apis
   */
  constructor({ tabs, tabGroups, action, log = console }) {
    this.#tabs = tabs;
    this.#groups = tabGroups;
    this.#action = action;
    this.#log = log;
  }

  /**
   * @param {{task_id: string, tab_id: number, label: string}} session
   * @returns {Promise<number | undefined>} the group id
   */
  async add(session) {
    try {
      await this.mark(session);
      if (!this.#groups || !this.#tabs.group) return undefined;
      const existing = this.#byTask.get(session.task_id);
      const tab = await this.#tabs.get(session.tab_id);
      const sameWindow = existing !== undefined
        && (await this.#groups.get(existing).then((/** @type {any} */ g) => g.windowId === tab.windowId, () => false));
      const groupId = await this.#tabs.group(sameWindow
        ? { groupId: existing, tabIds: [session.tab_id] }
        : { tabIds: [session.tab_id], createProperties: { windowId: tab.windowId } });
      await this.#groups.update(groupId, { title: groupTitle(session.label), color: colourFor(session.task_id) });
      this.#byTask.set(session.task_id, groupId);
      return groupId;
    } catch (err) {
      this.#log.warn("bua: could not group the tab:", err);
      return undefined;
    }
  }

  /**
   * The tab's "bua" badge. Chrome clears a tab's own badge when the tab loads a new document, so this runs again
   * each time a session tab moves on.
   * @param {{tab_id: number}} session
   */
  async mark(session) {
    try {
      await this.#action?.setBadgeText({ tabId: session.tab_id, text: "bua" });
      await this.#action?.setBadgeBackgroundColor?.({ tabId: session.tab_id, color: "#5b5bd6" });
    } catch {
      // the tab is gone
    }
  }

  /** @param {{task_id: string, tab_id: number}} session */
  async remove(session) {
    try {
      await this.#action?.setBadgeText({ tabId: session.tab_id, text: "" });
      if (this.#tabs.ungroup) await this.#tabs.ungroup([session.tab_id]);
    } catch {
      // the tab is gone or was never grouped
    }
  }
}
