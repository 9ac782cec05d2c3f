/**
 * Holds what the page sends (README "Safety model"; docs/architecture.md "Safety"): from the start of a task's
 * session on a tab to its end, CDP `Fetch` pauses the tab's requests at the Request stage, before they leave —
 * the top document, its frames, and every child session (out-of-process frames, dedicated workers, the page's
 * service worker, through Target.setAutoAttach) — during actions and between them alike (network-tab-hold.js).
 *
 * * Every request pauses, whatever its resource type (an image, script, stylesheet, font or prefetch URL carries
 *   data away as a fetch does; each redirect hop pauses again). One that cannot change anything (GET, HEAD,
 *   OPTIONS that is not a beacon nor a form submission, and not a document) continues at once, with no round trip
 *   to the app, unless it goes to another host than the page's with a URL that can carry data (carriesAway): then
 *   the app checks its data-flow memory on it; or it carries what the task typed into a password field
 *   (network-secrets.js).
 * * A request that can change something (network-judge.js mayChange), and every document request (a navigation
 *   or redirect hop: its URL can carry data), goes to the app as a `request_held` event with what the extension
 *   found on its own (card data, credentials, an endpoint that pays, orders, deletes, sends, transfers or
 *   changes an account, strict mode). The app adds what only it knows (the data-flow memory), asks the person
 *   when there is anything, and answers with the `answer_hold` control: allow continues the request, deny fails
 *   it (BlockedByClient; a navigation is Aborted, so the page stays).
 * * While an action acts, what paused is reported in its result, and a Deny makes it answer
 *   `confirmation_required` (network-action-hold.js); LINGER_MS after it, a request is still asked about as that
 *   action's. Between actions the question is the page's own (`between_actions`), asked through the same broker,
 *   task card and popup; Deny fails the request and nothing else.
 * * A held request is never left paused: Stop, the action's cancellation, the session's end, the tab's debugger
 *   detaching, the native port closing, and HOLD_CEILING_MS each fail it, and the app is told
 *   (`request_released`) so the question it shows the person goes away.
 *
 * Tabs a session tab opens (a target=_blank form, `window.open`) join its task (sessions/opened-tabs.js) and so
 * get a hold of their own, begun as soon as the tab is known to be opened by a held tab; until it is on, a
 * session rule blocks their first requests that can change something
 * or carry data in their URL, which are sent again through the hold: the blocked navigation reloaded, a web page
 * whose other requests were blocked loaded again once (network-new-tabs.js). Tabs the person opens are left
 * out of that rule as soon as they are known to be the person's.
 *
 * WebSocket messages are not held (nothing an extension has can pause one); what left during an action is
 * reported (network-sockets.js).
 *
 * Fetch stays on while the session lasts, not only around actions, because a page decides when it sends: a POST
 * delayed past any window, or handed to its service worker, is still held. An active chrome.debugger session
 * keeps the extension's worker running, and a worker that starts again re-holds the sessions it finds (its
 * attach takes over the old debugger session, whose Fetch state goes with it).
 */

import { eventMessage } from "../protocol.js";
import { LINGER_MS, carriesAway, foldUnreported } from "./network-action-hold.js";
import { TabHold } from "./network-tab-hold.js";

export { LINGER_MS, carriesAway };

/** The longest a request waits for an answer, whatever else happens (the person's timeout is the app's). */
export const HOLD_CEILING_MS = 10 * 60 * 1000;
/** How many failed-before-held requests of one task are kept for its next result. */
const MAX_UNSENT = 20;
const UNSENT_WHY = "a new tab sent it before bua could hold that tab's requests, so it was failed and not sent; " +
  "the page may show an error: extract that tab to see it, and redo the step there if it is part of the task";
const RELOADED_WHY = "a new tab sent it before bua could hold that tab's requests, so it was failed; the tab was then " +
  "loaded again through the hold, so what its page sends as it loads went out judged: extract that tab to see it";
/** A page that can be loaded again (an about:blank popup its opener wrote into cannot). */
const WEB_PAGE = /^https?:/i;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./network-action-hold.js").AppAnswer} AppAnswer
 * @typedef {import("./network-action-hold.js").ActionWindow} ActionWindow
 * @typedef {{resolve: (answer: AppAnswer) => void, hold: TabHold}} Waiting
 * @typedef {{task_id: string, tab_id: number}} SessionRef
 * @typedef {{method: string, url: string, tab_id: number, why: string}} UnsentRequest
 */

