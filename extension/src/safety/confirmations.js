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
import { NODE_MISSING, callOnTarget, resolveElement } from "../targets/element-resolver.js";
import { taskTab } from "../targets/action-target.js";
import { entryOf } from "../extract/uid-map.js";
import { prepareTab } from "../tabs/tab-prep.js";
import { inWorld, onElement, topFrameId } from "../tabs/isolated-world.js";
import { keptFunction } from "../page/functions.js";
import { focusFacts, pageFacts, targetFacts } from "./page-facts.js";
import { revealClosedRoots } from "../extract/collect.js";
import { controlOf, deepElementAt } from "../page/pointer.js";
import { DOWNLOAD_CATEGORY, classifyChoice, classifyControl, classifyPage, keyMode } from "./classify.js";
import { definePageFunction } from "../page/page-code.js";
import { provedReadOnly } from "./script-effects.js";
import { effectOf, targetsOf } from "./declared-effect.js";
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

/** @param {string} url */
function siteOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
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
    throw new ActionError(ErrorCode.CONFIRMATION_REQUIRED,
      `the person must confirm this ${type} on ${site || "this page"} first (${finding.element}: ${finding.reason}); `
      + "bua asked them", { confirmation: {
        what: type, site, url: found.url, element: finding.element, reason: finding.reason,
        category: finding.category, token, ...frame, ...(found.findings ? { findings: found.findings } : {}) } });
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

/**
 * @typedef {{url: string, finding: Finding | null, findings?: string[], frameUrl?: string} | null} Classified
 * Null when the action is not sensitive; `finding: null` with `frameUrl` when it is not sensitive but a key goes
 * into a focused frame of another site; `findings`: for a script, every sensitive control of the page (up to 20).
 */

/**
 * Does the declared effect need its page read at all? Typing without submit only writes text, except into a
 * <select>, where it chooses an option: its target is read when it may be a select (a uid or selector; the facts
 * call is what tells). Form fields without submit only write text (a fill submits its last field's form).
 * @param {Effect} effect
 * @param {Record<string, unknown>} action
 */
export function needsRead(effect, action) {
  if (effect.by === "typing") return effect.submits || action.uid !== undefined || action.selector !== undefined;
  if (effect.by === "fields") return effect.submits && (effect.forms.at(-1)?.length ?? 0) > 0;
  return true;
}

/**
 * Read the real target and classify it, the way the action's declaration says (`sensitive_by`, its carriers).
 * @param {Effect} effect effectOf(type, action)
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<Classified>}
 */
export async function classifyEffect(effect, action, ctx) {
  if (!needsRead(effect, action)) return null;
  const tabId = await taskTab(action, ctx);
  await prepareTab(ctx, tabId);
  return READERS[effect.by](action, effect, ctx, tabId);
}

/** @type {Record<SensitiveBy, (action: Record<string, any>, effect: Effect, ctx: ActionContext, tabId: number) => Promise<Classified>>} */
const READERS = {
  async script(action, effect, ctx, tabId) {
    // A script the engine proves free of side effects only reads: nothing to confirm (script-effects.js).
    if (await provedReadOnly(ctx, tabId, effect.scripts)) return null;
    // A script reaches controls in closed shadow roots too: find them the way extract does first.
    await revealClosedRoots(ctx.debugger, { tabId, frameId: await topFrameId(ctx, tabId) });
    const page = await inWorld(ctx, tabId, pageFacts);
    const findings = classifyPage(page, 20);
    if (findings.length === 0) return null;
    const more = findings.length > 1 ? ` (and ${findings.length - 1} more)` : "";
    return { url: page.url, finding: { category: findings[0].category,
      reason: `the page holds ${findings[0].element}: ${findings[0].reason}${more}; a script can reach it`,
      element: "a script in the page" }, findings: findings.map((f) => `${f.element}: ${f.reason}`) };
  },
  async key(action, effect, ctx, tabId) {
    const { facts, finding } = await seenIfSensitive((seen) => inWorld(ctx, tabId, focusFacts, [seen]),
      (control) => {
        const mode = keyMode(effect.keys[0] ?? "", control);
        return mode ? classifyControl(control, mode) : null;
      });
    if (finding) return { url: facts.url, finding };
    // A key into a focused frame of another site: that site is where a typed character goes (the frame's src).
    const src = facts.control?.frame ? facts.control.href : "";
    return src && siteOf(src) && siteOf(src) !== siteOf(facts.url) ? { url: facts.url, finding: null, frameUrl: src } : null;
  },
  async fields(action, effect, ctx, tabId) {
    // The form submitted is the last field's; every value typed counts (a card number typed anywhere asks).
    const field = effect.forms.at(-1)?.at(-1) ?? {};
    const { facts, finding } = await seenIfSensitive((seen) => factsOf(ctx, tabId, { uid: field.uid, selector: field.selector }, seen),
      (control) => classifyControl(control, "submit", effect.typed));
    return finding ? { url: facts.url, finding } : null;
  },
  async typing(action, effect, ctx, tabId) {
    if (effect.submits) return classifyTargets(action, ctx, tabId, "submit", effect.typed);
    // A uid extract listed as a text field (not a combobox or listbox) is no select: no page call for it.
    const role = action.uid !== undefined ? entryOf(tabId, String(action.uid))?.role : undefined;
    if (role && role !== "combobox" && role !== "listbox") return null;
    const { facts, finding } = await seenIfSensitive((seen) => factsOf(ctx, tabId, { uid: action.uid, selector: action.selector }, seen),
      (control) => choiceFinding(control, effect.typed));
    return finding ? { url: facts.url, finding } : null;
  },
  pointer: (action, effect, ctx, tabId) => classifyTargets(action, ctx, tabId, "click"),
};

