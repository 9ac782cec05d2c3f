/**
 * What each task last saw of each tab: the snapshot a change list is computed against (diff.js).
 *
 * One snapshot per (task, tab, selector): a whole-page extract and a scoped one (`selector`) are compared only
 * with their own kind. An extract sets it, and so does an input action whose result carried its change list
 * (the model saw those changes). Memory is bounded: at most MAX_SNAPSHOTS, least recently used dropped first,
 * each no larger than the extract it came from; a tab's snapshots go when its debugger session ends (the
 * session ended, the tab closed: tab-watch.js).
 */

import { framesByText } from "./framed.js";

/** @typedef {import("./diff.js").Snapshot} Snapshot */

export const MAX_SNAPSHOTS = 24;

/** @type {Map<string, Snapshot & {tabId: number}>} in use order, oldest first */
const store = new Map();

/**
 * @param {string} taskId
 * @param {number} tabId
 * @param {string} [selector]
 */
const keyOf = (taskId, tabId, selector) => JSON.stringify([taskId, tabId, selector ?? ""]);

/**
 * @param {string} taskId
 * @param {number} tabId
 * @param {string | undefined} selector
 * @param {Snapshot} snapshot
 */
export function remember(taskId, tabId, selector, snapshot) {
  const key = keyOf(taskId, tabId, selector);
  store.delete(key);
  store.set(key, { ...snapshot, tabId });
  while (store.size > MAX_SNAPSHOTS) store.delete(/** @type {string} */ (store.keys().next().value));
}

/**
 * @param {string} taskId
 * @param {number} tabId
 * @param {string} [selector]
 * @returns {Snapshot | undefined}
 */
export function previous(taskId, tabId, selector) {
  return store.get(keyOf(taskId, tabId, selector));
}

/**
 * Drop every snapshot of a tab.
 * @param {number} tabId
 */
export function forgetTab(tabId) {
  for (const [key, snap] of store) if (snap.tabId === tabId) store.delete(key);
}

/** How many snapshots are kept (tests, soak). */
export const snapshotCount = () => store.size;

/**
 * The snapshot of a rendered page.
 * @param {{url: string, title: string}} page
 * @param {{md: {text: string, frame?: string}[], all: Map<string, import("./element-lines.js").ElementRecord>}} rendered
 * @param {string} doc the top document's token
 * @returns {Snapshot}
 */
export function snapshotOf(page, rendered, doc) {
  return { doc, url: page.url, title: page.title, lines: rendered.md.map((l) => l.text), elements: rendered.all,
    framed: framesByText(rendered.md) };
}
