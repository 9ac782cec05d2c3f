/**
 * Did the tab's top frame navigate during an action, and has the new page
 * loaded? Built from the Page domain events of the tab's own session.
 */

/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/** How long a requested navigation that never starts loading is waited for. */
export const REQUEST_GRACE_MS = 2000;

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} frameId the top frame
 */
export function watchNavigation(ctx, tabId, frameId) {
  const s = {
    requestedAt: 0,
    loading: false,
    committed: false,
    withinDocument: false,
    loaded: false,
    /** @type {string | undefined} */
    url: undefined,
    /** @type {string | undefined} where a requested navigation goes (known before it starts) */
    requestedUrl: undefined,
    /** @type {{url: string, filename: string} | undefined} */
    download: undefined,
  };
  /** @type {Set<() => void>} */
  const waiters = new Set();
  const wake = () => {
    for (const fn of [...waiters]) fn();
  };
  /** @param {any} source @param {string} [id] */
  const top = (source, id) => source.sessionId === undefined && (id === undefined || id === frameId);
  /**
   * @param {string} method
   * @param {(params: any) => void} fn
   */
  const on = (method, fn) => ctx.debugger.on(tabId, method, (params, source) => {
    if (!top(source)) return;
    fn(params);
    wake();
  });

  const offs = [
    on("Page.frameRequestedNavigation", (p) => {
      if (p.frameId !== frameId) return;
      s.requestedAt = Date.now();
      s.requestedUrl = typeof p.url === "string" ? p.url : s.requestedUrl;
    }),
    on("Page.frameStartedLoading", (p) => {
      if (p.frameId === frameId) s.loading = true;
    }),
    on("Page.frameNavigated", (p) => {
      if (p.frame?.parentId) return;
      s.committed = true;
      s.loaded = false;
      s.url = `${p.frame.url}${p.frame.urlFragment ?? ""}`;
    }),
    on("Page.navigatedWithinDocument", (p) => {
      if (p.frameId !== frameId) return;
      s.withinDocument = true;
      if (!s.committed) s.url = p.url;
    }),
    on("Page.loadEventFired", () => {
      if (s.committed) s.loaded = true;
    }),
    on("Page.frameStoppedLoading", (p) => {
      if (p.frameId !== frameId) return;
      s.loading = false;
      s.requestedAt = 0;
      if (s.committed) s.loaded = true;
    }),
    on("Page.downloadWillBegin", (p) => {
      s.download = { url: String(p.url ?? ""), filename: String(p.suggestedFilename ?? "") };
    }),
  ];

  return {
    /**
     * Whether the action should keep waiting for a navigation.
     * @param {number} elapsed ms since the action
     * @param {number} cap ms
     */
    waiting(elapsed, cap) {
      if (elapsed >= cap) return false;
      if (s.committed) return !s.loaded;
      if (s.loading) return true;
      return s.requestedAt > 0 && !s.withinDocument && Date.now() - s.requestedAt < REQUEST_GRACE_MS;
    },
    /**
     * Resolve on the next navigation event, or after at most 50 ms.
     * @param {number} maxMs
     */
    settled(maxMs) {
      return new Promise((resolve) => {
        const done = () => {
          waiters.delete(done);
          ctx.timers.clearTimeout(timer);
          resolve(undefined);
        };
        const timer = ctx.timers.setTimeout(done, Math.min(50, maxMs));
        waiters.add(done);
      });
    },
    state() {
      const navigated = s.committed || s.withinDocument;
      return { navigated, sameDocument: navigated && !s.committed, url: s.url, loaded: s.loaded };
    },
    download() {
      return s.download;
    },
    /** Where the top frame went or was sent, if anywhere (a request counts, before it starts). */
    destination() {
      return s.url ?? s.requestedUrl;
    },
    stop() {
      for (const off of offs) off();
      waiters.clear();
    },
  };
}
