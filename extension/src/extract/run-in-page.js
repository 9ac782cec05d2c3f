/**
 * Running bua's in-page library in an isolated world of a frame.
 *
 * The library is the parts (extract/page-*.js, each declared with definePagePart: page/page-code.js) that
 * LIBRARY_ROOTS need, closed over what each declares it uses. It is installed once per document
 * into the world "bua" (Page.createIsolatedWorld: page scripts cannot see or
 * tamper with it; the same world name gives the same world, so its state
 * persists between calls; measured on Chromium 156) and called with
 * Runtime.callFunctionOn. The execution context id of each (tab, session,
 * frame) is cached and re-created when the context is gone (navigation).
 */

import { CdpError } from "../tabs/debugger-controller.js";
import { pageClickable } from "./page-clickable.js";
import { pageFind } from "./page-find.js";
import { pageRegistry } from "./page-registry.js";
import { pageSearch } from "./page-search.js";
import { pageSeen } from "./page-seen.js";
import { pageShadow } from "./page-shadow.js";
import { pageWalker } from "./page-walker.js";
import { NOT_KEPT, callKept, textHash } from "../page/functions.js";
import { judgeByPixels } from "./pixel-judge.js";
import { pagePixels } from "./page-pixels.js";
import { libraryParts, librarySource } from "../page/page-code.js";
import { revealClosedRoots } from "./closed-roots.js";

export const WORLD_NAME = "bua";

/**
 * The parts whose members are called from outside the library: by name through callPage (walk, search,
 * findLike, lookup, query, listenSync, pendingHosts, …) and by the page functions that read globalThis.__bua
 * (seenLabel, shownText, closedRoots, isListened, …). test/page-code.test.js checks that the library they
 * make provides every such name.
 */
export const LIBRARY_ROOTS = [pageWalker, pageSearch, pageFind, pageRegistry, pageClickable, pageShadow, pageSeen, pagePixels];

/** The library's parts in install order (a part after the parts it uses). */
export const LIBRARY_PARTS = libraryParts(LIBRARY_ROOTS);

const INSTALL_PARTS = librarySource(LIBRARY_PARTS, "lib");

/** A hash of the library's source: a page keeping an older library (extension updated) gets the new one. */
const LIB_VERSION = textHash(INSTALL_PARTS);

const MISSING = "bua-library-missing";
/** The key of a call's answer that carries the texts it asks of the pixels (page-pixels.js), with its value. */
const PIXELS = "bua-pixel-asks";

/**
 * Calls lib[method](...args); a document without this version of the library throws MISSING. Kept tiny: it
 * travels with every call, while the library (tens of KB to parse) is sent once per document by INSTALL_SOURCE.
 */
const CALL_SOURCE = `function (method, pixels, ...args) {
  const lib = globalThis.__bua;
  if (!lib || lib.version !== ${JSON.stringify(LIB_VERSION)}) throw new Error(${JSON.stringify(MISSING)});
  if (pixels === undefined || pixels === null) return lib[method](...args);
  lib.pixelCall(pixels);
  const value = lib[method](...args);
  const asked = lib.pixelAsked();
  return asked.asks.length || asked.left ? { ${JSON.stringify(PIXELS)}: asked, value } : value;
}`;

/** Installs the library in this world (once per document and library version). */
export const INSTALL_SOURCE = `function () {
  const lib = { version: ${JSON.stringify(LIB_VERSION)} };
${INSTALL_PARTS}
  Object.defineProperty(globalThis, "__bua", { value: lib, configurable: true });
  return true;
}`;

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("../page/functions.js").KeptFunction} KeptFunction
 * @typedef {{value?: unknown, objectId?: string}} CallArg Runtime.CallArgument
 * @typedef {{tabId: number, sessionId?: string, frameId: string}} Frame where to run
 */

/** @type {Map<string, number>} execution context per tab/session/frame */
const contexts = new Map();

/** @param {Frame} frame */
const keyOf = (frame) => `${frame.tabId}/${frame.sessionId ?? ""}/${frame.frameId}`;

/**
 * The id of the session's main frame (the tab's top frame, or the OOPIF).
 * @param {DebuggerController} dbg
 * @param {number} tabId
 * @param {string} [sessionId]
 * @returns {Promise<string>}
 */
export async function mainFrameId(dbg, tabId, sessionId) {
  const { frameTree } = await dbg.send(tabId, "Page.getFrameTree", {}, sessionId);
  return frameTree.frame.id;
}

