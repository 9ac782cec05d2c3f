/**
 * uid / selector → a CDP handle on the element, for the element-targeting
 * actions (click, type, hover, wait_for, scroll, screenshot).
 *
 * A uid names exactly the node it was issued for by extract: it resolves
 * through the in-page id registry of that node's document (page-registry.js),
 * so a node that was removed or re-rendered, or a document that navigated,
 * gives element_stale — never the element that took its place.
 */

import { CdpError } from "../tabs/debugger-controller.js";
import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { syncAllListeners } from "../extract/listeners.js";
import { SCRIPT_ROLES } from "../extract/page-controls.js";
import { NODE_MISSING, callOnNode, callPage, mainFrameId } from "../extract/run-in-page.js";
import { watchTab } from "../extract/tab-watch.js";
import { dropUid, entryOf, formerUid, uidFor } from "../extract/uid-map.js";
import { topFrameId } from "../tabs/isolated-world.js";
import { shownBy } from "../extract/framed.js";
import { frameOrigin } from "../extract/frame-origin.js";

export { clearTab } from "../extract/tab-watch.js";
export { NODE_MISSING };

const MAX_CANDIDATES = 5;
const FRAME_GONE = /No frame|No session|Frame with the given id|not found/i;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 * @typedef {import("../protocol.js").Candidate} Candidate
 * @typedef {{objectId: string, sessionId?: string, backendNodeId?: number, role?: string, name?: string, uid?: string}} Resolved
 */

/**
 * Resolve an action's target on a tab.
 * @param {ActionContext} ctx (ctx.debugger is the DebuggerController)
 * @param {number} tabId
 * @param {{uid?: string, selector?: string}} target
 * @returns {Promise<Resolved>} objectId is a Runtime.RemoteObjectId in bua's isolated world of the
 *   element's frame, valid in that frame's session (sessionId undefined = the tab's own session)
 * @throws {ActionError} element_stale (uid from an older document, node gone), element_not_found
 *   (unknown uid, selector matching nothing), both with `details.candidates`; invalid_action (bad selector)
 */
export async function resolveElement(ctx, tabId, target) {
  watchTab(ctx.debugger, tabId);
  if (typeof target.uid === "string" && target.uid) return resolveUid(ctx, tabId, target.uid);
  if (typeof target.selector === "string" && target.selector) return resolveSelector(ctx, tabId, target.selector);
  throw new ActionError(ErrorCode.INVALID_ACTION, "give 'uid' (from the last extract) or 'selector'");
}

/**
 * The fast path for the usual target, a uid of the tab's own session: run a page function on the element
 * in the same round trip as the lookup. NODE_MISSING when that does not apply (a selector, an element in
 * a cross-site frame, a stale or unknown uid): then resolveElement, which also explains a failure.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{uid?: string, selector?: string}} target
 * @param {import("../page/functions.js").KeptFunction} ref from keptFunction(); `this` is the element
 * @param {unknown[]} args JSON values
 * @param {import("../extract/run-in-page.js").Pixels} [pixels] the read it is part of (pixel-reads.js)
 * @returns {Promise<any>}
 */
export async function callOnTarget(ctx, tabId, target, ref, args, pixels = undefined) {
  const entry = typeof target.uid === "string" && target.selector === undefined ? entryOf(tabId, target.uid) : undefined;
  if (!entry || entry.sessionId !== undefined) return NODE_MISSING;
  watchTab(ctx.debugger, tabId);
  return callOnNode(ctx.debugger, { tabId, frameId: entry.frameId }, entry, ref, args, pixels);
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} uid
 * @returns {Promise<Resolved>}
 */
async function resolveUid(ctx, tabId, uid) {
  const entry = entryOf(tabId, uid);
  if (!entry) {
    const former = formerUid(tabId, uid);
    if (!former) {
      throw new ActionError(ErrorCode.ELEMENT_NOT_FOUND,
        `${uid} was never issued on tab ${tabId}; uids come from extract on this tab: call extract again`,
        { candidates: [] });
    }
    const frame = former.why === "removed" && former.frameId
      ? { tabId, sessionId: former.sessionId, frameId: former.frameId }
      : { tabId, frameId: await mainFrameId(ctx.debugger, tabId) };
    const candidates = former.role ? await liveCandidates(ctx, frame, former.role, former.name ?? "") : [];
    const why = former.why === "removed" ? "the element was removed or re-rendered since it was issued"
      : "the page has navigated since it was issued";
    throw staleError(uid, former, why, candidates, await framesOf(ctx, tabId, former.sessionId, frame.sessionId));
  }
  const frame = { tabId, sessionId: entry.sessionId, frameId: entry.frameId };
  let found;
  try {
    found = await callPage(ctx.debugger, frame, "lookup", [{ value: entry.doc }, { value: entry.id }], { returnByValue: false });
  } catch (err) {
    if (!(err instanceof CdpError) || !FRAME_GONE.test(err.cdpMessage)) throw err;
    found = { value: "frame-gone" };
  }
  if (found.objectId && found.subtype === "node") {
    return { objectId: found.objectId, sessionId: entry.sessionId, role: entry.role, name: entry.name, uid };
  }
  const navigated = found.value === "navigated" || found.value === "frame-gone";
  dropUid(tabId, uid, navigated ? "navigated" : "removed");
  const why = navigated ? "its document has navigated since it was issued"
    : "the element was removed or re-rendered since it was issued";
  const where = found.value === "frame-gone" ? { tabId, sessionId: undefined, frameId: await mainFrameId(ctx.debugger, tabId) } : frame;
  throw staleError(uid, entry, why, await liveCandidates(ctx, where, entry.role, entry.name),
    await framesOf(ctx, tabId, entry.sessionId, where.sessionId));
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} selector
 * @returns {Promise<Resolved>}
 */
