/**
 * What an action changed: navigation, new tabs, dialogs, DOM mutations and
 * focus, watched from just before the action through a short settle window.
 *
 * The mutation counter is a MutationObserver in bua's isolated world of the
 * element's frame (of the top frame for press_key). The settle loop runs on
 * the extension's timers and reads the counter every POLL_MS: it ends once
 * mutations were seen and the page has been quiet for QUIET_MS, or after
 * `settle_ms` (default 300 ms) when nothing happens; a navigation that starts
 * in the window is waited for until its load (at most NAV_WAIT_MS), and a tab
 * announced by Page.windowOpen until chrome.tabs reports it.
 */

import { ActionError } from "../protocol.js";
import { inWorld, onElement, topFrameId } from "../tabs/isolated-world.js";
import { watchNavigation } from "../tabs/navigation-watch.js";
import { keepPainting } from "./painting.js";
import { readCount, startCounting } from "../page/effects.js";
import { downloadEffect } from "../tabs/downloads.js";

export { startCounting };

export const DEFAULT_SETTLE_MS = 300;
export const MAX_SETTLE_MS = 5000;
export const QUIET_MS = 100;
export const POLL_MS = 25;
export const NAV_WAIT_MS = 10000;
/** How long a download an action started is waited for to finish (a small file), so its effects say how it went. */
export const DOWNLOAD_WAIT_MS = 2000;
/** How long a tab announced by Page.windowOpen is waited for. */
export const NEW_TAB_WAIT_MS = 3000;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../tabs/dialogs.js").DialogRecord} DialogRecord
 * @typedef {{tab_id: number, url: string}} NewTab
 * @typedef {{what: string, x: number, y: number}} Scrolled `what`: "page" or the element
 * @typedef {object} Effects
 * @property {boolean} navigated
 * @property {string} [url] the new URL after a navigation
 * @property {boolean} [same_document] the URL changed without loading a new page
 * @property {boolean} [still_loading] the new page had not loaded when the window closed
 * @property {NewTab[]} new_tabs
 * @property {DialogRecord} [dialog] the first dialog shown
 * @property {DialogRecord[]} [dialogs] all of them, when more than one
 * @property {Record<string, unknown>} [download] a download it started: id, filename, size, mime, state
 *   (tabs/downloads.js downloadEffect)
 * @property {number} dom_mutations
 * @property {string} [focus_moved_to]
 * @property {Scrolled} [scrolled] what scrolled last, and where it is now
 * @property {boolean} nothing_changed
 * @property {string} [note]
 */

/**
 * The `effects` object of a result (pure).
 * @param {object} seen
 * @param {{navigated: boolean, sameDocument: boolean, url?: string, loaded: boolean}} seen.navigation
 * @param {NewTab[]} seen.newTabs
 * @param {DialogRecord[]} seen.dialogs
 * @param {number} seen.mutations
 * @param {string} [seen.focusMovedTo]
 * @param {Scrolled | null} [seen.scrolled]
 * @param {Record<string, unknown>} [seen.download]
 * @param {boolean} [seen.valueChanged] type: the field's value changed
 * @param {number} seen.settleMs
 * @returns {Effects}
 */
export function summarizeEffects({ navigation, newTabs, dialogs, mutations, focusMovedTo, scrolled, download, valueChanged = false, settleMs }) {
  /** @type {Effects} */
  const effects = { navigated: navigation.navigated, new_tabs: newTabs, dom_mutations: mutations, nothing_changed: false };
  if (navigation.navigated) {
    if (navigation.url) effects.url = navigation.url;
    if (navigation.sameDocument) effects.same_document = true;
    else if (!navigation.loaded) effects.still_loading = true;
  }
  if (dialogs.length > 0) effects.dialog = dialogs[0];
  if (dialogs.length > 1) effects.dialogs = dialogs;
  if (download) effects.download = download;
  if (focusMovedTo) effects.focus_moved_to = focusMovedTo;
  if (scrolled) effects.scrolled = scrolled;
  effects.nothing_changed = !navigation.navigated && newTabs.length === 0 && dialogs.length === 0 && mutations === 0
    && !focusMovedTo && !scrolled && !download && !valueChanged;
  if (effects.nothing_changed) {
    effects.note = `no navigation, new tab, dialog, DOM change, focus change or scroll within ${settleMs} ms; ` +
      "if you expected one, the action may have missed: extract to check (a slow page may still update)";
  }
  return effects;
}

/**
 * The settle window of an action: `settle_ms` (an extension-side tuning
 * field outside the model-facing schema, used by benchmarks) or the default.
 * @param {Record<string, unknown>} action
 */
export function settleMsOf(action) {
  const value = action.settle_ms;
  return Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0
    ? Math.min(/** @type {number} */ (value), MAX_SETTLE_MS) : DEFAULT_SETTLE_MS;
}

let nextToken = 1;

/** A fresh id for one action's mutation counter. */
export function newEffectsToken() {
  return `a${nextToken++}`;
}

