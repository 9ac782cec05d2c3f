/**
 * One action's hold on one tab (network-hold.js has the whole design): Fetch on in the tab and its children, what
 * pauses judged and, when it can change something, sent to the app to answer; the tabs it opens taken over.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { HELD_RESOURCE_TYPES, bodyText, localReasons, mayChange } from "./network-judge.js";
import { SocketMessages } from "./network-sockets.js";
import { strictFor } from "./network-strict.js";

/**
 * How long the hold stays on after an action answered, unless the next action on the tab begins first: a page
 * that sends a moment after the click (a `setTimeout(…, 1500)` POST, a debounced autosave, a page the click
 * opened that posts as it loads) is held too. The action does not wait for it: its answer is not delayed, and a
 * request held then asks the person like any other (Deny fails it); only the action's result cannot report it.
 */
export const LINGER_MS = 3000;
const PATTERNS = HELD_RESOURCE_TYPES.map((resourceType) => ({ urlPattern: "*", resourceType, requestStage: "Request" }));
/** Child targets whose requests are held with the tab's. */
const HELD_TARGET_TYPES = new Set(["iframe", "worker", "shared_worker", "service_worker"]);
/** How much of a body the app is shown (the data-flow check reads it). */
const MAX_BODY_TO_APP = 32 * 1024;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./network-hold.js").NetworkHolds} NetworkHolds
 * @typedef {"allow" | "deny" | "stopped"} HoldDecision
 * @typedef {{method: string, url: string, why: string[], decision: HoldDecision}} HeldRequest what a result
 *   reports of a request the person was asked about (or that was failed while waiting)
 * @typedef {{decision: "allow" | "deny", asked?: boolean, why?: string[], stopped?: boolean}} AppAnswer `stopped`: the
 *   extension failed it before an answer came
 */

/**
 * A read (GET) to another host than the page's that carries a query: it can carry data away, so the app checks
 * its data-flow memory (a read to the page's own host, or without a query, continues with no round trip).
 * @param {string} url
 * @param {string} pageUrl
 */
export function carriesAway(url, pageUrl) {
  try {
    const to = new URL(url);
    return to.search.length > 1 && pageUrl !== "" && to.hostname !== new URL(pageUrl).hostname;
  } catch {
    return false;
  }
}

/** One action's hold on one tab. */
export class ActionHold {
  #holds;
  #ctx;
  #dbg;
  #tabId;
  #action;
  #strict;
  #approved;
  /** @type {[number, string | undefined][]} the tabs and sessions Fetch is enabled on (undefined: the tab itself) */
  #sessions = [];
  /** @type {Set<number>} the tab acted on and the tabs it opened during the hold */
  #tabs = new Set();
  /** @type {(() => void)[]} */
  #offs = [];
  /** @type {Set<string>} frames that just requested a navigation by submitting a form */
  #formFrames = new Set();
  /** @type {Map<string, {settled: Promise<void>, holdId?: string, record: HeldRequest}>} by Fetch request id */
  #open = new Map();
  /** @type {HeldRequest[]} */
  #held = [];
  #sockets = new SocketMessages();
  #ended = false;
  /** @type {unknown} the timer that ends a lingering hold */
  #lingering;

  /**
   * @param {NetworkHolds} holds
   * @param {ActionContext} ctx
   * @param {number} tabId
   * @param {string} action
   * @param {import("./network-strict.js").StrictMode} strict
   * @param {boolean} approved
   */
  constructor(holds, ctx, tabId, action, strict, approved) {
    this.#holds = holds;
    this.#ctx = ctx;
    this.#dbg = /** @type {DebuggerController} */ (ctx.debugger.controller ?? ctx.debugger);
    this.#tabId = tabId;
    this.#action = action;
    this.#strict = strict;
    this.#approved = approved;
  }

