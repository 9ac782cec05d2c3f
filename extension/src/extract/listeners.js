/**
 * Which elements of a frame have input listeners, told to the in-page
 * library (page-clickable.js) before each walk.
 *
 * bua's isolated world cannot see the page's listeners (getEventListeners
 * of the command-line API reports only the calling world's; patching
 * addEventListener there sees nothing of the page). DOMDebugger.getEventListeners
 * on the document with depth -1 and pierce walks the whole tree (shadow roots
 * included) natively and reports every world's listeners with their node's
 * backendNodeId in one call: ~3 ms for the 37,000 nodes of the 10,000-element
 * bench page, ~30 ms when 2,900 of them listen (measured on Chromium 156 with
 * Playwright's CDP client; ~110 ms through chrome.debugger). Only the ids the library has not
 * mapped yet are resolved (DOM.resolveNode, ~0.17 ms each when pipelined), so a
 * document pays for a listened element once, and only as far as a walk gets: a
 * budget-cut extract of a long page reads its first part, so nodes are mapped
 * a chunk at a time (FIRST_CHUNK, then doubling) while the walk says it passed
 * the last mapped one (lib.listenReached); MAX_RESOLVE bounds one extract.
 * Mapping all 2,940 listened cells of the bench page took ~250 ms in each of
 * the first two extracts; the first chunk takes ~35 ms.
 */

import { CdpError } from "../tabs/debugger-controller.js";
import { callPage, contextOf } from "./run-in-page.js";

/** Listener types that make an element operable by a person. */
const INPUT_EVENTS = new Set(["click", "dblclick", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart",
  "keydown", "keyup", "keypress"]);
/** At most this many newly listened elements are resolved per extract (the first in document order). */
export const MAX_RESOLVE = 1500;
/** Listened nodes mapped in the first chunk; each further chunk is twice the one before. */
export const FIRST_CHUNK = 200;
const GROUP = "bua-listeners";
/** Kept, not released: the page world's document, asked again for its listeners by each extract. */
const DOC_GROUP = "bua-listened-document";

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./run-in-page.js").Frame} Frame
 */

/**
 * The distinct backendNodeIds of input listeners, in the order reported (document order).
 * @param {{type: string, backendNodeId?: number}[]} listeners
 * @returns {number[]}
 */
export function listenedNodes(listeners) {
  /** @type {Set<number>} */
  const ids = new Set();
  for (const l of listeners) if (l.backendNodeId && INPUT_EVENTS.has(l.type)) ids.add(l.backendNodeId);
  return [...ids];
}

/**
 * Tell the frame's library which elements have input listeners now, and map the first listened nodes it does
 * not know yet when it knows none before them (a new document). Best effort: a frame whose listeners cannot be
 * read is walked without them.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @returns {Promise<{more: () => Promise<boolean>}>} more(): maps the next chunk of nodes the library does not
 *   know (after a walk that says it may have passed them); false when there is none left for this extract
 */
export async function syncListeners(dbg, frame) {
  const send = (/** @type {string} */ method, /** @type {Record<string, unknown>} */ params) =>
    dbg.send(frame.tabId, method, params, frame.sessionId);
  const none = { more: async () => false };
  const listeners = await pageListeners(dbg, frame, send);
  if (!listeners) return none;
  /** @type {{unknown: number[], mapped: boolean}} */
  const { unknown, mapped } = (await callPage(dbg, frame, "listenSync", [{ value: listenedNodes(listeners) }])).value;
  if (!unknown.length) return none;
  let done = 0;
  let chunk = FIRST_CHUNK;
  const more = async () => {
    const ids = unknown.slice(done, Math.min(done + chunk, MAX_RESOLVE));
    if (!ids.length) return false;
    done += ids.length;
    chunk *= 2;
    await mapNodes(dbg, frame, send, ids, unknown.length - done);
    return true;
  };
  if (!mapped) await more(); // nothing mapped before the first unknown node: a walk would meet it at once
  return { more };
}

/**
 * syncListeners, then map every listened node the library does not know yet (up to MAX_RESOLVE), for a search
 * over the whole document that meets them all (find, an element_stale error's candidates). A document pays for
 * mapping a listened element once; each call after that costs one DOMDebugger.getEventListeners.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 */
export async function syncAllListeners(dbg, frame) {
  const listeners = await syncListeners(dbg, frame);
  while (await listeners.more());
}

/**
 * Resolve listened nodes into bua's world (pipelined) and hand them to the library.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {(method: string, params: object) => Promise<any>} send
 * @param {number[]} ids
 * @param {number} left how many are still not mapped after these
 */
async function mapNodes(dbg, frame, send, ids, left) {
  const executionContextId = await contextOf(dbg, frame);
  const objects = await Promise.all(ids.map((/** @type {number} */ backendNodeId) =>
    send("DOM.resolveNode", { backendNodeId, executionContextId, objectGroup: GROUP })
      .then((/** @type {any} */ r) => (r.object?.objectId ? { objectId: r.object.objectId } : { value: null }))
      .catch(() => ({ value: null }))));
  try {
    await callPage(dbg, frame, "listenAdd", [{ value: ids }, { value: left }, ...objects]);
  } finally {
    send("Runtime.releaseObjectGroup", { objectGroup: GROUP }).catch(() => {});
  }
}

/** @type {Map<string, {context: number, objectId: string}>} the page world's document per frame, while bua's world lives */
const documents = new Map();

/**
 * Every listener in the frame's document, asked of the document as the page's own world holds it: asked of
 * bua's world's document with pierce, a second call left the next script in that world hanging (Chromium
 * 156). The document is found by its backendNodeId (not by evaluating `document`, which a page can shadow)
 * once per document: kept while the frame's bua world is the same.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {(method: string, params: object) => Promise<any>} send
 * @returns {Promise<{type: string, backendNodeId?: number}[] | null>} null when they cannot be read
 */
async function pageListeners(dbg, frame, send) {
  const key = `${frame.tabId}/${frame.sessionId ?? ""}/${frame.frameId}`;
  const context = await contextOf(dbg, frame);
  for (let attempt = 0; attempt < 2; attempt++) {
    let doc = documents.get(key);
    try {
      if (doc?.context !== context) {
        doc = { context, objectId: await pageDocument(dbg, frame, send) };
        documents.set(key, doc);
      }
      return (await send("DOMDebugger.getEventListeners", { objectId: doc.objectId, depth: -1, pierce: true })).listeners;
    } catch (err) {
      documents.delete(key);
      if (!(err instanceof CdpError)) throw err;
    }
  }
  return null;
}

/**
 * The remote object of the frame's document in the page's own world.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {(method: string, params: object) => Promise<any>} send
 * @returns {Promise<string>}
 */
async function pageDocument(dbg, frame, send) {
  const ours = await callPage(dbg, frame, "documentNode", [], { returnByValue: false });
  try {
    const { node } = await send("DOM.describeNode", { objectId: ours.objectId, depth: 0 });
    const resolved = await send("DOM.resolveNode", { backendNodeId: node.backendNodeId, objectGroup: DOC_GROUP });
    return resolved.object.objectId;
  } finally {
    send("Runtime.releaseObject", { objectId: ours.objectId }).catch(() => {});
  }
}