/**
 * Start watching before the action.
 *
 * `countedBy`, when given, says whether the caller's own page call already
 * started the counter under `token` (a click folds it into its aiming call,
 * saving a round trip); when it resolves false the counter is started here,
 * when it rejects so does the watch.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{element?: {objectId: string, sessionId?: string}, settleMs: number, token?: string,
 *   countedBy?: Promise<boolean>}} options
 */
export async function watchEffects(ctx, tabId, { element, settleMs, token = newEffectsToken(), countedBy }) {
  // While the effects are watched the page renders as in a visible tab (scroll events, animation frames,
  // observers run at frames); a tab in the minimised bua window paints none. Not for a read with no window.
  const painting = settleMs > 0 ? keepPainting(ctx, tabId).catch(() => async () => {}) : Promise.resolve(async () => {});
  const frameId = await topFrameId(ctx, tabId);
  const nav = watchNavigation(ctx, tabId, frameId);
  /** @type {NewTab[]} */
  const newTabs = [];
  const onCreated = (/** @type {any} */ tab) => {
    if (tab.openerTabId !== tabId) return;
    newTabs.push({ tab_id: tab.id, url: tab.pendingUrl || tab.url || "" });
    ctx.taskTabs.own(ctx.taskId, tab.id).catch(() => {});
  };
  ctx.tabs.onCreated?.addListener(onCreated);
  let opening = 0;
  const offWindowOpen = ctx.debugger.on(tabId, "Page.windowOpen", () => {
    opening++;
  });
  /** @param {Function} fn @param {unknown[]} args */
  const run = (fn, args) => (element ? onElement(ctx, tabId, element, fn, args) : inWorld(ctx, tabId, fn, args, { frameId }));
  const stop = () => {
    offWindowOpen();
    nav.stop();
    ctx.tabs.onCreated?.removeListener(onCreated);
    painting.then((stopPainting) => stopPainting());
  };
  try {
    if (!(await countedBy)) await run(startCounting, [token]);
  } catch (err) {
    stop();
    throw err;
  }

  return {
    stop,
    /**
     * Wait out the settle window and summarise.
     * @param {DialogRecord[] | (() => DialogRecord[])} dialogs
     * @param {{valueChanged?: boolean}} [extra]
     * @returns {Promise<Effects>}
     */
    async finish(dialogs, extra = {}) {
      const started = Date.now();
      try {
        let last = null;
        if (settleMs > 0) await sleep(ctx, POLL_MS);
        for (;;) {
          const elapsed = Date.now() - started;
          if (nav.waiting(elapsed, NAV_WAIT_MS)) {
            await nav.settled(Math.max(0, NAV_WAIT_MS - elapsed));
            continue;
          }
          if (newTabs.length < opening && elapsed < NEW_TAB_WAIT_MS) {
            await sleep(ctx, POLL_MS);
            continue;
          }
          if (nav.state().navigated && !nav.state().sameDocument) break;
          if (elapsed >= settleMs) break;
          const now = await readQuietly(run, token, false);
          if (now) last = now;
          if (now && (now.count > 0 || now.scrolled) && now.quietMs >= QUIET_MS) break;
          if (now) await sleep(ctx, POLL_MS);
          else await nav.settled(POLL_MS);
        }
        const final = nav.state().navigated && !nav.state().sameDocument ? null : await readQuietly(run, token, true);
        const seen = final ?? last;
        for (const tab of newTabs) await refreshUrl(ctx, tab);
        return summarizeEffects({
          navigation: nav.state(),
          newTabs,
          dialogs: typeof dialogs === "function" ? dialogs() : dialogs,
          mutations: seen?.count ?? 0,
          focusMovedTo: final?.focus || undefined,
          scrolled: seen?.scrolled ?? null,
          download: await describeDownload(ctx, nav.download()),
          valueChanged: extra.valueChanged,
          settleMs,
        });
      } finally {
        stop();
      }
    },
  };
}

/**
 * The download the action started, as chrome.downloads reports it (tabs/downloads.js); undefined for none.
 * @param {ActionContext} ctx
 * @param {{url: string, filename: string} | undefined} seen Page.downloadWillBegin
 */
async function describeDownload(ctx, seen) {
  if (!seen) return undefined;
  return downloadEffect(await ctx.downloads?.started(ctx.taskId, seen.url, DOWNLOAD_WAIT_MS), seen);
}

/**
 * Read the counter; null when the document is gone (it navigated) or the element's context died.
 * @param {(fn: Function, args: unknown[]) => Promise<any>} run
 * @param {string} token
 * @param {boolean} stop
 */
async function readQuietly(run, token, stop) {
  try {
    return await run(readCount, [token, stop]);
  } catch (err) {
    if (err instanceof ActionError) throw err;
    return null;
  }
}

/**
 * @param {ActionContext} ctx
 * @param {NewTab} tab
 */
async function refreshUrl(ctx, tab) {
  try {
    const now = await ctx.tabs.get(tab.tab_id);
    tab.url = now.pendingUrl || now.url || tab.url;
  } catch {
    // closed again already: keep what onCreated said
  }
}

/**
 * @param {ActionContext} ctx
 * @param {number} ms
 */
function sleep(ctx, ms) {
  return new Promise((resolve) => ctx.timers.setTimeout(() => resolve(undefined), ms));
}
