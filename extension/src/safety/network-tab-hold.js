/**
 * One session tab's hold (network-hold.js has the whole design): Fetch on in the tab and in its child targets from
 * the session's start to its end, every paused request judged, and what can change something (or may carry data
 * away) sent to the app to answer. An action acting on the tab opens a window on it (network-action-hold.js) that
 * reports what paused while it acted; between actions the same requests are held and judged, and asked about as
 * the page's own.
 */

import { MAX_BODY_CHARS, SECRET_REASON, bodyText, bodyUnjudged, localReasons, mayChange } from "./network-judge.js";
import { ActionWindow, LINGER_MS, carriesAway } from "./network-action-hold.js";
import { CloseGuard } from "./network-close-guard.js";
import { SocketMessages } from "./network-sockets.js";
import { strictFor } from "./network-strict.js";
import { carriesSecret, secretForms } from "./network-secrets.js";

/** Every request, whatever its resource type (an image, a script, a font, a prefetch can carry data away in its
 *  URL as a fetch can): the ones that cannot change anything nor carry data away continue at once (#paused). */
const PATTERNS = [{ urlPattern: "*", requestStage: "Request" }];
/** Child targets whose requests are held with the tab's (what auto-attach on a page reports). */
/** A top document Fetch fetched, so one whose loading proves Fetch reaches the tab: a web page. A popup's initial
 *  about:blank is complete at once, before the navigation its opener sends into it (a target=_blank form POST), which
 *  Fetch in the popup does not see (measured: the card number went out unasked when the popup was left out of the
 *  session rules for it, tests/e2e/test_network_hold.py). */
const FETCHED_DOCUMENT = /^https?:/i;
const HELD_TARGET_TYPES = new Set(["iframe", "worker", "shared_worker", "service_worker"]);
/** How long a request this hold failed is remembered, so that its failure is not taken for the session rules'. */
const FAILED_LATELY_MS = 10_000;
/** Why what waited went unanswered when the debugger detached: Chromium continues a paused request then. */
const LET_GO = "Chrome let it go unanswered when the tab's debugger detached (the tab was closed by a DevTools client, " +
  "or the debugging was cancelled), so it may have been sent";
const CRASHED = "the page crashed while it waited for the person, so it was failed and not sent";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./network-action-hold.js").AppAnswer} AppAnswer
 * @typedef {import("./network-action-hold.js").HeldRequest} HeldRequest
 * @typedef {import("./network-action-hold.js").OpenRequest} OpenRequest
 * @typedef {import("./network-strict.js").StrictMode} StrictMode
 *
 * @typedef {object} TabHoldService what a tab's hold needs of the service (network-hold.js NetworkHolds)
 * @property {(hold: TabHold, data: Record<string, unknown>) => {holdId: string, answer: Promise<AppAnswer>}} ask
 * @property {(holdId: string, reason: string, letGo?: boolean) => void} released
 * @property {(hold: TabHold, record: HeldRequest) => void} unanswered a request that went without the person's answer
 *   and no action's result to report it: kept for the task's next action
 * @property {(hold: TabHold) => void} ended
 * @property {() => Promise<StrictMode>} strict
 * @property {(tabId: number) => string} pageUrl the session tab's page, as the session store last saw it
 * @property {(taskId: string) => {method: string, url: string, tab_id: number, why: string}[]} takeUnsent requests
 *   of the task's new tabs failed before their hold was on, for the next result
 * @property {(taskId: string) => import("./network-action-hold.js").UnansweredRequest[]} takeUnanswered
 * @property {{setTimeout: (fn: () => void, ms: number) => unknown, clearTimeout: (handle: unknown) => void}} timers
 */

