/**
 * Holds what the page sends while an action acts (README "Safety model"; docs/architecture.md "Safety"): from
 * just before a non-read-only action reaches its session tab until its effects are reported, CDP `Fetch` pauses
 * the tab's requests (the top document, its frames, and every child session: out-of-process frames and workers,
 * through Target.setAutoAttach) at the Request stage, before they leave.
 *
 * * A request that cannot change anything (GET, HEAD, OPTIONS that is not a beacon nor a form submission, and
 *   not a document) continues at once, with no round trip to the app, unless it goes to another host than the
 *   page's with a query (carriesAway): then the app checks its data-flow memory on it.
 * * A request that can change something (network-judge.js mayChange), and every document request (a navigation
 *   or redirect hop: its URL can carry data), goes to the app as a `request_held` event with what the extension
 *   found on its own (card data, credentials, an endpoint that pays, orders, deletes, sends, transfers or
 *   changes an account, strict mode). The app adds what only it knows (the data-flow memory), asks the person
 *   when there is anything, and answers with the `answer_hold` control: allow continues the request, deny fails
 *   it (BlockedByClient; a navigation is Aborted, so the page stays) and the action answers `confirmation_required`.
 * * A held request is never left paused: Stop, the action's cancellation, the tab's debugger detaching, the
 *   native port closing, and HOLD_CEILING_MS each fail it, and the app is told (`request_released`) so the
 *   question it shows the person goes away.
 *
 * A tab the held tab opens meanwhile (a target=_blank form, `window.open`) is held with it from its first request
 * that can change something (network-new-tabs.js: blocked by a session rule until Fetch is on in it, then sent
 * again through the hold).
 *
 * WebSocket messages are not held (nothing an extension has can pause one); what left is reported
 * (network-sockets.js).
 *
 * Fetch is enabled for the action and LINGER_MS after it (one command per target before, one after, not awaited):
 * a page that sends a moment after the click is held too, and otherwise between actions nothing of the page is
 * paused, so a worker that stopped cannot leave a tab frozen for long.
 */

import { eventMessage } from "../protocol.js";
import { ActionHold, LINGER_MS, carriesAway } from "./network-action-hold.js";

export { LINGER_MS, carriesAway };

/** The longest a request waits for an answer, whatever else happens (the person's timeout is the app's). */
export const HOLD_CEILING_MS = 10 * 60 * 1000;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("./network-action-hold.js").AppAnswer} AppAnswer
 * @typedef {{resolve: (answer: AppAnswer) => void, hold: ActionHold}} Waiting
 */

let nextHold = 1;

export class NetworkHolds {
  #post;
  #timers;
  /** @type {() => Promise<import("./network-strict.js").StrictMode>} */
  #strict;
  /** @type {Map<string, Waiting>} */
  #waiting = new Map();
  /** @type {Set<ActionHold>} holds of actions under way */
  #active = new Set();
  /** @type {import("./network-new-tabs.js").NewTabCover | undefined} */
  #cover;

  /**
   * @param {object} deps
   * @param {(msg: unknown) => boolean} deps.post sends to the app; false when not connected
   * @param {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: unknown) => void}} deps.timers
   * @param {() => Promise<import("./network-strict.js").StrictMode>} deps.strict the person's strict-mode setting
   * @param {import("./network-new-tabs.js").NewTabCover} [deps.cover] covers the tabs a held tab opens until the
   *   hold takes them over (absent: they are not held until they join one)
   */
  constructor({ post, timers, strict, cover }) {
    this.#post = post;
    this.#timers = timers;
    this.#strict = strict;
    this.#cover = cover;
  }

