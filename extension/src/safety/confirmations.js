/**
 * The person confirms sensitive actions: before a `may_be_sensitive` action reaches the page, its real target
 * is read (page-facts.js) and classified (classify.js). A sensitive one is answered with `confirmation_required`
 * and details {what, site, url, element, reason, category, token}, and nothing is sent to the page.
 *
 * The app asks the person (app/safety/) and, on Allow, sends the same request again with `approval: token` in
 * the ENVELOPE — never in the action, whose fields the model writes: the model can never confirm for itself.
 * A token is a random nonce issued for one request of one task: it approves only an action identical to the one
 * it was issued for (same task, same fields), once, within TOKEN_TTL_MS; a replay or another action with it
 * is classified anew.
 *
 * A paste chord (declared keys that paste) hands back what the clipboard holds at paste time (`pasted`), whoever
 * put it there (bua's copy chord, the page's own Copy button, the person): the app judges it as text typed at its
 * destination against its data-flow memory (app/safety/guard.py), then sends the action again with the token or
 * asks first. A hand-back that needs no person (`check_only`: a paste, a field in another site's frame) is the
 * app's to decide.
 *
 * A redeemed token whose finding was an executable download (category "download") also lets the task download
 * one executable right after (tabs/executable-guard.js), which is otherwise stopped.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { DOWNLOAD_CATEGORY } from "./classify.js";
import { classifyEffect, crossSiteField, siteOf } from "./effect-readers.js";
import { shownAt } from "../extract/framed.js";
import { effectOf } from "./declared-effect.js";
import { isMac } from "../input/keyboard.js";
import { parseKeyCombo, pastesClipboard } from "../input/keys.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("./classify.js").Finding} Finding
 * @typedef {import("./declared-effect.js").SensitiveBy} SensitiveBy how an action's effect is read
 *   (app/protocol/actions/spec.py `SensitiveBy`)
 * @typedef {import("./declared-effect.js").Effect} Effect
 * @typedef {import("./declared-effect.js").Declarations} Declarations
 */

export const TOKEN_TTL_MS = 15 * 60 * 1000;
const MAX_TOKENS = 200;
/** How many check durations are kept for timings() (the safety bench reads them). */
const MAX_TIMINGS = 1000;

/**
 * A canonical text of an action (keys sorted at every level), what a token is bound to.
 * @param {unknown} value
 * @returns {string}
 */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(/** @type {any} */ (value)[k])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** @param {string} key */
function pastes(key) {
  try {
    return pastesClipboard(parseKeyCombo(key, { mac: isMac() }));
  } catch {
    return false;
  }
}

export class Confirmations {
  /** @type {Map<string, {taskId: string, action: string, expires: number, category: string}>} */
  #tokens = new Map();
  #now;
  #random;
  #downloads;
  #actions;
  #clipboard;
  /** @type {number[]} how long each check that read the page took, ms (newest last) */
  #timings = [];

  /**
   * @param {{now?: () => number, random?: (bytes: Uint8Array) => Uint8Array,
   *   downloads?: {approveExecutable: (taskId: string) => void}, actions?: Declarations,
   *   clipboard?: () => Promise<string>}} [deps] `downloads`: tabs/downloads.js; `actions`: the action
   *   declarations (the generated ones; a test adds a throwaway one); `clipboard`: what the clipboard holds now
   *   (clipboard/clipboard-reader.js)
   */
  constructor({ now = Date.now, random = (b) => crypto.getRandomValues(b), downloads, actions, clipboard } = {}) {
    this.#actions = actions;
    this.#clipboard = clipboard;
    this.#now = now;
    this.#random = random;
    this.#downloads = downloads;
  }