/**
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @returns {Promise<number>}
 */
export async function contextOf(dbg, frame) {
  const cached = contexts.get(keyOf(frame));
  if (cached !== undefined) return cached;
  const { executionContextId } = await dbg.send(frame.tabId, "Page.createIsolatedWorld",
    { frameId: frame.frameId, worldName: WORLD_NAME, grantUniveralAccess: true }, frame.sessionId);
  contexts.set(keyOf(frame), executionContextId);
  return executionContextId;
}

/** @type {Map<string, number>} per tab/session/frame: the execution context last seen holding this library */
const installed = new Map();

/** Forget the cached contexts of a tab. @param {number} tabId */
export function forgetContexts(tabId) {
  for (const key of contexts.keys()) if (key.startsWith(`${tabId}/`)) contexts.delete(key);
  for (const key of installed.keys()) if (key.startsWith(`${tabId}/`)) installed.delete(key);
}

/**
 * The frame's bua world with this version of the library installed: the page functions that run there
 * (page/functions.js's describeElement, wait_for's checks) read page text only through it (page-seen.js).
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @returns {Promise<number>} the execution context id
 */
export async function libraryContextOf(dbg, frame) {
  await revealClosedRoots(dbg, frame); // installs the library too
  return contextOf(dbg, frame);
}

/** The library's methods that read the page for a reader: the frame's closed shadow roots are revealed first. */
const READS = new Set(["walk", "search", "lookup", "query", "findLike"]);

/** A CDP error that means the execution context is gone (the frame navigated): ask for a new one. */
export const CONTEXT_GONE = /Cannot find context|context with specified id|Execution context was destroyed|Inspected target navigated/i;

/**
 * Call lib[method](...args) in the frame's bua world.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {string} method
 * @param {CallArg[]} [args] CDP call arguments after the method name
 * @param {{returnByValue?: boolean}} [options]
 * @returns {Promise<{value?: any, objectId?: string, subtype?: string, type?: string}>} the RemoteObject
 */
export async function callPage(dbg, frame, method, args = [], { returnByValue = true } = {}) {
  if (READS.has(method)) await revealClosedRoots(dbg, frame);
  let res = await callOnce(dbg, frame, method, args, returnByValue, returnByValue ? [] : null);
  // Texts page code could not judge (page-pixels.js): the pixels decide, and the call is made again with the
  // verdicts when any of them is hidden (a call that reads page text reads it again, changing nothing). A read
  // that stops at its first match may meet new such texts past a hidden one: a few rounds settle it.
  /** @type {import("./pixel-judge.js").Verdict[]} */
  const verdicts = [];
  const mask = (/** @type {number[] | null} */ ids) => callOnce(dbg, frame, "pixelMask", [{ value: ids }], true, null);
  for (let round = 0; res.value?.[PIXELS]; round++) {
    const { asks, left } = res.value[PIXELS];
    if (round >= MAX_PIXEL_ROUNDS) {
      // No round left for the texts still waiting: they are left out, with the reason (page-pixels.js PAST_BUDGET).
      return await callOnce(dbg, frame, method, args, true, { verdicts, rest: true });
    }
    const found = await pixelVerdicts(dbg, frame, asks, mask);
    if (!left && !found.some((v) => v.hidden)) return { ...res, value: res.value.value };
    verdicts.push(...found);
    res = await callOnce(dbg, frame, method, args, true, verdicts);
  }
  return res;
}

/** Rounds of pixel verdicts one read may take (each captures only the texts it newly asks, at most 48: page-pixels.js);
 * what still waits after them is left out, never silently kept. */
export const MAX_PIXEL_ROUNDS = 4;

/**
 * judgeByPixels, failing closed: when the judgement itself fails (the tab cannot be captured, a frame's box cannot
 * be read), the asked texts are left out unjudged ("uncaptured", with the reason the model reads), never kept as
 * page code left them, which would let whatever made the capture fail keep its text.
 * @param {DebuggerController} dbg @param {Frame} frame @param {import("./pixel-judge.js").Ask[]} asked
 * @param {import("./pixel-judge.js").Mask} mask @returns {Promise<import("./pixel-judge.js").Verdict[]>}
 */