export class TabHold {
  #service;
  #dbg;
  #taskId;
  #tabId;
  /** @type {(string | undefined)[]} the sessions Fetch is enabled on (undefined: the tab itself) */
  #sessions = [];
  /** @type {(() => void)[]} */
  #offs = [];
  /** @type {Set<string>} frames that just requested a navigation by submitting a form */
  #formFrames = new Set();
  /** @type {Map<string, OpenRequest & {fail: () => Promise<unknown>, session: string | undefined}>} by session and Fetch
   *   request id */
  #open = new Map();
  #sockets = new SocketMessages();
  /** @type {CloseGuard} makes the tab's close wait while a request waits (network-close-guard.js) */
  #closeGuard;
  /** @type {ActionWindow | undefined} the action acting on the tab now */
  #acting;
  /** @type {{window: ActionWindow, timer: unknown} | undefined} the last action, for LINGER_MS after it answered */
  #recent;
  #ended = false;
  /** @type {Map<string, number>} "METHOD url" of the requests this hold failed lately, and when */
  #failedLately = new Map();
  /** @type {() => Promise<unknown>} run once Fetch reaches what the tab's document sends (onCovered) */
  #beforeTop = () => Promise.resolve();
  /** @type {string | undefined} the tab's top frame (Page.getFrameTree, Page.frameNavigated) */
  #topFrame;
  /** whether another tab opened this one (its first navigation may be its opener's, begun before Fetch was on) */
  #opened;
  /** the top frame's URL as Page.frameNavigated last told it ("" before) */
  #topUrl = "";

  /**
   * @param {TabHoldService} service
   * @param {DebuggerController} dbg
   * @param {string} taskId
   * @param {number} tabId
   * @param {{opened?: boolean}} [options] `opened`: another tab opened this one (#proves)
   */
  constructor(service, dbg, taskId, tabId, { opened = false } = {}) {
    this.#opened = opened;
    this.#service = service;
    this.#dbg = dbg;
    this.#taskId = taskId;
    this.#tabId = tabId;
    this.#closeGuard = new CloseGuard(dbg, tabId);
  }

  /** The task whose session tab this is. */
  get taskId() {
    return this.#taskId;
  }

  /** The tab held. */
  get tabId() {
    return this.#tabId;
  }

  get ended() {
    return this.#ended;
  }