let nextHold = 1;

export class NetworkHolds {
  #post;
  #timers;
  /** @type {() => Promise<import("./network-strict.js").StrictMode>} */
  #strict;
  #dbg;
  #sessions;
  /** @type {Map<string, Waiting>} */
  #waiting = new Map();
  /** @type {Map<number, TabHold>} each session tab's hold (on, or going on) */
  #holds = new Map();
  /** @type {Map<number, Promise<TabHold>>} each hold once Fetch is on */
  #ready = new Map();
  /** @type {import("./network-new-tabs.js").NewTabCover | undefined} */
  #cover;
  /** @type {Map<string, UnsentRequest[]>} by task: requests of its new tabs the rules failed, not yet reported */
  #unsent = new Map();
  /** @type {WeakSet<TabHold>} holds whose tab was loaded again once its hold was on (once each) */
  #reloaded = new WeakSet();
  /** @type {Map<string, import("./network-action-hold.js").UnansweredRequest[]>} by task: requests that went without
   *   the person's answer after their action had answered, not yet reported */
  #unanswered = new Map();

  /**
   * @param {object} deps
   * @param {(msg: unknown) => boolean} deps.post sends to the app; false when not connected
   * @param {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: unknown) => void}} deps.timers
   * @param {() => Promise<import("./network-strict.js").StrictMode>} deps.strict the person's strict-mode setting
   * @param {DebuggerController} deps.debugger
   * @param {{get: (tabId: number) => {url?: string, opener_tab_id?: number} | undefined}} deps.sessions the session
   *   store (a tab's page, the tab that opened it)
   * @param {import("./network-new-tabs.js").NewTabCover} [deps.cover] covers the tabs a session tab opens until
   *   their own hold is on (absent: they are held from their session's start)
   */
  constructor({ post, timers, strict, debugger: dbg, sessions, cover }) {
    this.#post = post;
    this.#timers = timers;
    this.#strict = strict;
    this.#dbg = dbg;
    this.#sessions = sessions;
    this.#cover = cover;
    cover?.onUnsent((tabId, request) => this.#noteUnsent(tabId, request));
  }

  /**
   * A request of a new tab the session rules failed before its hold was on (network-new-tabs.js): a web page is
   * loaded again once the hold is on, so what it sends as it loads goes through the hold; either way the task's
   * next action reports it.
   * @param {number} tabId
   * @param {import("./network-new-tabs.js").BlockedRequest} request
   */
  #noteUnsent(tabId, request) {
    const hold = this.#holds.get(tabId);
    if (!hold || hold.failedHere(request.method, request.url)) return;
    const reload = WEB_PAGE.test(request.documentUrl);
    if (reload) this.#reloadOnce(hold);
    let list = this.#unsent.get(hold.taskId);
    if (!list) this.#unsent.set(hold.taskId, (list = []));
    if (list.length < MAX_UNSENT) {
      list.push({ method: request.method, url: request.url, tab_id: tabId, why: reload ? RELOADED_WHY : UNSENT_WHY });
    }
  }