export async function pixelVerdicts(dbg, frame, asked, mask) {
  try {
    if (!frame.sessionId) return await judgeByPixels(dbg, frame, asked, mask);
    // A frame in a process of its own paints apart from the tab the captures are taken in: a capture may show it as
    // it was before its last change (the mask just put on, a canvas just drawn). Each change is let reach the screen.
    await presented(dbg, frame);
    return await judgeByPixels(dbg, frame, asked, async (ids) => {
      const answer = await mask(ids);
      await presented(dbg, frame);
      return answer;
    });
  } catch {
    return asked.map((a) => ({ id: a.id, key: a.key ?? JSON.stringify(a.rects), hidden: true, far: /** @type {const} */ ("uncaptured") }));
  }
}

/** How long a frame's next two animation frames are waited for (ms): a frame that does not paint is not waited on. */
const PRESENT_MS = 1000;
const TWO_FRAMES = "function () { return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))); }";

/**
 * Until the frame has painted twice (its last change then committed and sent to the tab's compositor), in the bua
 * world (a page's own requestAnimationFrame is not ours), or PRESENT_MS.
 * @param {DebuggerController} dbg @param {Frame} frame
 */
async function presented(dbg, frame) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((r) => { timer = setTimeout(r, PRESENT_MS); });
  const painted = contextOf(dbg, frame).then((executionContextId) => dbg.send(frame.tabId, "Runtime.callFunctionOn",
    { functionDeclaration: TWO_FRAMES, executionContextId, awaitPromise: true, returnByValue: true }, frame.sessionId))
    .catch(() => undefined); // a frame gone or navigated: the judgement's own calls say so
  await Promise.race([painted, late]).finally(() => clearTimeout(timer));
}

/**
 * Call lib[method](...args) leaving the library's pixel questions and verdicts as they are (page-pixels.js): for
 * the reads of page functions (pixel-reads.js).
 * @param {DebuggerController} dbg @param {Frame} frame @param {string} method @param {CallArg[]} [args]
 */
export const callLibrary = (dbg, frame, method, args = []) => callOnce(dbg, frame, method, args, true, undefined);

/**
 * @param {DebuggerController} dbg @param {Frame} frame @param {string} method @param {CallArg[]} args
 * @param {boolean} returnByValue
 * @param {unknown[] | {verdicts: unknown[], rest: boolean} | null | undefined} pixels the call's pixel verdicts (its
 *   questions are collected; rest: a text without a verdict is left out, page-pixels.js pixelCall); null or
 *   undefined: the library's pixel state is left alone (an answer by reference, the mask itself, a page function's
 *   read: pixel-reads.js)
 */
async function callOnce(dbg, frame, method, args, returnByValue, pixels) {
  for (let attempt = 0; ; attempt++) {
    const executionContextId = await contextOf(dbg, frame);
    try {
      const call = () => dbg.send(frame.tabId, "Runtime.callFunctionOn", {
        functionDeclaration: CALL_SOURCE,
        executionContextId,
        arguments: [{ value: method }, pixels === undefined ? {} : { value: pixels }, ...args],
        returnByValue,
        awaitPromise: false,
        objectGroup: WORLD_NAME,
      }, frame.sessionId);
      let res = await call();
      if (res.exceptionDetails && String(res.exceptionDetails.exception?.description).includes(MISSING)) {
        await dbg.send(frame.tabId, "Runtime.callFunctionOn", {
          functionDeclaration: INSTALL_SOURCE, executionContextId, returnByValue: true,
        }, frame.sessionId);
        res = await call();
      }
      if (res.exceptionDetails) {
        const text = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
        throw new Error(`bua page script failed in ${method}: ${text}`);
      }
      installed.set(keyOf(frame), executionContextId);
      return res.result;
    } catch (err) {
      contexts.delete(keyOf(frame));
      if (attempt > 0 || !(err instanceof CdpError) || !CONTEXT_GONE.test(err.cdpMessage)) throw err;
    }
  }
}

/** What callOnNode answers when the node is not there (or the library is not): resolve the slow way. */
export const NODE_MISSING = Symbol("node missing");

/**
 * @typedef {{verdicts: import("./pixel-judge.js").Verdict[] | {verdicts: import("./pixel-judge.js").Verdict[], rest: boolean}
 *   | null, asked: import("./pixel-judge.js").Ask[], left: number}} Pixels one read's pixel verdicts (sent with each of
 *   its page calls; rest: a text without one is left out, page-pixels.js pixelCall), the texts its calls left to the
 *   pixels and how many more waited past them (gathered from their answers): pixel-reads.js
 */

