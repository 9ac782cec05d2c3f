/**
 * navigate {url, tab_id?, timeout_ms = 30000}: load a URL in the given tab,
 * the task's current tab, or a new tab in the minimised bua window (see
 * tabs/bua-window.js), and wait for the main frame's load event — or, when the
 * document is ready (DOMContentLoaded) but its load event is still waited on
 * (a slow image, an unreachable script), return LOAD_GRACE_MS after
 * DOMContentLoaded with status "interactive" and a note, instead of holding
 * the agent until the timeout. A loaded page's result has no status.
 */

import { ACTIONS, ActionError, ErrorCode } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { checkNavigableUrl } from "../tabs/url-policy.js";
import { findTab, requireTab } from "../tabs/tab-resolver.js";
import { prepareTab } from "../tabs/tab-prep.js";

/** How long navigate waits for the load event once the document is ready. */
export const LOAD_GRACE_MS = 2000;
const STILL_LOADING = "the page is ready to read but still loading (a resource has not arrived): extract now, "
  + "or wait_for the element you need";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */

/**
 * @param {import("./support/context.js").ActionOf<"navigate">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"navigate">>}
 */
export async function navigate(action, ctx) {
  const url = checkNavigableUrl(action.url);
  const requestedTab = action.tab_id ?? null;
  const timeoutMs = action.timeout_ms ?? ACTIONS.navigate.defaults.timeout_ms;

  const tabId = await targetTab(requestedTab, ctx);
  await ctx.taskTabs.set(ctx.taskId, tabId);
  await prepareTab(ctx, tabId);
  const status = await loadWithin(ctx, tabId, url, timeoutMs);

  const tab = await requireTab(ctx.tabs, tabId);
  const result = { tab_id: tabId, url: tab.url || url, title: tab.title ?? "" };
  // A loaded page is what a navigate answers; only one still loading says its status (and what to do).
  return status === "loaded" ? result : { ...result, status, note: STILL_LOADING };
}

/**
 * The tab to navigate: the requested one, else the task's current tab while
 * it exists, else a new tab in the minimised bua window.
 * @param {number | null} requestedTab
 * @param {ActionContext} ctx
 */
async function targetTab(requestedTab, ctx) {
  if (requestedTab !== null) return (await requireTab(ctx.tabs, requestedTab)).id;
  const current = await ctx.taskTabs.get(ctx.taskId);
  if (current !== undefined && (await findTab(ctx.tabs, current))) return current;
  if (!ctx.buaWindow) throw new ActionError(ErrorCode.INTERNAL_ERROR, "no bua window to open the tab in; retry once");
  const created = await ctx.buaWindow.backgroundTab();
  await ctx.claimTab?.(created.id, created.windowId);
  return created.id;
}

/**
 * Navigate through CDP and wait for the load (or a ready document and the
 * grace after it), all bounded by timeoutMs.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} url
 * @param {number} timeoutMs
 * @returns {Promise<"loaded" | "interactive">}
 */
async function loadWithin(ctx, tabId, url, timeoutMs) {
  const watch = watchLoad(ctx.debugger, tabId, ctx.timers);
  /** @type {unknown} */
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = ctx.timers.setTimeout(() => reject(new ActionError(
      ErrorCode.TIMEOUT,
      `page did not finish loading in ${timeoutMs} ms; the page may still be usable: call extract`,
    )), timeoutMs);
  });
  try {
    return await Promise.race([navigateAndWait(ctx, tabId, url, watch), deadline, watch.detached]);
  } finally {
    ctx.timers.clearTimeout(timer);
    watch.stop();
  }
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} url
 * @param {ReturnType<typeof watchLoad>} watch
 * @returns {Promise<"loaded" | "interactive">}
 */
async function navigateAndWait(ctx, tabId, url, watch) {
  await ctx.debugger.send(tabId, "Page.enable");
  await ctx.debugger.send(tabId, "Page.setLifecycleEventsEnabled", { enabled: true });
  // The session's page log (page_log) covers the first page from its first request.
  await ctx.pageLogs?.start(tabId).catch(() => {});
  let result;
  try {
    result = await ctx.debugger.send(tabId, "Page.navigate", { url });
  } catch (err) {
    if (!(err instanceof CdpError)) throw err;
    throw new ActionError(ErrorCode.NAVIGATION_FAILED, `could not navigate to ${url}: ${err.cdpMessage}; check the URL`);
  }
  if (result?.errorText) {
    throw new ActionError(
      ErrorCode.NAVIGATION_FAILED,
      `navigation to ${url} failed: ${result.errorText}; check the URL and that the site is reachable, then retry or try another URL`,
    );
  }
  if (!result?.loaderId) {
    await watch.sameDocument(result?.frameId);
    return "loaded";
  }
  return watch.until(result.frameId, result.loaderId);
}

