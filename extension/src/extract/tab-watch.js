/**
 * Per-tab bookkeeping that keeps uids honest: the tab's uid map and cached
 * page contexts are dropped when its main frame navigates (Page.frameNavigated
 * of the top frame in the tab's own session) or the tab goes away.
 * Correctness does not hang on these events: every uid carries its
 * document's token (page-registry.js), so a uid from an older document is
 * element_stale even if an event was missed.
 */

import { forgetContexts } from "./run-in-page.js";
import { forgetTab as forgetSnapshots } from "./snapshots.js";
import { clearTab as clearUids } from "./uid-map.js";

/** @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController */

/** @type {WeakMap<DebuggerController, Set<number>>} */
const watched = new WeakMap();

/**
 * Forget a tab's uid map and page contexts.
 * @param {number} tabId
 */
export function clearTab(tabId) {
  clearUids(tabId);
  forgetContexts(tabId);
}

/**
 * Subscribe (once per attachment) to the tab's main-frame navigations. This
 * does not enable the Page domain (navigate does; enabling it here cost
 * ~60 ms on a first extract): when no event comes, collect.js still notices a
 * new top document by its token and clears the map then.
 * @param {DebuggerController} dbg
 * @param {number} tabId
 */
export function watchTab(dbg, tabId) {
  const key = dbg.controller ?? dbg; // one entry per controller, also when a request sees it through a wrapper
  let tabs = watched.get(key);
  if (!tabs) watched.set(key, (tabs = new Set()));
  if (tabs.has(tabId)) return;
  tabs.add(tabId);
  const offNavigated = dbg.on(tabId, "Page.frameNavigated", (params, source) => {
    if (source.sessionId === undefined && !params.frame?.parentId) clearTab(tabId);
  });
  const offDetach = dbg.onDetach(tabId, (reason) => {
    offNavigated();
    offDetach();
    tabs.delete(tabId);
    forgetContexts(tabId);
    forgetSnapshots(tabId); // the session ended or the tab closed: what the task saw of it is no use any more
    if (reason === "target_closed") clearTab(tabId);
  });
}