/**
 * The first option the typed text chooses that is sensitive (`type` into a <select> chooses by label).
 * @param {any} control
 * @param {string[]} typed
 */
function choiceFinding(control, typed) {
  for (const option of typed.length ? typed : [""]) {
    const finding = classifyChoice(control, option);
    if (finding) return finding;
  }
  return null;
}

/**
 * The target (uid, selector or a point of the viewport) and, for a drag, where it drops: either can delete or pay
 * (a drop target reads as a destination: dropping onto "Trash" deletes).
 * @param {Record<string, any>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {"click" | "submit"} mode
 * @param {readonly unknown[]} [typed] what the action types
 * @returns {Promise<Classified>}
 */
async function classifyTargets(action, ctx, tabId, mode, typed = []) {
  for (const [target, which] of targetsOf(action)) {
    const as = which === "drop" ? "drop" : mode;
    const { facts, finding } = await seenIfSensitive((seen) => factsOf(ctx, tabId, /** @type {any} */ (target), seen),
      (control) => classifyControl(control, as, typed));
    if (finding) return { url: facts.url, finding };
  }
  return null;
}

/**
 * Read a target without the visibility judgement (its costliest part), and only when its facts make the action
 * sensitive read it again with what a person sees of it (`shown`), the only label the confirmation may quote: an
 * ordinary action pays one light page call, a sensitive one (which then waits for the person) two. The finding is
 * the first read's; a page that changed in between cannot make it go away, only change the quote.
 * @param {(seen: boolean) => Promise<any>} read the target's facts (TargetFacts or null)
 * @param {(control: any) => import("./classify.js").Finding | null} classify
 * @returns {Promise<{facts: any, finding: import("./classify.js").Finding | null}>}
 */
async function seenIfSensitive(read, classify) {
  const facts = await read(false);
  const finding = classify(facts?.control ?? null);
  if (!finding || !facts?.control) return { facts, finding };
  const again = await read(true).catch(() => null);
  facts.control.shown = typeof again?.control?.shown === "string" ? again.control.shown : "";
  return { facts, finding: classify(facts.control) ?? finding };
}

/**
 * The URL of the frame a typing or fields action (`type`, `fill`) writes into, when that is a cross-site frame (the element lives in
 * another renderer process: its own CDP session); null for the tab's own page and its same-site frames. A uid of
 * the tab's own session costs no page call here; a selector costs its lookup.
 * @param {Effect} effect
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @returns {Promise<string | null>}
 */
async function crossSiteField(effect, action, ctx) {
  if (effect.by !== "typing" && effect.by !== "fields") return null;
  const targets = /** @type {{uid?: unknown, selector?: unknown}[]} */ (effect.by === "typing" ? [action] : effect.forms.flat());
  const tabId = await taskTab(action, ctx);
  for (const { uid, selector } of targets) {
    let element = null;
    if (typeof uid === "string") {
      if (entryOf(tabId, uid)?.sessionId === undefined) continue;
      element = await resolveElement(ctx, tabId, { uid });
    } else if (typeof selector === "string") {
      // A selector is looked up in the page first, then in cross-site frames: only the lookup tells where it is.
      element = await resolveElement(ctx, tabId, { selector }).catch(() => null);
    }
    if (element?.sessionId === undefined) continue;
    const facts = await onElement(ctx, tabId, element, targetFacts);
    if (facts?.url) return facts.url;
  }
  return null;
}

/**
 * What page-facts.js reads about one target: an element (uid or selector), or the control at a point.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{uid?: string, selector?: string, point?: {x: number, y: number}}} target
 * @param {boolean} [seen] with what a person sees of the control (page-facts.js controlFacts)
 */
async function factsOf(ctx, tabId, target, seen = true) {
  if (target.point) return inWorld(ctx, tabId, factsAtPoint, [target.point.x, target.point.y, seen]);
  if (target.uid === undefined && target.selector === undefined) return null;
  const facts = await callOnTarget(ctx, tabId, target, keptFunction(targetFacts), [seen]);
  if (facts !== NODE_MISSING) return facts;
  const element = await resolveElement(ctx, tabId, target.uid !== undefined ? { uid: target.uid } : { selector: target.selector });
  return onElement(ctx, tabId, element, targetFacts, [seen]);
}

/**
 * In the page: targetFacts of the control at a point of the viewport (or of what is there, when no control).
 * @param {number} x
 * @param {number} y
 * @param {boolean} [seen]
 */
function factsAtPoint(x, y, seen = true) {
  const hit = deepElementAt(document, x, y);
  return hit ? targetFacts.call(controlOf(hit) || hit, seen) : null;
}
definePageFunction(factsAtPoint, { uses: [deepElementAt, targetFacts, controlOf] });