  /** Pause the tab's requests and its children's (a failure to enable Fetch on the tab itself throws). */
  async start() {
    const dbg = this.#dbg;
    const tabId = this.#tabId;
    this.#offs.push(
      dbg.on(tabId, "Fetch.requestPaused", (params, source) => this.#paused(params, source.sessionId)),
      dbg.on(tabId, "Page.frameNavigated", (params, source) => {
        if (source.sessionId !== undefined || params.frame?.parentId) return;
        this.#topFrame = params.frame?.id ?? this.#topFrame;
        this.#topUrl = String(params.frame?.url ?? "");
        this.#closeGuard.navigated();
      }),
      dbg.on(tabId, "Page.frameRequestedNavigation", (params) => {
        if (String(params.reason ?? "").startsWith("formSubmission")) this.#formFrames.add(params.frameId);
      }),
      dbg.onChildStart(tabId, (child) => {
        if (!this.#ended && HELD_TARGET_TYPES.has(child.type)) return this.#enable(child.sessionId);
      }),
      dbg.on(tabId, "Inspector.targetCrashed", (_params, source) => this.#crashed(source.sessionId)),
      dbg.on(tabId, "Page.loadEventFired", (_params, source) => {
        if (source.sessionId === undefined && this.#proves(this.#topUrl)) this.#beforeTop().catch(() => {});
      }),
      dbg.onDetach(tabId, () => this.end(LET_GO, { detached: true })),
      ...this.#sockets.watch(dbg, tabId, () => !this.#ended && this.#acting !== undefined, () => secretForms(this.#taskId)),
    );
    await dbg.enableChildTargets(tabId).catch(() => {});
    const children = dbg.childTargets(tabId).filter((c) => HELD_TARGET_TYPES.has(c.type)).map((c) => c.sessionId);
    await Promise.all([this.#enable(undefined, true), ...children.map((s) => this.#enable(s))]);
    // Page: the close guard's beforeunload dialog (tabs/dialogs.js) and navigations are reported also in a tab no
    // action has prepared yet (a popup); Inspector: a renderer's crash. Not waited for: a tab mid-navigation answers
    // Page.enable late, and the hold is on without them
    for (const method of ["Page.enable", "Inspector.enable"]) dbg.send(tabId, method).catch(() => {});
    this.#loadedBefore().then((loaded) => { if (loaded && !this.#ended) this.#beforeTop().catch(() => {}); }, () => {});
    if (this.#ended) this.#disable();
  }

  /** Whether the tab's document had loaded when Fetch went on (read in a world of bua's, which the page cannot
   *  fool); notes the top frame. */
  async #loadedBefore() {
    const tree = await this.#dbg.send(this.#tabId, "Page.getFrameTree");
    const frameId = tree?.frameTree?.frame?.id;
    this.#topFrame ??= frameId;
    const world = await this.#dbg.send(this.#tabId, "Page.createIsolatedWorld", { frameId, worldName: "bua-hold" });
    const state = await this.#dbg.send(this.#tabId, "Runtime.evaluate", { expression: "[document.readyState, location.href]",
      contextId: world.executionContextId, returnByValue: true });
    const [readyState, href] = Array.isArray(state?.result?.value) ? state.result.value : [];
    return readyState === "complete" && this.#proves(String(href ?? ""));
  }

  /**
   * Whether a loaded top document at `url` shows Fetch reaches the tab: any, in a tab no tab opened (bua's own new
   * tab, navigated by its actions once the hold is on); only a web page in a tab another opened (FETCHED_DOCUMENT).
   * @param {string} url
   */
  #proves(url) {
    return !this.#opened || FETCHED_DOCUMENT.test(url);
  }

  /**
   * Run `fn` once Fetch is known to reach what the tab's document sends: its web page (FETCHED_DOCUMENT, not a
   * popup's initial about:blank) had loaded when Fetch went on, one loads since (Page.loadEventFired), or before a
   * top-level document request of it is let go. A new tab is
   * left out of the session rules only then (network-hold.js): a document still loading when Fetch went on sends
   * its first subresources past it (measured).
   * @param {() => Promise<unknown>} fn
   */
  onCovered(fn) {
    this.#beforeTop = fn;
  }

  /**
   * Run `fn` when the hold ends (now if it has).
   * @param {() => void} fn
   */
  onEnd(fn) {
    if (this.#ended) fn();
    else this.#offs.push(fn);
  }

  /**
   * An action begins on the tab: what pauses until it answers is reported in its result.
   * @param {ActionContext} ctx
   * @param {string} action
   * @param {boolean} approved
   */
  act(ctx, action, approved) {
    this.#acting?.linger();
    const window = new ActionWindow(ctx, action, approved, {
      takeSockets: () => this.#sockets.take(),
      takeUnsent: () => this.#service.takeUnsent(this.#taskId),
      takeUnanswered: () => this.#service.takeUnanswered(this.#taskId),
      onDone: (done) => this.#answered(done),
    });
    this.#acting = window;
    return window;
  }

  /** @param {ActionWindow} window */
  #answered(window) {
    if (this.#acting === window) this.#acting = undefined;
    if (this.#recent) this.#service.timers.clearTimeout(this.#recent.timer);
    const timer = this.#service.timers.setTimeout(() => {
      if (this.#recent?.window === window) this.#recent = undefined;
    }, LINGER_MS);
    this.#recent = { window, timer };
  }

  /**
   * @param {string | undefined} sessionId
   * @param {boolean} [required] the tab's own: a failure means the tab cannot be held
   */
  async #enable(sessionId, required = false) {
    if (this.#ended) return;
    this.#sessions.push(sessionId);
    // a child's renderer crashing is told in its own session (an out-of-process frame's: #crashed)
    if (sessionId !== undefined) this.#dbg.send(this.#tabId, "Inspector.enable", {}, sessionId).catch(() => {});
    try {
      await this.#dbg.send(this.#tabId, "Fetch.enable", { patterns: PATTERNS }, sessionId);
    } catch (err) {
      if (required) throw err;
    }
  }

  /**
   * @param {any} params Fetch.requestPaused
   * @param {string | undefined} sessionId
   */
  #paused(params, sessionId) {
    const request = params.request ?? {};
    const form = params.resourceType === "Document" && this.#formFrames.delete(params.frameId);
    const body = bodyText(request);
    const outgoing = { method: String(request.method ?? "GET"), url: String(request.url ?? ""), resourceType: String(params.resourceType ?? ""),
      formSubmission: form, body, unjudged: bodyUnjudged(request, body) };
    const changes = mayChange(outgoing);
    const top = outgoing.resourceType === "Document" && sessionId === undefined &&
      (this.#topFrame === undefined || params.frameId === this.#topFrame);
    const pageUrl = this.#service.pageUrl(this.#tabId);
    const secrets = secretForms(this.#taskId);
    const secretInUrl = carriesSecret(secrets, [outgoing.url]);
    if (this.#ended || (!changes && outgoing.resourceType !== "Document" && !secretInUrl && !carriesAway(outgoing.url, pageUrl))) {
      this.#continue(params.requestId, sessionId);
      return;
    }
    const acting = this.#acting;
    const about = (acting ?? this.#recent?.window)?.about ?? { task_id: this.#taskId, request_id: "", action: "", approved: false };
    /** @type {HeldRequest} */
    const record = { method: outgoing.method, url: outgoing.url, why: [], decision: "allow" };
    let failedAtEnd = false;
    /** @type {{reason: string, letGo: boolean} | undefined} why it went before it was asked about */
    let releasedFirst;
    /** @type {(reason: string, letGo: boolean) => void} */
    let release = (reason, letGo) => { releasedFirst ??= { reason, letGo }; };
    /** @type {Promise<StrictMode | undefined>} */
    const strictMode = changes ? this.#service.strict() : Promise.resolve(undefined);
    // the close guard is on before a request that can change something is asked about: a tab closed (by the
    // person, or by the page itself) while it waits must not let it continue (network-close-guard.js). A
    // navigation is not kept waiting for it: a frame whose document is being replaced may only answer after.
    const guarded = this.#ended ? Promise.resolve()
      : this.#closeGuard.set(true, { activate: changes && outgoing.resourceType !== "Document" });
    const settled = Promise.all([strictMode, changes && outgoing.resourceType !== "Document" ? guarded : undefined]).then(([strict]) => {
      /** @type {AppAnswer} */
      const failed = { decision: "deny", asked: true, stopped: true, letGo: releasedFirst?.letGo, why: [releasedFirst?.reason ?? ""] };
      if (releasedFirst !== undefined) return failed;
      if (strict) record.why = localReasons(outgoing, { strict: strictFor(strict, outgoing.url, pageUrl), secrets });
      else if (secretInUrl) record.why = [SECRET_REASON];
      const { holdId, answer } = this.#service.ask(this, {
        ...about, tab_id: this.#tabId, between_actions: acting === undefined,
        method: outgoing.method, url: outgoing.url, resource_type: outgoing.resourceType, form_submission: form,
        redirect: Boolean(params.redirectedRequestId), can_change: changes, body: outgoing.body.slice(0, MAX_BODY_CHARS),
        why: record.why,
      });
      release = (reason, letGo) => this.#service.released(holdId, reason, letGo);
      return answer;
    }).then((/** @type {AppAnswer} */ a) => {
      record.why = [...new Set([...record.why, ...(a.why ?? [])])];
      record.decision = a.letGo ? "let_go" : a.stopped ? "stopped" : a.decision;
      // gone without the person's answer after its action answered (or with none acting): the task's next
      // action says so, since no result of this one can
      if (a.stopped && !(acting?.acting ?? false)) this.#service.unanswered(this, record);
      if (failedAtEnd) return true;
      const reported = Boolean(a.asked || a.decision === "deny");
      if (a.decision === "allow" && top) {
        return this.#beforeTop().catch(() => {}).then(() => this.#continue(params.requestId, sessionId)).then(() => reported);
      }
      if (a.decision === "allow") this.#continue(params.requestId, sessionId);
      else this.#fail(params.requestId, sessionId, outgoing.resourceType === "Document", outgoing.method, outgoing.url);
      return reported;
    });
    /** @type {OpenRequest & {fail: () => Promise<unknown>, session: string | undefined}} */
    const open = { settled, record, session: sessionId, release: (reason, letGo = false) => release(reason, letGo),
      fail: () => {
        failedAtEnd = true;
        return this.#fail(params.requestId, sessionId, outgoing.resourceType === "Document", outgoing.method, outgoing.url);
      } };
    const key = `${sessionId ?? ""}:${params.requestId}`;
    this.#open.set(key, open);
    settled.finally(() => {
      this.#open.delete(key);
      if (this.#open.size === 0 && !this.#ended) this.#closeGuard.set(false);
    });
    acting?.track(open);
  }

  /**
   * @param {string} requestId
   * @param {string | undefined} sessionId
   */
  #continue(requestId, sessionId) {
    this.#dbg.send(this.#tabId, "Fetch.continueRequest", { requestId }, sessionId).catch(() => {});
  }

  /**
   * A refused navigation is aborted, as if the person pressed Stop: the page stays as it was (a form keeps what
   * was typed) instead of becoming Chrome's "blocked" error page; any other request fails as blocked by client.
   * @param {string} requestId
   * @param {string | undefined} sessionId
   * @param {boolean} navigation
   */
  #fail(requestId, sessionId, navigation, method = "", url = "") {
    const now = Date.now();
    for (const [key, at] of this.#failedLately) if (now - at > FAILED_LATELY_MS) this.#failedLately.delete(key);
    this.#failedLately.set(`${method} ${url}`, now);
    const errorReason = navigation ? "Aborted" : "BlockedByClient";
    return this.#dbg.send(this.#tabId, "Fetch.failRequest", { requestId, errorReason }, sessionId).catch(() => {});
  }

  /**
   * Whether this hold itself failed such a request lately (a Deny, Stop): not one the session rules failed.
   * @param {string} method
   * @param {string} url
   */
  failedHere(method, url) {
    const at = this.#failedLately.get(`${method} ${url}`);
    return at !== undefined && Date.now() - at <= FAILED_LATELY_MS;
  }

  /**
   * The page is about to go (its tab closing, or a navigation away: a beforeunload dialog opened while a request
   * waits, network-close-guard.js): fail what waits, and resolve once Chrome has failed it, before the dialog is
   * answered and the debugger detaches (which would let a paused request continue).
   */
  async leaving() {
    const waiting = [...this.#open.values()];
    if (waiting.length === 0) return;
    await Promise.all(waiting.map((open) => open.fail()));
    this.release("the page was closed or left while the request waited for an answer");
  }

  /**
   * A renderer of the tab crashed (the top frame's, or an out-of-process frame's or worker's: `sessionId`): what
   * waits in it is failed, not left for the detach that closing the crashed tab brings (which would continue it; a
   * keepalive request, a beacon, outlives its renderer).
   * @param {string | undefined} sessionId
   */
  #crashed(sessionId) {
    for (const open of [...this.#open.values()]) {
      if (sessionId !== undefined && open.session !== sessionId) continue;
      open.fail();
      open.release(CRASHED);
    }
  }

  /**
   * Fail every request still waiting for an answer (each tells the app, which withdraws its question).
   * @param {string} reason
   * @param {{letGo?: boolean}} [how] `letGo`: Chromium continued it (the debugger detached), it may have left
   */
  release(reason, { letGo = false } = {}) {
    for (const open of [...this.#open.values()]) open.release(reason, letGo);
  }

  /**
   * Stop holding (idempotent): what waits is failed, Fetch is disabled on every session (not awaited, and not
   * when the debugger already detached), listeners removed.
   * @param {string} reason
   * @param {{detached?: boolean}} [how]
   */
  end(reason, { detached = false } = {}) {
    if (this.#ended) return;
    // failed now, before Fetch.disable below: disabling Fetch lets every request still paused continue
    const waiting = [...this.#open.values()];
    if (!detached) for (const open of waiting) open.fail();
    this.release(reason, { letGo: detached });
    this.#acting?.release(reason);
    this.#ended = true;
    if (this.#recent) this.#service.timers.clearTimeout(this.#recent.timer);
    for (const off of this.#offs) off();
    if (!detached) {
      this.#disable();
      this.#closeGuard.set(false);
    }
    this.#service.ended(this);
  }

  #disable() {
    for (const sessionId of this.#sessions.splice(0)) this.#dbg.send(this.#tabId, "Fetch.disable", {}, sessionId).catch(() => {});
  }
}
