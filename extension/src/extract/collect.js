/**
 * Walk every frame of a tab: the tab's own session (top document with its
 * same-process iframes) and, recursively, the child sessions of
 * out-of-process iframes, each spliced in where its <iframe> stands.
 *
 * Per session: closed shadow roots are revealed to the walker first
 * (closed-roots.js, by callPage), the <iframe> elements of child sessions are resolved
 * (DOM.getFrameOwner → DOM.resolveNode) and handed to the walker, which
 * leaves a placeholder for each. The elements with input listeners are told
 * to the walker too (listeners.js). Elements get their uids here (uid-map.js), and the walk's text loses its
 * invisible format characters (format-chars.js).
 */

import { dropInvisible, dropInvisibleDeep } from "./format-chars.js";
import { syncListeners } from "./listeners.js";
import { callPage, contextOf, mainFrameId } from "./run-in-page.js";
import { observeTopDocument, uidFor } from "./uid-map.js";
import { blockedNote, blockedOwners } from "../tabs/blocked-frames.js";
import { originOf, otherOrigin } from "./framed.js";

const MAX_FRAME_DEPTH = 4;
const MIN_FRAME_LIMIT = 2000;

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./run-in-page.js").Frame} Frame
 * @typedef {import("./element-lines.js").ElementRecord} ElementRecord
 * @typedef {{blocks: any[], omitted: {els: number, rows: number, chars: number, hidden?: number,
 *   deferred?: Record<string, number>}, url: string, title: string,
 *   modal: boolean, text?: string, notFound?: boolean, blank?: string}} Collected
 *   blank: why a page that shows nothing does (the walk found no text and no control); omitted.deferred: the
 *   characters over pictures out of view left out until judged in view, by side (page-pixels.js pixelDeferred)
 */

/**
 * @param {DebuggerController} dbg
 * @param {number} tabId
 * @param {{limit: number, selector?: string, blocklist?: import("../sessions/blocklist.js").Blocklist}} opts frames
 *   of sites on the blocklist are left out
 * @returns {Promise<Collected>}
 */
export async function collectTab(dbg, tabId, { limit, selector, blocklist }) {
  try {
    await dbg.enableChildTargets(tabId);
  } catch {
    // Chrome older than 125 cannot address child sessions: cross-site iframes stay placeholders.
  }
  const omitted = { els: 0, rows: 0, chars: 0 };
  const budget = { left: limit };
  const frame = { tabId, frameId: await mainFrameId(dbg, tabId) };
  const top = await walkFrame(dbg, frame, { selector, omitted, budget, depth: 0, blocklist });
  if (top.notFound) return { blocks: [], omitted, url: top.url ?? "", title: top.title ?? "", modal: false, notFound: true };
  return { blocks: top.blocks, omitted, url: top.url, title: top.title, modal: top.modal, ...(top.text ? { text: top.text } : {}),
    ...(top.blank ? { blank: top.blank } : {}) };
}

/**
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {{selector?: string, omitted: Collected["omitted"], budget: {left: number}, depth: number,
 *   blocklist?: import("../sessions/blocklist.js").Blocklist, url?: string, framed?: string}} opts `url`: the walked
 *   frame's parent's, then its own once walked (its child frames' origins are told apart from it); `framed`: the
 *   origin of the innermost frame of another origin than its parent's that holds it (what it shows is that site's)
 * @returns {Promise<any>}
 */