/**
 * Subscribe to the load signals before Page.navigate is sent.
 *
 * `Page.lifecycleEvent` "load" carries the loader id, so it is matched even
 * when it arrives before the Page.navigate response. `Page.loadEventFired`
 * and the main frame's `Page.frameStoppedLoading` carry no loader id, so
 * they count only after the response (earlier ones belong to the previous
 * document). A same-document navigation (no loader id) is done once
 * `Page.navigatedWithinDocument` reports it for the main frame: only then
 * does the tab show the new URL. DOMContentLoaded is matched the same way
 * (`Page.lifecycleEvent` with the loader id, `Page.domContentEventFired`
 * after the response); from then on the load event gets LOAD_GRACE_MS.
 * @param {import("../tabs/debugger-controller.js").DebuggerController} dbg
 * @param {number} tabId
 * @param {ActionContext["timers"]} timers
 */
function watchLoad(dbg, tabId, timers) {
  /** @type {{frameId: string, loaderId: string} | null} */
  let target = null;
  /** @type {{frameId: string, loaderId: string, name: string}[]} */
  const early = [];
  /** @type {Set<string>} frames that navigated within their document */
  const movedWithin = new Set();
  /** @type {string | null} */
  let sameDocumentFrame = null;
  /** @type {() => void} */
  let markLoaded = () => {};
  const loaded = new Promise((resolve) => {
    markLoaded = () => resolve(undefined);
  });
  /** @type {() => void} */
  let markReady = () => {};
  const ready = new Promise((resolve) => {
    markReady = () => resolve(undefined);
  });
  /** @type {unknown} */
  let graceTimer;
  /** @type {Promise<"loaded" | "interactive">} */
  const settled = Promise.race([
    loaded.then(() => /** @type {const} */ ("loaded")),
    ready.then(() => new Promise((resolve) => {
      graceTimer = timers.setTimeout(() => resolve("interactive"), LOAD_GRACE_MS);
    })),
  ]);
  /** @param {string} name */
  const markFor = (name) => (name === "load" ? markLoaded : markReady);
  /** @type {(err: ActionError) => void} */
  let markDetached = () => {};
  /** @type {Promise<never>} */
  const detached = new Promise((_, reject) => {
    markDetached = reject;
  });

  const unsubscribes = [
    dbg.on(tabId, "Page.lifecycleEvent", (p) => {
      if (p.name !== "load" && p.name !== "DOMContentLoaded") return;
      if (!target) early.push({ frameId: p.frameId, loaderId: p.loaderId, name: p.name });
      else if (p.frameId === target.frameId && p.loaderId === target.loaderId) markFor(p.name)();
    }),
    dbg.on(tabId, "Page.loadEventFired", () => {
      if (target) markLoaded();
    }),
    dbg.on(tabId, "Page.domContentEventFired", () => {
      if (target) markReady();
    }),
    dbg.on(tabId, "Page.frameStoppedLoading", (p) => {
      if (target && p.frameId === target.frameId) markLoaded();
    }),
    dbg.on(tabId, "Page.navigatedWithinDocument", (p) => {
      movedWithin.add(p.frameId);
      if (p.frameId === sameDocumentFrame) markLoaded();
    }),
    dbg.onDetach(tabId, (reason) => markDetached(detachError(tabId, reason))),
  ];

  return {
    detached,
    /**
     * @param {string} frameId
     * @param {string} loaderId
     */
    until(frameId, loaderId) {
      target = { frameId, loaderId };
      for (const e of early) if (e.frameId === frameId && e.loaderId === loaderId) markFor(e.name)();
      return settled;
    },
    /** @param {string | undefined} frameId */
    sameDocument(frameId) {
      if (frameId === undefined) return Promise.resolve();
      sameDocumentFrame = frameId;
      if (movedWithin.has(frameId)) markLoaded();
      return loaded;
    },
    stop() {
      timers.clearTimeout(graceTimer);
      for (const unsubscribe of unsubscribes) unsubscribe();
    },
  };
}

/**
 * @param {number} tabId
 * @param {string} reason chrome.debugger.DetachReason
 */
function detachError(tabId, reason) {
  if (reason === "target_closed") {
    return new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} was closed while loading; call get_tabs`);
  }
  if (reason === "canceled_by_user") {
    return new ActionError(
      ErrorCode.INTERNAL_ERROR,
      `the user cancelled bua's control of tab ${tabId} while it was loading; ask the user before trying again`,
    );
  }
  return new ActionError(ErrorCode.INTERNAL_ERROR, `lost control of tab ${tabId} while it was loading (${reason}); retry once`);
}

export { navigate as handler };
