/**
 * How a confirmation reads an action's real effect before it runs (confirmations.js decides what follows): the
 * target, form, focused control or page its declared effect (declared-effect.js) reaches, read as a person sees it
 * (page-facts.js) and classified (classify.js).
 */

import { NODE_MISSING, callOnTarget, resolveElement } from "../targets/element-resolver.js";
import { taskTab } from "../targets/action-target.js";
import { entryOf } from "../extract/uid-map.js";
import { prepareTab } from "../tabs/tab-prep.js";
import { inWorld, onElement, topFrameId } from "../tabs/isolated-world.js";
import { keptFunction } from "../page/functions.js";
import { focusFacts, pageFacts, targetFacts } from "./page-facts.js";
import { controlOf, deepElementAt } from "../page/pointer.js";
import { classifyChoice, classifyControl, classifyPage, keyMode } from "./classify.js";
import { definePageFunction } from "../page/page-code.js";
import { provedReadOnly } from "./script-effects.js";
import { targetsOf } from "./declared-effect.js";

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("./classify.js").Finding} Finding
 * @typedef {import("./declared-effect.js").SensitiveBy} SensitiveBy
 * @typedef {import("./declared-effect.js").Effect} Effect
 */

/** @param {string} url */
export function siteOf(url) {
  try {
    return new URL(url).hostname;
  } catch {
    return "";
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
    // A script reaches controls in closed shadow roots too: inWorld hands them to the library first (closed-roots.js).
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
export async function crossSiteField(effect, action, ctx) {
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
