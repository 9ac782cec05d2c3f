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

import { ActionError } from "./protocol.js";
import { inWorld, onElement, topFrameId } from "./page-world.js";
import { watchNavigation } from "./navigation-watch.js";
import { keepPainting } from "./input/painting.js";

export const DEFAULT_SETTLE_MS = 300;
export const MAX_SETTLE_MS = 5000;
export const QUIET_MS = 100;
export const POLL_MS = 25;
export const NAV_WAIT_MS = 10000;
/** How long a tab announced by Page.windowOpen is waited for. */
export const NEW_TAB_WAIT_MS = 3000;

/**
 * @typedef {import("./action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("./dialogs.js").DialogRecord} DialogRecord
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
 * @property {{url: string, filename: string}} [download]
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
 * @param {{url: string, filename: string}} [seen.download]
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

/**
 * In the page: start counting mutations for one action (`this` = the target element or the global).
 * @this {any}
 * @param {string} token
 */
export function startCounting(token) {
  const all = globalThis.__buaEffects || (globalThis.__buaEffects = {});
  const target = this && this.nodeType === 1 ? this : null;
  const state = { count: 0, last: 0, target, focus: deepActiveElement(), scrolled: null };
  state.observer = new MutationObserver((records) => {
    state.count += records.length;
    state.last = performance.now();
  });
  // Scroll events do not bubble, but a capture listener on the window sees those of the page and its elements,
  // and one on each shadow root those inside it (they are not composed). The scroll that aimed the action (scrollIntoView) fires its event later, so positions are noted now and
  // a scroll that left its element where it was does not count.
  const doc = target ? target.ownerDocument : document;
  const at = (el) => `${el.scrollLeft},${el.scrollTop}`;
  const page = doc.scrollingElement || doc.documentElement;
  const positions = new Map([[page, at(page)]]);
  for (let node = target; node; node = node.parentElement || (node.getRootNode && node.getRootNode().host)) {
    positions.set(node, at(node));
  }
  state.scrollTargets = [doc.defaultView];
  state.onScroll = (event) => {
    const el = event.target.nodeType === 9 ? event.target.scrollingElement || event.target.documentElement : event.target;
    if (!el || (positions.has(el) && positions.get(el) === at(el))) return;
    state.scrolled = el;
    state.last = performance.now();
  };
  const options = { subtree: true, childList: true, attributes: true, characterData: true };
  const root = target ? target.ownerDocument : document;
  state.observer.observe(root, options);
  // Shadow roots are separate trees for a MutationObserver: watch each. The roots extract's scan met (open and
  // closed) come from the library; without one, walk the page for open roots (22 ms on a 37,000-node page).
  const lib = globalThis.__bua;
  const known = lib && typeof lib.shadowRoots === "function" ? lib.shadowRoots() : null;
  if (known) {
    for (const shadow of known) {
      state.observer.observe(shadow, options);
      state.scrollTargets.push(shadow);
    }
  } else {
    const pending = [root];
    while (pending.length > 0) {
      for (const el of pending.pop().querySelectorAll("*")) {
        if (el.shadowRoot) {
          state.observer.observe(el.shadowRoot, options);
          state.scrollTargets.push(el.shadowRoot);
          pending.push(el.shadowRoot);
        }
      }
    }
  }
  for (const where of state.scrollTargets) where.addEventListener("scroll", state.onScroll, { capture: true, passive: true });
  all[token] = state;
  return true;
}

/**
 * In the page: the count so far; with `stop`, also where focus went, and stop counting.
 * @param {string} token
 * @param {boolean} stop
 */
function readCount(token, stop) {
  const all = globalThis.__buaEffects || {};
  const state = all[token];
  if (!state) return null;
  const out = { count: state.count, quietMs: state.last ? performance.now() - state.last : -1, focus: "", scrolled: null };
  const moved = state.scrolled;
  if (moved) {
    const page = moved === (moved.ownerDocument.scrollingElement || moved.ownerDocument.documentElement);
    out.scrolled = { what: page ? "page" : describeElement(moved), x: Math.round(moved.scrollLeft), y: Math.round(moved.scrollTop) };
  }
  if (stop) {
    state.observer.disconnect();
    for (const where of state.scrollTargets) where.removeEventListener("scroll", state.onScroll, { capture: true });
    delete all[token];
    const now = deepActiveElement();
    const ignored = !now || now === state.focus || now === document.body || now === document.documentElement
      || (state.target && (state.target === now || state.target.contains(now)));
    if (!ignored) out.focus = describeElement(now);
  }
  return out;
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
          download: nav.download(),
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