  async start() {
    const onAbort = () => this.release(String(this.#ctx.signal?.reason ?? "stopped"));
    this.#ctx.signal?.addEventListener("abort", onAbort);
    this.#offs.push(() => this.#ctx.signal?.removeEventListener("abort", onAbort));
    await this.#hold(this.#tabId, true);
  }

  /**
   * Pause the tab's requests and its children's (a failure to enable Fetch on the tab itself throws when required).
   * @param {number} tabId
   * @param {boolean} required
   */
  async #hold(tabId, required) {
    const dbg = this.#dbg;
    this.#tabs.add(tabId);
    this.#offs.push(
      dbg.on(tabId, "Fetch.requestPaused", (params, source) => this.#paused(params, tabId, source.sessionId)),
      dbg.on(tabId, "Page.frameRequestedNavigation", (params) => {
        if (String(params.reason ?? "").startsWith("formSubmission")) this.#formFrames.add(params.frameId);
      }),
      dbg.onChildStart(tabId, (child) => {
        if (!this.#ended && HELD_TARGET_TYPES.has(child.type)) return this.#enable(tabId, child.sessionId);
      }),
      dbg.onDetach(tabId, () => this.release("the tab closed or its debugger detached", tabId)),
      ...this.#sockets.watch(dbg, tabId, () => !this.#ended && this.#lingering === undefined),
    );
    await dbg.enableChildTargets(tabId).catch(() => {});
    const children = dbg.childTargets(tabId).filter((c) => HELD_TARGET_TYPES.has(c.type)).map((c) => c.sessionId);
    await Promise.all([this.#enable(tabId, undefined, required), ...children.map((s) => this.#enable(tabId, s))]);
  }

  /**
   * Whether this hold acts on the tab (the action's own, or one it opened).
   * @param {number} tabId
   */
  holdsTab(tabId) {
    return !this.#ended && this.#tabs.has(tabId);
  }

  /**
   * Take over a tab the held tab opened (network-new-tabs.js): Fetch on in it, then out of the cover's rule, then
   * its top-level navigation that the rule blocked is sent again (a reload re-sends a POST whole), now through
   * Fetch, where it is judged like the tab's own.
   * @param {number} tabId
   * @param {import("./network-new-tabs.js").NewTabCover} cover
   */
  async adopt(tabId, cover) {
    if (this.#ended || this.#tabs.has(tabId)) return;
    await this.#hold(tabId, true);
    if (this.#ended) return;
    await cover.leaveOut(tabId);
    this.#offs.push(cover.onBlocked(tabId, () => {
      if (!this.#ended) this.#dbg.send(tabId, "Page.reload", {}).catch(() => {});
    }));
  }

  /** The task whose action this hold is of. */
  get taskId() {
    return String(this.#ctx.taskId ?? "");
  }

  /** The tab this hold was begun on. */
  get tabId() {
    return this.#tabId;
  }

  /**
   * @param {number} tabId
   * @param {string | undefined} sessionId
   * @param {boolean} [required] the tab's own: a failure fails the action (it could not be held)
   */
  async #enable(tabId, sessionId, required = false) {
    this.#sessions.push([tabId, sessionId]);
    try {
      await this.#dbg.send(tabId, "Fetch.enable", { patterns: PATTERNS }, sessionId);
    } catch (err) {
      if (required) throw err;
    }
  }

  /**
   * @param {any} params Fetch.requestPaused
   * @param {number} tabId
   * @param {string | undefined} sessionId
   */
  #paused(params, tabId, sessionId) {
    const request = params.request ?? {};
    const form = params.resourceType === "Document" && this.#formFrames.delete(params.frameId);
    const outgoing = { method: String(request.method ?? "GET"), url: String(request.url ?? ""), resourceType: String(params.resourceType ?? ""),
      formSubmission: form, body: bodyText(request) };
    const changes = mayChange(outgoing);
    if (this.#ended || (!changes && outgoing.resourceType !== "Document" && !carriesAway(outgoing.url, this.#pageUrl()))) {
      this.#continue(params.requestId, tabId, sessionId);
      return;
    }
    const why = changes ? localReasons(outgoing, { strict: strictFor(this.#strict, outgoing.url, this.#pageUrl()) }) : [];
    /** @type {HeldRequest} */
    const record = { method: outgoing.method, url: outgoing.url, why, decision: "allow" };
    const { holdId, answer } = this.#holds.ask(this, {
      task_id: this.#ctx.taskId, request_id: String(this.#ctx.requestId), tab_id: this.#tabId, action: this.#action,
      method: outgoing.method, url: outgoing.url, resource_type: outgoing.resourceType, form_submission: form,
      redirect: Boolean(params.redirectedRequestId), can_change: changes, body: outgoing.body.slice(0, MAX_BODY_TO_APP), why,
      approved: this.#approved,
    });
    const settled = answer.then((a) => {
      record.why = [...new Set([...record.why, ...(a.why ?? [])])];
      record.decision = a.stopped ? "stopped" : a.decision;
      if (a.asked || a.decision === "deny") this.#held.push(record);
      if (a.decision === "allow") this.#continue(params.requestId, tabId, sessionId);
      else this.#fail(params.requestId, tabId, sessionId, outgoing.resourceType === "Document");
    });
    const key = `${tabId}:${params.requestId}`;
    this.#open.set(key, { settled, holdId, record });
    settled.finally(() => this.#open.delete(key));
  }

  /** The session tab's page, as the session store last saw it. */
  #pageUrl() {
    return this.#ctx.sessions?.get(this.#tabId)?.url ?? "";
  }

  /**
   * @param {string} requestId
   * @param {number} tabId
   * @param {string | undefined} sessionId
   */
  #continue(requestId, tabId, sessionId) {
    this.#dbg.send(tabId, "Fetch.continueRequest", { requestId }, sessionId).catch(() => {});
  }

  /**
   * A refused navigation is aborted, as if the person pressed Stop: the page stays as it was (a form keeps what
   * was typed) instead of becoming Chrome's "blocked" error page; any other request fails as blocked by client.
   * @param {string} requestId
   * @param {number} tabId
   * @param {string | undefined} sessionId
   * @param {boolean} navigation
   */
  #fail(requestId, tabId, sessionId, navigation) {
    const errorReason = navigation ? "Aborted" : "BlockedByClient";
    this.#dbg.send(tabId, "Fetch.failRequest", { requestId, errorReason }, sessionId).catch(() => {});
  }

  /**
   * Fail every request still waiting (Stop, cancellation, a closed tab, no app), or only one tab's.
   * @param {string} reason
   * @param {number} [tabId]
   */
  release(reason, tabId = undefined) {
    for (const [key, open] of this.#open) {
      if (open.holdId && (tabId === undefined || key.startsWith(`${tabId}:`))) this.#holds.released(open.holdId, reason);
    }
  }

  /**
   * After the action: wait for the answers still pending and fold what was held into the result (the dispatcher
   * then lets the hold linger).
   * A denied request makes the action answer `confirmation_required`.
   * @param {unknown} result the handler's result
   */
  async settle(result) {
    while (this.#open.size > 0) await Promise.all([...this.#open.values()].map((o) => o.settled));
    const held = [...this.#held];
    this.#held = [];
    const sent = this.#sockets.take();
    if (sent.length > 0 && result && typeof result === "object") {
      const r = /** @type {Record<string, any>} */ (result);
      (r.effects && typeof r.effects === "object" ? r.effects : r).websocket_sent = sent;
    }
    if (held.length === 0) return result;
    const refused = held.filter((h) => h.decision !== "allow");
    if (refused.length > 0) {
      const first = refused[0];
      const said = first.decision === "stopped" ? "was stopped before the person answered" : "was not approved";
      throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED,
        `the ${this.#action} was done, but the ${first.method} request it made to ${first.url} ${said} ` +
        `(${first.why.join("; ") || "held"}), so it never left the browser; the page may show an error: extract to see it`,
        { confirmation: { what: this.#action, kind: "network", url: first.url, reason: first.why.join("; "),
          held_requests: held } });
    }
    if (result && typeof result === "object") {
      const r = /** @type {Record<string, any>} */ (result);
      if (r.effects && typeof r.effects === "object") r.effects.held_requests = held;
      else r.held_requests = held;
    }
    return result;
  }

  /**
   * After the action answered: keep holding for LINGER_MS (ended sooner by the next action on the tab, Stop, a
   * detach), then end. Idempotent.
   */
  linger() {
    if (this.#ended || this.#lingering !== undefined) return;
    this.#lingering = this.#holds.timers.setTimeout(() => this.#endWhenAnswered(), LINGER_MS);
  }

  /** End once the requests still waiting for the person are answered (each is bounded by HOLD_CEILING_MS). */
  async #endWhenAnswered() {
    while (this.#open.size > 0) await Promise.all([...this.#open.values()].map((o) => o.settled));
    this.end();
  }

  /** Stop holding (idempotent): Fetch is disabled on every session (not awaited), listeners removed. */
  end() {
    if (this.#ended) return;
    if (this.#lingering !== undefined) this.#holds.timers.clearTimeout(this.#lingering);
    this.release("the action ended");
    this.#ended = true;
    for (const off of this.#offs) off();
    for (const [tabId, sessionId] of this.#sessions) this.#dbg.send(tabId, "Fetch.disable", {}, sessionId).catch(() => {});
    this.#holds.ended(this);
  }
}