async function resolveSelector(ctx, tabId, selector) {
  const frame = { tabId, frameId: await topFrameId(ctx, tabId) };
  const found = await callPage(ctx.debugger, frame, "query", [{ value: selector }], { returnByValue: false });
  if (found.objectId && found.subtype === "node") return { objectId: found.objectId };
  if (typeof found.value === "string") {
    throw new ActionError(ErrorCode.INVALID_ACTION, `selector ${JSON.stringify(selector)} is not valid CSS (${found.value}); fix it or use a uid from extract`);
  }
  const inChild = await querySelectorInChildFrames(ctx, tabId, selector);
  if (inChild) return inChild;
  throw new ActionError(ErrorCode.ELEMENT_NOT_FOUND,
    `no element matches selector ${JSON.stringify(selector)} (searched the page, its shadow roots, same-origin and ` +
      "cross-site frames); check the selector, or call extract and use a uid", { candidates: [] });
}

/**
 * The same query in each cross-site iframe (its own CDP session), in the order Chrome attached them.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} selector
 * @returns {Promise<Resolved | null>}
 */
async function querySelectorInChildFrames(ctx, tabId, selector) {
  await ctx.debugger.enableChildTargets(tabId);
  for (const child of ctx.debugger.childTargets(tabId)) {
    try {
      const frame = { tabId, sessionId: child.sessionId, frameId: await mainFrameId(ctx.debugger, tabId, child.sessionId) };
      const found = await callPage(ctx.debugger, frame, "query", [{ value: selector }], { returnByValue: false });
      if (found.objectId && found.subtype === "node") return { objectId: found.objectId, sessionId: child.sessionId };
    } catch (err) {
      if (!(err instanceof CdpError) || !FRAME_GONE.test(err.cdpMessage)) throw err;
    }
  }
  return null;
}

/**
 * @param {string} uid
 * @param {{role: string | null, name: string | null}} was
 * @param {string} why
 * @param {Candidate[]} candidates
 * @param {{was?: string, found?: string}} frames the origins of the frames of other origins that showed the stale
 *   element and that the candidates stand in (frame-origin.js): what the error quotes of them is their sites'
 */
function staleError(uid, was, why, candidates, frames) {
  const what = was.role ? `${uid} (${was.role} ${JSON.stringify(was.name)})` : uid;
  const hint = candidates.length
    ? `; current elements with the same role and name: ${candidates.map(formatCandidate).join("; ")} — use one of them if it is the one you meant, otherwise call extract again`
    : "; call extract again to get current uids";
  const named = was.role ? JSON.stringify(was.name) : "";
  const framed = [...shownBy(frames.was, [named]).frames ?? [], ...shownBy(frames.found,
    candidates.flatMap((c) => [formatCandidate(c), c.name, c.context ?? ""])).frames ?? []];
  return new ActionError(ErrorCode.ELEMENT_STALE, `${what} is stale: ${why}${hint}`,
    { candidates, ...quoting(named, ...candidates.map(formatCandidate)), ...(framed.length ? { frames: framed } : {}) });
}

/**
 * The origins of the frames of other origins that a stale uid's element stood in and its candidates stand in.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string | undefined} wasSession
 * @param {string | undefined} foundSession
 */
async function framesOf(ctx, tabId, wasSession, foundSession) {
  return { was: await frameOrigin(ctx, tabId, wasSession), found: await frameOrigin(ctx, tabId, foundSession) };
}

/** @param {Candidate} c */
function formatCandidate(c) {
  return `${c.uid} ${c.role} ${JSON.stringify(c.name)}${c.context ? ` (${c.context})` : ""}`;
}

/**
 * Up to 5 current elements of the frame with this role and name, with uids
 * (issued now if extract has not seen them yet, e.g. after a re-render).
 * @param {ActionContext} ctx
 * @param {import("../extract/run-in-page.js").Frame} frame
 * @param {string} role
 * @param {string} name
 * @returns {Promise<Candidate[]>}
 */
async function liveCandidates(ctx, frame, role, name) {
  let res;
  try {
    // A script control is told by its listeners, as extract told it (page-controls.js).
    if (SCRIPT_ROLES.includes(role)) await syncAllListeners(ctx.debugger, frame);
    res = await callPage(ctx.debugger, frame, "findLike", [{ value: role }, { value: name }, { value: MAX_CANDIDATES }]);
  } catch {
    return [];
  }
  const { doc, found } = res.value;
  return found.map((/** @type {{id: number, role: string, name: string, context: string}} */ f) => {
    const uid = uidFor(frame.tabId, { sessionId: frame.sessionId, frameId: frame.frameId, doc, ...f });
    return { uid, role: f.role, name: f.name, ...(f.context ? { context: f.context } : {}) };
  });
}
