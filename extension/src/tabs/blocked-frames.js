/**
 * Frames of blocked sites inside a session tab (a cross-site iframe of a site on the person's blocklist) are never
 * read: extract shows each as "[blocked frame: site]" instead of its content, and screenshot hides them (the
 * <iframe> element is made invisible in its parent for the capture, then restored). A blocked frame that cannot be
 * hidden (its <iframe> lives in another process, e.g. a blocked frame inside a cross-site frame) makes the
 * screenshot answer `blocked`: no image is taken rather than one that may show it.
 *
 * The URL checked is the frame's committed URL at the time of the read (Page.getFrameTree / the child target's
 * current URL), so a frame redirected to a blocked site is caught too.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { blockedBy } from "../sessions/blocklist.js";

/**
 * @typedef {import("./debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("../sessions/blocklist.js").Blocklist} Blocklist
 * @typedef {{id: string, url: string, pattern: string}} BlockedFrame
 */

/** @param {string} url */
export function siteOf(url) {
  try {
    return new URL(url).hostname || url;
  } catch {
    return url;
  }
}

/** @param {string} url @returns {{note: string}} the block extract shows instead of the frame */
export const blockedNote = (url) => ({ note: `blocked frame: ${siteOf(url)}` });

/**
 * The blocked frames of one session's frame tree: every blocked frame when `direct` is false, else only the main
 * frame's own children (their <iframe> elements are in the session's main document).
 * @param {DebuggerController} dbg
 * @param {number} tabId
 * @param {readonly string[]} patterns
 * @param {{sessionId?: string, direct?: boolean}} [opts]
 * @returns {Promise<BlockedFrame[]>}
 */
export async function blockedFrames(dbg, tabId, patterns, { sessionId, direct = false } = {}) {
  if (!patterns.length) return [];
  const { frameTree } = await dbg.send(tabId, "Page.getFrameTree", {}, sessionId);
  /** @type {BlockedFrame[]} */
  const found = [];
  /** @param {any[] | undefined} children */
  const visit = (children) => {
    for (const child of children ?? []) {
      const pattern = blockedBy(patterns, child.frame.url ?? "");
      if (pattern) found.push({ id: child.frame.id, url: child.frame.url, pattern });
      else if (!direct) visit(child.childFrames);
    }
  };
  visit(frameTree.childFrames);
  return found;
}

/**
 * The <iframe> elements of a session's blocked child frames, resolved in the given execution context, each with
 * the key extract's walker leaves as its placeholder ("blocked:<url>").
 * @param {DebuggerController} dbg
 * @param {{tabId: number, sessionId?: string}} frame
 * @param {Blocklist | undefined} blocklist
 * @param {() => Promise<number>} executionContextId
 * @returns {Promise<{sessionId: string, objectId: string}[]>}
 */
export async function blockedOwners(dbg, frame, blocklist, executionContextId) {
  const patterns = (await blocklist?.patterns()) ?? [];
  const frames = await blockedFrames(dbg, frame.tabId, patterns, { sessionId: frame.sessionId, direct: true });
  if (!frames.length) return [];
  const contextId = await executionContextId();
  const owners = await Promise.all(frames.map(async (f) => {
    try {
      const { backendNodeId } = await dbg.send(frame.tabId, "DOM.getFrameOwner", { frameId: f.id }, frame.sessionId);
      const { object } = await dbg.send(frame.tabId, "DOM.resolveNode", { backendNodeId, executionContextId: contextId },
        frame.sessionId);
      return object?.objectId ? { sessionId: `blocked:${f.url}`, objectId: object.objectId } : null;
    } catch {
      return null;
    }
  }));
  return /** @type {{sessionId: string, objectId: string}[]} */ (owners.filter(Boolean));
}

/** Hides an <iframe> (kept in layout) and returns how to put its own style back. */
const HIDE = `function () {
  const was = ["visibility", "opacity"].map((p) => [p, this.style.getPropertyValue(p), this.style.getPropertyPriority(p)]);
  this.style.setProperty("visibility", "hidden", "important");
  this.style.setProperty("opacity", "0", "important");
  return JSON.stringify(was);
}`;
const RESTORE = `function (was) {
  for (const [p, value, priority] of JSON.parse(was)) {
    if (value) this.style.setProperty(p, value, priority); else this.style.removeProperty(p);
  }
}`;

/**
 * Hide the tab's blocked frames for a capture: same-process frames (the tab's frame tree) and cross-site frames
 * (child targets: out-of-process iframes, hidden through the session that holds their <iframe>). Resolves to the
 * function that shows them again.
 * @param {{debugger: DebuggerController, blocklist?: Blocklist}} ctx
 * @param {number} tabId
 * @returns {Promise<() => Promise<void>>}
 * @throws {ActionError} blocked, when a blocked frame cannot be hidden
 */
export async function hideBlockedFrames(ctx, tabId) {
  const patterns = (await ctx.blocklist?.patterns()) ?? [];
  if (!patterns.length) return async () => {};
  const dbg = ctx.debugger;
  try {
    await dbg.enableChildTargets(tabId);
  } catch {
    // Chrome older than 125: no child sessions; cross-site frames are then not reachable (nor listed).
  }
  /** @type {{id: string, url: string, pattern: string, sessionId?: string}[]} */
  const frames = await blockedFrames(dbg, tabId, patterns);
  for (const child of dbg.childTargets(tabId).filter((c) => c.type === "iframe")) {
    const pattern = blockedBy(patterns, child.url);
    if (pattern) frames.push({ id: child.targetId, url: child.url, pattern, sessionId: child.parentSessionId });
    else {
      const inside = await blockedFrames(dbg, tabId, patterns, { sessionId: child.sessionId }).catch(() => []);
      frames.push(...inside.map((f) => ({ ...f, sessionId: child.sessionId })));
    }
  }
  /** @type {(() => Promise<unknown>)[]} */
  const restores = [];
  const showAgain = async () => {
    for (const restore of restores.splice(0)) await restore().catch(() => {});
  };
  for (const f of frames) {
    try {
      const { backendNodeId } = await dbg.send(tabId, "DOM.getFrameOwner", { frameId: f.id }, f.sessionId);
      const { object } = await dbg.send(tabId, "DOM.resolveNode", { backendNodeId }, f.sessionId);
      const hidden = await dbg.send(tabId, "Runtime.callFunctionOn", {
        objectId: object.objectId, functionDeclaration: HIDE, returnByValue: true }, f.sessionId);
      restores.push(() => dbg.send(tabId, "Runtime.callFunctionOn", {
        objectId: object.objectId, functionDeclaration: RESTORE, arguments: [{ value: hidden.result.value }] },
      f.sessionId));
    } catch {
      await showAgain();
      throw new ActionError(ErrorCode.BLOCKED, `the page shows a frame of ${siteOf(f.url)}, which is on the person's `
        + `blocklist (${f.pattern}), and it could not be hidden: no screenshot was taken; use extract (it leaves `
        + "that frame out) or report it");
    }
  }
  return showAgain;
}
