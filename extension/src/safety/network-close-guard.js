/**
 * A request that waits for the person must not leave because its tab is closed. Chromium continues every request
 * still paused in Fetch when the debugger detaches (content/browser/devtools/devtools_url_loader_interceptor.cc:
 * InterceptionJob::Detach continues it unmodified), and a tab's close detaches the debugger before the page's own
 * loader is cancelled about half the time, so the waiting request went out. An extension can neither delay the
 * detach nor veto the close; what it can do is make the close wait for a dialog: while a request of the tab waits,
 * a `beforeunload` listener in bua's own world of the top frame asks to confirm leaving. Chrome then shows the
 * dialog before it closes (or navigates away from) the page, the dialog guard (tabs/dialogs.js) hears
 * Page.javascriptDialogOpening, the hold fails what waits (Fetch.failRequest, answered) and only then is the
 * dialog accepted, so the close goes on with nothing left to continue. README "Safety model"; docs/architecture.md
 * "Safety".
 *
 * Chrome shows a beforeunload dialog only for a frame that has had a user activation. Every bua action that clicks
 * or types gives it one; a page nobody touched (a popup that sends, then closes itself with `window.close()`) has
 * none, so when the guard goes on in such a frame it is given one (`userGesture` on a call in bua's world): the
 * page then holds a transient activation for a few seconds, which is what lets its own close ask first. Chrome
 * shows no dialog for a DevTools client's Target.closeTarget, which skips beforeunload: a request waiting then is
 * continued by Chromium when the debugger detaches, and reported as let go (network-tab-hold.js).
 */

import { definePageFunction } from "../page/page-code.js";

/** The longest one write of the listener may hold the next (a frame mid-navigation can be slow to answer). */
const WRITE_CEILING_MS = 1000;
/** The isolated world the listener lives in (the page cannot see nor remove it). */
const WORLD = "bua-close-guard";

/**
 * In the page: add or remove the listener that makes leaving the page ask first.
 * @param {boolean} on
 */
function guardLeaving(on) {
  const g = /** @type {any} */ (globalThis);
  if (!g.__buaAskBeforeLeaving) {
    g.__buaAskBeforeLeaving = (/** @type {Event} */ event) => {
      event.preventDefault();
      /** @type {any} */ (event).returnValue = "";
    };
  }
  if (on) window.addEventListener("beforeunload", g.__buaAskBeforeLeaving);
  else window.removeEventListener("beforeunload", g.__buaAskBeforeLeaving);
  // Chrome lets a script close only a window a script opened or one with a single history entry: only such a
  // page can close itself, and only one that never had an activation needs one for its close to ask first
  const closable = window.opener !== null || window.history.length <= 1;
  return closable && /** @type {any} */ (window.navigator).userActivation?.hasBeenActive === false;
}
definePageFunction(guardLeaving);

/** In the page: nothing; called with `userGesture` to give a frame that never had one its user activation. */
function activate() {
  return true;
}
definePageFunction(activate);

/**
 * @typedef {{send: (tabId: number, method: string, params?: Record<string, unknown>, sessionId?: string) => Promise<any>}} Sender
 */

export class CloseGuard {
  #dbg;
  #tabId;
  #on = false;
  /** @type {string | undefined} the top frame's id (the tab target's: it stays) */
  #frameId;
  /** @type {number | undefined} the world's context in the top frame's document (until it navigates) */
  #contextId;
  /** @type {Promise<unknown>} */
  #writes = Promise.resolve();

  /**
   * @param {Sender} dbg
   * @param {number} tabId
   */
  constructor(dbg, tabId) {
    this.#dbg = dbg;
    this.#tabId = tabId;
  }

  /**
   * Put the listener on (true) or take it off (false); idempotent, written in order.
   * @param {boolean} on
   * @param {{activate?: boolean}} [options] `activate`: give the page the activation its own close needs to ask
   *   first, when it can close itself and never had one (only for a request that can change something: a
   *   navigation or a read never borrows the page an activation, README "No borrowed user gesture")
   */
  set(on, { activate = false } = {}) {
    if (this.#on === on) return this.#writes;
    this.#on = on;
    this.#writes = this.#writes.then(() => Promise.race([this.#write(on, activate), new Promise((resolve) => {
      setTimeout(resolve, WRITE_CEILING_MS);
    })])).catch(() => {});
    return this.#writes;
  }

  /** The top frame committed a new document: whatever listener the old one had went with it. */
  navigated() {
    this.#on = false;
    this.#contextId = undefined;
  }

  /** @param {boolean} on @param {boolean} activate */
  async #write(on, activate) {
    for (let attempt = 0; ; attempt++) {
      try {
        const executionContextId = await this.#context();
        const reply = await this.#dbg.send(this.#tabId, "Runtime.callFunctionOn", {
          functionDeclaration: guardLeaving.toString(), executionContextId, arguments: [{ value: on }], returnByValue: true,
        });
        if (on && activate && reply?.result?.value === true) {
          await this.#dbg.send(this.#tabId, "Runtime.callFunctionOn", {
            functionDeclaration: activate.toString(), executionContextId, returnByValue: true, userGesture: true,
          });
        }
        return;
      } catch (err) {
        this.#contextId = undefined;
        if (attempt > 0) throw err;
      }
    }
  }

  /** The world's context in the top frame, made once per document. */
  async #context() {
    if (this.#contextId !== undefined) return this.#contextId;
    const frameId = this.#frameId ??= (await this.#dbg.send(this.#tabId, "Page.getFrameTree"))?.frameTree?.frame?.id;
    const world = await this.#dbg.send(this.#tabId, "Page.createIsolatedWorld", { frameId, worldName: WORLD });
    this.#contextId = world.executionContextId;
    return this.#contextId;
  }
}
