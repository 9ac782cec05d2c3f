/**
 * One action's window on its tab's hold (network-hold.js has the whole design): the requests that paused while the
 * action acted, so that its result says what was held and a Deny makes it answer `confirmation_required`. The
 * tab's requests are held whether an action acts or not (network-tab-hold.js); what an action adds is this
 * report, and the approval its request came with.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { carriesData } from "./network-url-data.js";

/**
 * How long after an action answered a request the page sends is still counted as that action's (its name and its
 * approval go with the question): a page that sends a moment after the click (a `setTimeout(…, 1500)` POST, a
 * debounced save) is asked about as the click's, and a control the person approved by its label is not asked
 * about again for the request it makes a moment later. Later requests are the page's own: held and judged all
 * the same (network-tab-hold.js), asked about as the page's.
 */
export const LINGER_MS = 3000;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {"allow" | "deny" | "stopped" | "let_go"} HoldDecision `stopped`: failed before the person answered;
 *   `let_go`: Chromium continued it unanswered when the tab's debugger detached
 * @typedef {{method: string, url: string, why: string[], decision: HoldDecision}} HeldRequest what a result
 *   reports of a request the person was asked about (or that was failed while waiting)
 * @typedef {{decision: "allow" | "deny", asked?: boolean, why?: string[], stopped?: boolean, letGo?: boolean}} AppAnswer
 *   `stopped`: it went before an answer came (failed, or with `letGo` continued by Chromium)
 * @typedef {{method: string, url: string, tab_id: number, decision: HoldDecision, why: string}} UnansweredRequest a
 *   request that waited for the person and went without an answer after its action had answered
 * @typedef {{settled: Promise<boolean>, record: HeldRequest, release: (reason: string, letGo?: boolean) => void}} OpenRequest
 *   `settled`: whether the result should report it (the person was asked, or it was failed)
 */

/**
 * A read (GET) to another host than the page's whose URL can carry data (a query, or a path, userinfo or host label
 * that can hold what the data-flow memory holds: network-url-data.js): the app checks its memory (a read to the
 * page's own host, or one that can carry nothing, continues with no round trip). A page not known yet has no host
 * of its own (hostOf).
 * @param {string} url
 * @param {string} pageUrl
 */
export function carriesAway(url, pageUrl) {
  try {
    const to = new URL(url);
    return to.hostname !== hostOf(pageUrl) && carriesData(to.href);
  } catch {
    return false;
  }
}

/**
 * A page's host; "" when it is not known yet (a new tab the session store has not seen load): then no read is the
 * page's own, and each that can carry data is checked.
 * @param {string} pageUrl
 */
function hostOf(pageUrl) {
  try {
    return new URL(pageUrl).hostname;
  } catch {
    return "";
  }
}

/**
 * Where a result says what the action's effects were: its `effects`, or the result itself.
 * @param {object} result
 * @returns {Record<string, any>}
 */
function effectsOf(result) {
  const r = /** @type {Record<string, any>} */ (result);
  return r.effects && typeof r.effects === "object" ? r.effects : r;
}

/**
 * Fold into a result what the task's held requests became since its last one: new tabs' requests the session rules
 * failed (`unsent_requests`), and requests that went without the person's answer (`unanswered_requests`).
 * @param {unknown} result
 * @param {{method: string, url: string, tab_id: number, why: string}[]} unsent
 * @param {UnansweredRequest[]} unanswered
 * @returns {unknown} the result
 */
export function foldUnreported(result, unsent, unanswered) {
  if (!result || typeof result !== "object") return result;
  const into = effectsOf(result);
  if (unsent.length > 0) into.unsent_requests = unsent;
  if (unanswered.length > 0) into.unanswered_requests = unanswered;
  return result;
}

/** One action on a held tab: what paused while it acted, folded into its result. */
export class ActionWindow {
  #ctx;
  #action;
  #approved;
  #onDone;
  /** @type {Set<OpenRequest>} requests that paused during the action and still wait for an answer */
  #open = new Set();
  /** @type {HeldRequest[]} */
  #held = [];
  /** @type {(() => void) | undefined} */
  #offAbort;
  #acting = true;
  /** @type {() => {url?: string, why: string[]}[]} the WebSocket messages reported during the action */
  #takeSockets;
  /** @type {() => {method: string, url: string, tab_id: number, why: string}[]} */
  #takeUnsent;
  /** @type {() => UnansweredRequest[]} */
  #takeUnanswered;

