/**
 * history {direction: back | forward | reload, tab_id?, timeout_ms = 30000}: step through the tab's session
 * history (or reload it) and wait for the page to load. The step's target is checked against the blocklist
 * before it is taken, like a navigate; the gate checks where the tab really went afterwards.
 */

import { ACTIONS, ActionError, ErrorCode } from "../protocol.js";
import { onTaskTab } from "../targets/action-target.js";
import { requireTab } from "../tabs/tab-resolver.js";
import { domainOf } from "../sessions/session-store.js";
import { LOAD_GRACE_MS } from "./navigate.js";


/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"history">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"history">>}
 */
export async function history(action, ctx) {
  const direction = action.direction;
  const timeoutMs = action.timeout_ms ?? ACTIONS.history.defaults.timeout_ms;
  return onTaskTab(action, ctx, async (tabId) => {
    const { currentIndex, entries } = await ctx.debugger.send(tabId, "Page.getNavigationHistory");
    const index = currentIndex + (direction === "back" ? -1 : direction === "forward" ? 1 : 0);
    const entry = entries[index];
    // A new tab's first entry (about:blank, a browser page) is not a page to go back to.
    if (!entry || !/^https?:/i.test(entry.url)) {
      throw new ActionError(ErrorCode.NAVIGATION_FAILED, `there is no page to go ${direction} to in tab ${tabId} `
        + `(it is at ${currentIndex + 1} of ${entries.length} in its history); navigate to a URL instead`);
    }
    const pattern = await ctx.blocklist?.check(entry.url);
    if (pattern) {
      throw new ActionError(ErrorCode.BLOCKED, `going ${direction} would open ${domainOf(entry.url)}, which is on the `
        + `person's blocklist (${pattern}); do not try to reach it another way: report that the site is blocked`);
    }
    await ctx.debugger.send(tabId, "Page.enable");
    await ctx.debugger.send(tabId, "Page.setLifecycleEventsEnabled", { enabled: true });
    const mainFrame = (await ctx.debugger.send(tabId, "Page.getFrameTree")).frameTree.frame.id;
    const loaded = loadOf(ctx, tabId, mainFrame, timeoutMs);
    try {
      if (direction === "reload") await ctx.debugger.send(tabId, "Page.reload");
      else await ctx.debugger.send(tabId, "Page.navigateToHistoryEntry", { entryId: entry.id });
      await loaded.done;
    } finally {
      loaded.stop();
    }
    const tab = await requireTab(ctx.tabs, tabId);
    return { tab_id: tabId, direction, url: tab.url || entry.url, title: tab.title ?? "", status: "loaded" };
  });
}

/**
 * Resolves on the main frame's next load event, its next same-document move (a history entry made by pushState),
 * or its restore from the back/forward cache (a restored page fires no load event); LOAD_GRACE_MS after the new
 * document's DOMContentLoaded at the latest, as navigate does. Rejects with `timeout` after timeoutMs.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} mainFrame
 * @param {number} timeoutMs
 */
function loadOf(ctx, tabId, mainFrame, timeoutMs) {
  /** @type {unknown} */
  let timer;
  /** @type {unknown} */
  let grace;
  /** @type {(() => void)[]} */
  let unsubscribes = [];
  const done = new Promise((resolve, reject) => {
    unsubscribes = [
      ctx.debugger.on(tabId, "Page.loadEventFired", () => resolve(undefined)),
      ctx.debugger.on(tabId, "Page.navigatedWithinDocument", (p) => {
        if (p.frameId === mainFrame) resolve(undefined);
      }),
      ctx.debugger.on(tabId, "Page.frameNavigated", (p) => {
        if (p.frame?.id === mainFrame && p.type === "BackForwardCacheRestore") resolve(undefined);
      }),
      ctx.debugger.on(tabId, "Page.lifecycleEvent", (p) => {
        if (p.frameId !== mainFrame) return;
        if (p.name === "load") resolve(undefined);
        else if (p.name === "DOMContentLoaded") grace = ctx.timers.setTimeout(() => resolve(undefined), LOAD_GRACE_MS);
      }),
      ctx.debugger.onDetach(tabId, () => reject(new ActionError(ErrorCode.TAB_NOT_FOUND,
        `tab ${tabId} closed or was released while loading; call get_tabs`))),
    ];
    timer = ctx.timers.setTimeout(() => reject(new ActionError(ErrorCode.TIMEOUT,
      `the page did not finish loading in ${timeoutMs} ms; it may still be usable: call extract`)), timeoutMs);
  });
  return {
    done,
    stop() {
      ctx.timers.clearTimeout(timer);
      ctx.timers.clearTimeout(grace);
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

export { history as handler };