/** @returns {Pixels} a read's pixels before any verdict */
export const unjudged = () => ({ verdicts: null, asked: [], left: 0 });

/**
 * The library's pixel state around one call of a page function (`f`, with `this` and `args`), as CALL_SOURCE keeps
 * it around a library method: the call's verdicts (`pixels`, null: none) in, the texts it left to the pixels out on
 * its answer beside its value. Page source: the body of the declarations below.
 */
const PIXEL_CALL = `const lib = globalThis.__bua;
  if (!lib || typeof lib.pixelCall !== "function") return f.apply(this, args);
  lib.pixelCall(pixels);
  const value = f.apply(this, args);
  const asked = lib.pixelAsked();
  return asked.asks.length || asked.left ? { ${JSON.stringify(PIXELS)}: asked, value } : value;`;

/**
 * A kept page function's declaration (page/functions.js callKept) that carries the pixels' questions back on its
 * answer: `f` is an expression for the function; the call's first argument is its verdicts (null: none).
 * @param {string} f
 */
export const withPixels = (f) => `function (pixels, ...args) {
  const f = ${f};
  if (!f) return { ${JSON.stringify(NOT_KEPT)}: true };
  ${PIXEL_CALL}
}`;

/**
 * A page call's value, with the texts it left to the pixels (withPixels, onNode) added to `pixels`.
 * @param {any} value the call's answer @param {Pixels} [pixels] the read it is part of (none: its questions are dropped)
 */
export function pixelValue(value, pixels) {
  const asked = value && typeof value === "object" ? value[PIXELS] : undefined;
  if (!asked || !Array.isArray(asked.asks)) return value;
  if (pixels) {
    pixels.asked.push(...asked.asks);
    pixels.left += asked.left || 0;
  }
  return value.value;
}

/** @param {Pixels} [pixels] @returns {{value: unknown}} the CDP call argument of a read's verdicts */
export const verdictsArg = (pixels) => ({ value: pixels?.verdicts ?? null });

/**
 * A kept function called on the node the library registered as (doc, id), inside the library's pixel state
 * (PIXEL_CALL); `f` is an expression for it.
 * @param {string} f
 */
const onNode = (f) => `function (pixels, doc, id, ...args) {
  const lib = globalThis.__bua;
  if (!lib || lib.version !== ${JSON.stringify(LIB_VERSION)}) return { [${JSON.stringify(MISSING)}]: true };
  const node = lib.lookup(doc, id);
  if (typeof node !== "object") return { [${JSON.stringify(MISSING)}]: true };
  const f = ${f};
  if (!f) return { ${JSON.stringify(NOT_KEPT)}: true };
  return (function (args) {
  ${PIXEL_CALL}
  }).call(node, args);
}`;

/**
 * Run a page function with `this` = the node that the library registered as (doc, id), in one round trip
 * (the usual resolve-then-call takes two). Returns NODE_MISSING when the document has no library of this
 * version, navigated, or the node is gone; the caller then resolves the slow way, which explains why.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {{doc: string, id: number}} node
 * @param {KeptFunction} ref from keptFunction()
 * @param {unknown[]} args JSON values
 * @param {Pixels} [pixels] the read it is part of: its verdicts go in, the texts it left to the pixels come back
 * @returns {Promise<any>} the function's JSON value, or NODE_MISSING
 */
export async function callOnNode(dbg, frame, node, ref, args, pixels) {
  if (installed.has(keyOf(frame))) await revealClosedRoots(dbg, frame);
  const executionContextId = await contextOf(dbg, frame);
  let res;
  try {
    res = await callKept((functionDeclaration) => dbg.send(frame.tabId, "Runtime.callFunctionOn", {
      functionDeclaration,
      executionContextId,
      arguments: [verdictsArg(pixels), { value: node.doc }, { value: node.id }, ...args.map((value) => ({ value }))],
      returnByValue: true,
    }, frame.sessionId), ref, onNode);
  } catch (err) {
    if (!(err instanceof CdpError) || !CONTEXT_GONE.test(err.cdpMessage)) throw err;
    contexts.delete(keyOf(frame));
    return NODE_MISSING;
  }
  if (res.exceptionDetails) {
    const text = res.exceptionDetails.exception?.description ?? res.exceptionDetails.text;
    throw new Error(`bua page script failed: ${text}`);
  }
  const value = res.result?.value;
  return value && typeof value === "object" && value[MISSING] ? NODE_MISSING : pixelValue(value, pixels);
}