async function walkFrame(dbg, frame, opts) {
  const listeners = await syncListeners(dbg, frame);
  // Blocked frames come last: their key wins, and the walker leaves "[blocked frame: site]" where they stand.
  const owners = [...await childFrameOwners(dbg, frame),
    ...await blockedOwners(dbg, frame, opts.blocklist, () => contextOf(dbg, frame))];
  const walk = () => callPage(dbg, frame, "walk", [
    { value: { limit: Math.max(opts.budget.left, MIN_FRAME_LIMIT), selector: opts.selector, frameKeys: owners.map((o) => o.sessionId) } },
    ...owners.map((o) => ({ objectId: o.objectId })),
  ]);
  let res = await walk();
  let data = JSON.parse(res.value);
  // The walk got past the listened elements mapped so far: map the next ones and walk again (listeners.js).
  while (data.listenReached && await listeners.more()) data = JSON.parse((res = await walk()).value);
  if (data.notFound) return data;
  if (frame.sessionId === undefined) observeTopDocument(frame.tabId, data.doc);
  if (data.omitted) for (const k of /** @type {const} */ (["els", "rows", "chars"])) opts.omitted[k] += data.omitted[k];
  opts.omitted.hidden = (opts.omitted.hidden ?? 0) + (data.hidden ?? 0);
  for (const [side, chars] of Object.entries(data.deferred ?? {})) {
    opts.omitted.deferred = { ...opts.omitted.deferred, [side]: (opts.omitted.deferred?.[side] ?? 0) + chars };
  }
  const framed = frame.sessionId === undefined ? undefined : otherOrigin(String(data.url ?? ""), opts.url) ?? opts.framed;
  /** @type {ElementRecord[]} */
  const records = data.els.map((/** @type {[number, string, string, string, string, string?, number?]} */ [id, role, name, states, context, region, regionNo]) => {
    const uid = uidFor(frame.tabId, { sessionId: frame.sessionId, frameId: frame.frameId, doc: data.doc, id, role, name, context });
    const [shown, where] = [dropInvisible(name), dropInvisible(context)]; // format-chars.js; states keep values exact
    // regionNo is unique per frame walk: frames apart are regions apart.
    /** @type {ElementRecord} */
    const record = region ? { uid, role, name: shown, states, context: where, region: dropInvisible(region), regionNo: `${frame.sessionId ?? ""}/${regionNo}` }
      : { uid, role, name: shown, states, context: where };
    if (framed) record.frame = framed; // its lines are the frame's site's (element-lines.js)
    return record;
  });
  data.blocks = dropInvisibleDeep(data.blocks);
  data.title = dropInvisible(data.title ?? "");
  if (data.text) data.text = dropInvisible(data.text);
  opts.budget.left -= res.value.length;
  data.blocks = await bind(dbg, frame, data.blocks, records, { ...opts, url: String(data.url ?? ""), framed });
  return data;
}

/**
 * Runs {e} → {u: record}; child-frame placeholders {f} → that frame's blocks.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {any} value
 * @param {ElementRecord[]} records
 * @param {Parameters<typeof walkFrame>[2]} opts
 * @returns {Promise<any>}
 */
async function bind(dbg, frame, value, records, opts) {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = await bind(dbg, frame, value[i], records, opts);
    return value;
  }
  if (!value || typeof value !== "object") return value;
  if (typeof value.e === "number") return { u: records[value.e], x: value.x, s: value.s, ...(value.g ? { g: value.g } : {}) };
  if (typeof value.f === "string") return childBlocks(dbg, frame, value.f, opts);
  for (const key of Object.keys(value)) value[key] = await bind(dbg, frame, value[key], records, opts);
  return value;
}

/**
 * @param {DebuggerController} dbg
 * @param {Frame} parent
 * @param {string} sessionId
 * @param {Parameters<typeof walkFrame>[2]} opts
 */
async function childBlocks(dbg, parent, sessionId, opts) {
  if (sessionId.startsWith("blocked:")) return blockedNote(sessionId.slice("blocked:".length));
  const child = dbg.childTargets(parent.tabId).find((c) => c.sessionId === sessionId);
  if (!child || opts.depth >= MAX_FRAME_DEPTH) return { note: "iframe could not be read" };
  if (await opts.blocklist?.check(child.url)) return blockedNote(child.url);
  try {
    const data = await walkFrame(dbg, { tabId: parent.tabId, sessionId, frameId: child.targetId },
      { ...opts, selector: undefined, depth: opts.depth + 1 });
    if (data.url && await opts.blocklist?.check(data.url)) return blockedNote(data.url); // redirected while read
    // the frame's web origin, when it is another than its parent's: what it shows is its site's (markdown.js)
    const origin = otherOrigin(data.url || child.url, opts.url);
    return origin ? { c: data.blocks ?? [], o: origin } : { c: data.blocks ?? [] };
  } catch (err) {
    return { note: `iframe ${originOf(child.url)} could not be read (${/** @type {Error} */ (err).message})` };
  }
}

/**
 * The <iframe> elements (in this frame's bua world) of the frame's child sessions.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @returns {Promise<{sessionId: string, objectId: string}[]>}
 */
async function childFrameOwners(dbg, frame) {
  const children = dbg.childTargets(frame.tabId)
    .filter((c) => c.type === "iframe" && c.parentSessionId === frame.sessionId);
  if (!children.length) return [];
  const executionContextId = await contextOf(dbg, frame);
  const owners = await Promise.all(children.map(async (c) => {
    try {
      const { backendNodeId } = await dbg.send(frame.tabId, "DOM.getFrameOwner", { frameId: c.targetId }, frame.sessionId);
      const { object } = await dbg.send(frame.tabId, "DOM.resolveNode", { backendNodeId, executionContextId }, frame.sessionId);
      return object?.objectId ? { sessionId: c.sessionId, objectId: object.objectId } : null;
    } catch {
      return null;
    }
  }));
  return /** @type {{sessionId: string, objectId: string}[]} */ (owners.filter(Boolean));
}