  /**
   * Load the hold's tab again once Fetch is on in it, first leaving it out of the rules (they apply before Fetch,
   * so the reload would be blocked again), unless it was already.
   * @param {TabHold} hold
   */
  #reloadOnce(hold) {
    if (this.#reloaded.has(hold)) return;
    this.#reloaded.add(hold);
    this.#ready.get(hold.tabId)?.then(async (ready) => {
      if (ready !== hold || hold.ended) return;
      await this.#cover?.leaveOut(hold.tabId);
      if (!hold.ended) await this.#dbg.send(hold.tabId, "Page.reload", {});
    }).catch(() => {});
  }

  /**
   * The requests of a task's new tabs that were failed before their hold was on, and forget them.
   * @param {string} taskId
   * @returns {UnsentRequest[]}
   */
  takeUnsent(taskId) {
    const list = this.#unsent.get(taskId) ?? [];
    this.#unsent.delete(taskId);
    return list;
  }

  /**
   * A request of a held tab went without the person's answer (failed, or let go by Chromium when the debugger
   * detached) and no action's result reports it: kept for the task's next action.
   * @param {TabHold} hold
   * @param {import("./network-action-hold.js").HeldRequest} record
   */
  unanswered(hold, record) {
    let list = this.#unanswered.get(hold.taskId);
    if (!list) this.#unanswered.set(hold.taskId, (list = []));
    if (list.length < MAX_UNSENT) {
      list.push({ method: record.method, url: record.url, tab_id: hold.tabId, decision: record.decision, why: record.why.join("; ") });
    }
  }

  /**
   * The task's requests that went without an answer since its last result, and forget them.
   * @param {string} taskId
   */
  takeUnanswered(taskId) {
    const list = this.#unanswered.get(taskId) ?? [];
    this.#unanswered.delete(taskId);
    return list;
  }

  /**
   * An action of the task that acted on no held tab answered: what its held requests became since its last result
   * is folded into this one.
   * @param {string} taskId
   * @param {unknown} result
   */
  report(taskId, result) {
    const waiting = (this.#unsent.get(taskId)?.length ?? 0) + (this.#unanswered.get(taskId)?.length ?? 0);
    if (!result || typeof result !== "object" || waiting === 0) return result;
    return foldUnreported(result, this.takeUnsent(taskId), this.takeUnanswered(taskId));
  }

  /**
   * A session began on a tab (also one restored when the worker starts): its hold goes on.
   * @param {string} taskId
   * @param {number} tabId
   * @param {{opened?: boolean}} [options] `opened`: another tab opened it (NetworkHolds.opened)
   * @returns {Promise<TabHold>}
   */
  hold(taskId, tabId, { opened = false } = {}) {
    const current = this.#holds.get(tabId);
    const ready = this.#ready.get(tabId);
    if (current && !current.ended && ready) {
      if (current.taskId === taskId) return ready;
      current.end("the tab's session changed hands");
    }
    const hold = new TabHold(this, this.#dbg, taskId, tabId, { opened: opened || this.#sessions.get(tabId)?.opener_tab_id !== undefined });
    this.#holds.set(tabId, hold);
    const covered = this.#cover?.cover();
    const started = (async () => {
      try {
        await hold.start();
      } catch (err) {
        hold.end("its requests could not be held");
        throw err;
      }
      await covered;
      const cover = this.#cover;
      if (cover && !hold.ended) {
        // left out of the rules only once Fetch reaches what its document sends (TabHold.onCovered), or just
        // before the hold loads it again: a popup's first page, still loading when Fetch went on, sends its first
        // subresources past Fetch (measured), so until then the rules stay on it, and what they fail loads it again
        hold.onCovered(() => cover.leaveOut(tabId));
        // a first request the rule blocked before Fetch was on in the tab is sent again, now through the hold
        hold.onEnd(cover.onBlocked(tabId, () => this.#reloadOnce(hold)));
      }
      return hold;
    })();
    this.#ready.set(tabId, started);
    started.catch(() => {});
    return started;
  }

  /**
   * Sessions the worker found when it started (chrome.storage.session): each is held again.
   * @param {SessionRef[]} sessions
   */
  restore(sessions) {
    for (const s of sessions) this.hold(s.task_id, s.tab_id).catch((err) => console.warn("bua: could not hold a session tab:", err));
  }

  /**
   * An action begins on a session tab: its window on the tab's hold (the hold is started first if it is not on).
   * @param {ActionContext} ctx
   * @param {number} tabId
   * @param {string} actionType
   * @param {{approved?: boolean}} [options] `approved`: the request came with an approval token (the app sends one
   *   after the person approved the action its label held, and also without asking for a field in another site's
   *   frame); told to the app, which alone knows whether the person was asked (app/safety/network_holds.py)
   * @returns {Promise<ActionWindow>}
   */
  async begin(ctx, tabId, actionType, { approved = false } = {}) {
    const hold = await this.hold(String(ctx.taskId ?? ""), tabId);
    return hold.act(ctx, actionType, approved);
  }

  /**
   * End the holds that match now (Stop, an ended session): what waits for the person is failed, Fetch goes off.
   * @param {(hold: {taskId: string, tabId: number}) => boolean} matches
   * @param {string} reason
   */
  endWhere(matches, reason) {
    for (const hold of [...this.#holds.values()]) {
      if (matches({ taskId: hold.taskId, tabId: hold.tabId })) hold.end(reason);
    }
  }

  /**
   * A session ended on a tab: its hold goes.
   * @param {number} tabId
   * @param {string} reason
   */
  sessionEnded(tabId, reason) {
    this.#holds.get(tabId)?.end(`the session ended (${reason})`);
  }

  /** @param {TabHold} hold */
  ended(hold) {
    if (this.#holds.get(hold.tabId) === hold) {
      this.#holds.delete(hold.tabId);
      this.#ready.delete(hold.tabId);
    }
    this.#cover?.uncover();
  }

  /**
   * A tab opened another (chrome.tabs.onCreated's openerTabId, webNavigation.onCreatedNavigationTarget): when the
   * opener is held, the new tab's hold begins now, for the opener's task, before the tab has joined the task
   * (sessions/opened-tabs.js), whose session start then finds it on.
   * @param {number} openerTabId
   * @param {number} tabId
   */
  opened(openerTabId, tabId) {
    const opener = this.#holds.get(openerTabId);
    if (!opener || opener.ended || this.#holds.has(tabId)) return;
    this.hold(opener.taskId, tabId, { opened: true }).catch((err) => console.warn("bua: could not hold a new tab:", err));
  }

  /**
   * A beforeunload dialog opened on a tab (tabs/dialogs.js asks before it answers): what waits in its hold is
   * failed first (network-close-guard.js).
   * @param {number} tabId
   */
  async leaving(tabId) {
    await this.#holds.get(tabId)?.leaving();
  }

  /**
   * Whether a session tab's hold is on or going on.
   * @param {number} tabId
   */
  holdsTab(tabId) {
    return this.#holds.has(tabId);
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
    for (const holdId of [...this.#waiting.keys()]) this.released(holdId, reason);
  }

  /** The timers the holds use. */
  get timers() {
    return this.#timers;
  }

  /** The person's strict-mode setting now. */
  strict() {
    return this.#strict();
  }

  /** @param {number} tabId */
  pageUrl(tabId) {
    return this.#sessions.get(tabId)?.url ?? "";
  }

  /**
   * Ask the app about one paused request; resolves with its answer.
   * @param {TabHold} hold
   * @param {Record<string, unknown>} data the event's data (without hold_id)
   * @returns {{holdId: string, answer: Promise<AppAnswer>}}
   */
  ask(hold, data) {
    const holdId = `h${nextHold++}`;
    /** @type {Promise<AppAnswer>} */
    const answer = new Promise((resolve) => {
      const timer = this.#timers.setTimeout(() => this.released(holdId, `no answer within ${HOLD_CEILING_MS / 60000} min`), HOLD_CEILING_MS);
      this.#waiting.set(holdId, { hold, resolve: (a) => {
        this.#timers.clearTimeout(timer);
        resolve(a);
      } });
    });
    if (!this.#post(eventMessage("request_held", { hold_id: holdId, ...data }))) {
      // Nobody can answer: what can change something, or what the extension found a reason in, is failed; a
      // navigation or read that only the app's data-flow memory could object to goes on (that memory is
      // unreachable, and no action of the task can run meanwhile), so a session tab still browses.
      const refuse = data.can_change === true || (Array.isArray(data.why) && data.why.length > 0);
      this.answer(holdId, refuse ? { decision: "deny", asked: false, why: ["bua is not connected to ask the person"] }
        : { decision: "allow", asked: false });
    }
    return { holdId, answer };
  }

  /**
   * A request the app may still be asking about went without its answer: failed by the extension, or (`letGo`)
   * continued by Chromium when the debugger detached.
   * @param {string} holdId
   * @param {string} reason
   * @param {boolean} [letGo]
   */
  released(holdId, reason, letGo = false) {
    const waiting = this.#waiting.get(holdId);
    if (!waiting) return;
    this.#waiting.delete(holdId);
    waiting.resolve({ decision: "deny", asked: true, why: [reason], stopped: true, letGo });
    this.#post(eventMessage("request_released", { hold_id: holdId, reason }));
  }
}