  /**
   * How long the last checks took (ms, at most MAX_TIMINGS, oldest first): what the checks add to an action, read
   * by bench/safety_bench.py from the service worker (background.js exposes it). Nothing turns the checks off.
   * @returns {number[]}
   */
  timings() {
    return [...this.#timings];
  }

  /**
   * Throws `confirmation_required` when the action is sensitive and `approval` does not approve exactly it.
   * @param {string} type
   * @param {Record<string, unknown>} action the action as the app sent it (what a token is bound to)
   * @param {Record<string, unknown>} run the action as it will run (tab_id filled in)
   * @param {ActionContext} ctx
   * @param {unknown} approval the envelope's `approval`
   * @returns {Promise<void>}
   */
  async check(type, action, run, ctx, approval) {
    const effect = effectOf(type, run, this.#actions);
    if (!effect) return;
    if (typeof approval === "string" && this.redeem(approval, ctx.taskId, action)) return;
    const started = performance.now();
    const classified = await classifyEffect(effect, run, ctx);
    const found = classified?.finding ? classified : null;
    const frameUrl = classified?.frameUrl ?? await crossSiteField(effect, run, ctx);
    const pasted = await this.#pasted(effect);
    this.#timings.push(performance.now() - started);
    if (this.#timings.length > MAX_TIMINGS) this.#timings.shift();
    if (!found && !frameUrl && !pasted) return;
    const token = this.issue(ctx.taskId, action, found?.finding?.category ?? (frameUrl ? "frame_destination" : "clipboard"));
    const frame = { ...(frameUrl ? { frame_url: frameUrl } : {}), ...(pasted ? { pasted } : {}) };
    if (!found && frameUrl) {
      // Not sensitive, but typed into another site's frame: the app checks its data-flow memory against that site
      // (it only knows the tab's page) and sends the action again with the token, or asks the person first.
      throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED, `this ${type} goes into a frame of ${siteOf(frameUrl)}; `
        + "bua checks what it carries there", { confirmation: {
        what: type, site: siteOf(frameUrl), url: frameUrl, element: "a field in a frame", reason: "", category: "frame_destination",
        check_only: true, token, ...frame } });
    }
    if (!found) {
      // Not sensitive, but it pastes: the app checks what the clipboard holds against where it lands.
      throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED, `this ${type} pastes the clipboard; bua checks what it holds`,
        { confirmation: { what: type, site: "", url: "", element: "the clipboard", reason: "", category: "clipboard",
          check_only: true, token, ...frame } });
    }
    const finding = /** @type {Finding} */ (found.finding);
    const site = siteOf(found.url);
    // The control's facts are read in its own document: one in a frame of another origin is quoted as that frame's.
    const tab = typeof run.tab_id === "number" ? await ctx.tabs.get(run.tab_id).catch(() => null) : null;
    const framed = shownAt(found.url, tab?.url ?? "", [finding.element, finding.reason]);
    throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED,
      `the person must confirm this ${type} on ${site || "this page"} first (${finding.element}: ${finding.reason}); `
      + "bua asked them", { confirmation: {
        what: type, site, url: found.url, element: finding.element, reason: finding.reason,
        category: finding.category, token, ...frame, ...(found.findings ? { findings: found.findings } : {}) }, ...framed });
  }

  /**
   * What a paste chord among the action's declared keys would type: the clipboard's text now ("" for no paste).
   * @param {Effect} effect
   * @returns {Promise<string>}
   */
  async #pasted(effect) {
    if (!this.#clipboard || !effect.keys.some((key) => pastes(key))) return "";
    return this.#clipboard().catch(() => "");
  }

  /**
   * @param {string} taskId
   * @param {Record<string, unknown>} action
   * @param {string} [category] what the finding was (classify.js)
   * @returns {string}
   */
  issue(taskId, action, category = "") {
    const now = this.#now();
    for (const [key, entry] of this.#tokens) if (entry.expires <= now) this.#tokens.delete(key);
    while (this.#tokens.size >= MAX_TOKENS) this.#tokens.delete(/** @type {string} */ (this.#tokens.keys().next().value));
    const token = Array.from(this.#random(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    this.#tokens.set(token, { taskId, action: canonical(action), expires: now + TOKEN_TTL_MS, category });
    return token;
  }

  /**
   * @param {string} token
   * @param {string} taskId
   * @param {Record<string, unknown>} action
   */
  redeem(token, taskId, action) {
    const entry = this.#tokens.get(token);
    if (!entry) return false;
    this.#tokens.delete(token);
    const approved = entry.taskId === taskId && entry.action === canonical(action) && entry.expires > this.#now();
    if (approved && entry.category === DOWNLOAD_CATEGORY) this.#downloads?.approveExecutable(taskId);
    return approved;
  }
}