  /**
   * Start holding the tab's requests for one action.
   * @param {ActionContext} ctx
   * @param {number} tabId
   * @param {string} actionType
   * @param {{approved?: boolean}} [options] `approved`: the request came with an approval token (the app sends one
   *   after the person approved the action its label held, and also without asking for a field in another site's
   *   frame); told to the app, which alone knows whether the person was asked (app/safety/network_holds.py)
   * @returns {Promise<ActionHold>}
   */
  async begin(ctx, tabId, actionType, { approved = false } = {}) {
    // covered before the earlier hold ends, so the rule stays as it is between a tab's actions
    const covered = this.#cover?.cover(tabId);
    for (const earlier of [...this.#active]) if (earlier.tabId === tabId) earlier.end();
    const hold = new ActionHold(this, ctx, tabId, actionType, await this.#strict(), approved);
    this.#active.add(hold);
    try {
      await Promise.all([hold.start(), covered]);
    } catch (err) {
      hold.end();
      throw err;
    }
    return hold;
  }

  /**
   * End the holds that match now, an action's or a lingering one (Stop, an ended session): what waits for the
   * person is failed, and Fetch goes off.
   * @param {(hold: {taskId: string, tabId: number}) => boolean} matches
   * @param {string} reason
   */
  endWhere(matches, reason) {
    for (const hold of [...this.#active]) {
      if (!matches({ taskId: hold.taskId, tabId: hold.tabId })) continue;
      hold.release(reason);
      hold.end();
    }
  }

  /** @param {ActionHold} hold */
  ended(hold) {
    if (this.#active.delete(hold)) this.#cover?.uncover();
  }

  /**
   * A tab opened another (chrome.tabs.onCreated's openerTabId, webNavigation.onCreatedNavigationTarget): a hold on
   * the opener takes the new tab over.
   * @param {number} openerTabId
   * @param {number} tabId
   */
  opened(openerTabId, tabId) {
    const cover = this.#cover;
    if (!cover) return;
    for (const hold of this.#active) {
      if (hold.holdsTab(openerTabId)) hold.adopt(tabId, cover).catch((err) => console.warn("bua: could not hold a new tab:", err));
    }
  }

  /**
   * The app's answer to a held request (`answer_hold`); false when it no longer waits.
   * @param {string} holdId
   * @param {AppAnswer} answer
   */
  answer(holdId, answer) {
    const waiting = this.#waiting.get(holdId);
    if (!waiting) return false;
    this.#waiting.delete(holdId);
    waiting.resolve(answer);
    return true;
  }

  /**
   * Fail every waiting request (the app is gone: nobody can answer).
   * @param {string} reason
   */
  releaseAll(reason) {
    for (const waiting of [...this.#waiting.values()]) waiting.hold.release(reason);
  }

  /** The timers the holds use (a lingering hold ends on one). */
  get timers() {
    return this.#timers;
  }

  /**
   * Ask the app about one paused request; resolves with its answer.
   * @param {ActionHold} hold
   * @param {Record<string, unknown>} data the event's data (without hold_id)
   * @returns {{holdId: string, answer: Promise<AppAnswer>}}
   */
  ask(hold, data) {
    const holdId = `h${nextHold++}`;
    /** @type {Promise<AppAnswer>} */
    const answer = new Promise((resolve) => {
      const timer = this.#timers.setTimeout(() => hold.release(`no answer within ${HOLD_CEILING_MS / 60000} min`), HOLD_CEILING_MS);
      this.#waiting.set(holdId, { hold, resolve: (a) => {
        this.#timers.clearTimeout(timer);
        resolve(a);
      } });
    });
    if (!this.#post(eventMessage("request_held", { hold_id: holdId, ...data }))) {
      this.answer(holdId, { decision: "deny", asked: false, why: ["bua is not connected to ask the person"] });
    }
    return { holdId, answer };
  }

  /**
   * The extension ended a hold the app may still be asking about.
   * @param {string} holdId
   * @param {string} reason
   */
  released(holdId, reason) {
    const waiting = this.#waiting.get(holdId);
    if (!waiting) return;
    this.#waiting.delete(holdId);
    waiting.resolve({ decision: "deny", asked: true, why: [reason], stopped: true });
    this.#post(eventMessage("request_released", { hold_id: holdId, reason }));
  }
}