  /**
   * @param {ActionContext} ctx
   * @param {string} action the action's type
   * @param {boolean} approved the request came with an approval token (app/safety/network_holds.py decides)
   * @param {{takeSockets: () => {url?: string, why: string[]}[], onDone: (window: ActionWindow) => void,
   *   takeUnsent?: () => {method: string, url: string, tab_id: number, why: string}[],
   *   takeUnanswered?: () => UnansweredRequest[]}} tab `takeUnsent`: the requests of the task's new tabs failed
   *   before their hold was on (network-new-tabs.js); `takeUnanswered`: the task's requests that went without an
   *   answer since its last result
   */
  constructor(ctx, action, approved, { takeSockets, onDone, takeUnsent = () => [], takeUnanswered = () => [] }) {
    this.#ctx = ctx;
    this.#action = action;
    this.#approved = approved;
    this.#takeSockets = takeSockets;
    this.#takeUnsent = takeUnsent;
    this.#takeUnanswered = takeUnanswered;
    this.#onDone = onDone;
    const signal = ctx.signal;
    if (signal) {
      const onAbort = () => this.release(String(signal.reason ?? "stopped"));
      signal.addEventListener("abort", onAbort);
      this.#offAbort = () => signal.removeEventListener("abort", onAbort);
    }
  }

  /** The task, request and action a question is asked for. */
  get about() {
    return { task_id: this.#ctx.taskId, request_id: String(this.#ctx.requestId), action: this.#action, approved: this.#approved };
  }

  /** Whether the action still acts (has not answered). */
  get acting() {
    return this.#acting;
  }

  /**
   * A request that paused while the action acted and waits for the app: the action's result waits for it.
   * @param {OpenRequest} open
   */
  track(open) {
    this.#open.add(open);
    open.settled.then((reported) => {
      if (this.#open.delete(open) && this.#acting && reported) this.#held.push(open.record);
    });
  }

  /**
   * Fail what this action's requests still wait for (Stop, cancellation, the app's timeout).
   * @param {string} reason
   */
  release(reason) {
    for (const open of [...this.#open]) open.release(reason);
  }

  /**
   * After the handler: wait for the answers still pending and fold what was held into the result.
   * A denied request makes the action answer `confirmation_required`.
   * @param {unknown} result the handler's result
   */
  async settle(result) {
    while (this.#open.size > 0) await Promise.all([...this.#open].map((o) => o.settled));
    const held = this.#held.splice(0);
    const sent = this.#takeSockets();
    const unsent = this.#takeUnsent();
    const unanswered = this.#takeUnanswered();
    if (sent.length > 0 && result && typeof result === "object") effectsOf(result).websocket_sent = sent;
    foldUnreported(result, unsent, unanswered);
    if (held.length === 0) return result;
    const refused = held.filter((h) => h.decision !== "allow");
    if (refused.length > 0) {
      const first = refused[0];
      const said = first.decision === "let_go" ? "went before the person answered" :
        first.decision === "stopped" ? "was stopped before the person answered" : "was not approved";
      const left = first.decision === "let_go" ? "" : ", so it never left the browser";
      throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED,
        `the ${this.#action} was done, but the ${first.method} request it made to ${first.url} ${said} ` +
        `(${first.why.join("; ") || "held"})${left}; the page may show an error: extract to see it`,
        { confirmation: { what: this.#action, kind: "network", url: first.url, reason: first.why.join("; "),
          held_requests: held, ...(unsent.length > 0 ? { unsent_requests: unsent } : {}),
          ...(unanswered.length > 0 ? { unanswered_requests: unanswered } : {}) } });
    }
    if (result && typeof result === "object") {
      const r = /** @type {Record<string, any>} */ (result);
      if (r.effects && typeof r.effects === "object") r.effects.held_requests = held;
      else r.held_requests = held;
    }
    return result;
  }

  /**
   * The action answered: its window closes (idempotent); its tab's hold goes on, counting what the page sends in
   * the next LINGER_MS as this action's (network-tab-hold.js).
   */
  linger() {
    if (!this.#acting) return;
    this.#acting = false;
    this.#offAbort?.();
    this.#onDone(this);
  }
}
