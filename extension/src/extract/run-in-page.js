/**
 * Running bua's in-page library in an isolated world of a frame.
 *
 * The library (page-registry, page-aria, page-fields, page-blocks, page-clickable, page-context, page-colour,
 * page-controls, page-controls-find, page-cover, page-find, page-index, page-math, page-reading, page-render,
 * page-search, page-seen, page-shadow, page-visibility, page-walker) is installed once per document
 * into the world "bua" (Page.createIsolatedWorld: page scripts cannot see or
 * tamper with it; the same world name gives the same world, so its state
 * persists between calls; measured on Chromium 156) and called with
 * Runtime.callFunctionOn. The execution context id of each (tab, session,
 * frame) is cached and re-created when the context is gone (navigation).
 */

import { CdpError } from "../tabs/debugger-controller.js";
import { pageAria } from "./page-aria.js";
import { pageBlocks } from "./page-blocks.js";
import { pageClickable } from "./page-clickable.js";
import { pageContext } from "./page-context.js";
import { pageControls } from "./page-controls.js";
import { pageColour } from "./page-colour.js";
import { pageControlsFind } from "./page-controls-find.js";
import { pageCover } from "./page-cover.js";
import { pageFields } from "./page-fields.js";
import { pageFind } from "./page-find.js";
import { pageIconName } from "./page-icon-name.js";
import { pageIndex } from "./page-index.js";
import { pageMath } from "./page-math.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pagePicture } from "./page-picture.js";
import { pageReading } from "./page-reading.js";
import { pageRender } from "./page-render.js";
import { pageRegistry } from "./page-registry.js";
import { pageSearch } from "./page-search.js";
import { pageSeen } from "./page-seen.js";
import { pageShadow } from "./page-shadow.js";
import { pageSvg } from "./page-svg.js";
import { pageVisibility } from "./page-visibility.js";
import { pageWalker } from "./page-walker.js";
import { NOT_KEPT, callKept, textHash } from "../page/functions.js";

export const WORLD_NAME = "bua";

const PARTS = [pageRegistry, pageAria, pageFields, pageBlocks, pageClickable, pageContext, pageControls,
  pageControlsFind, pageFind, pageIconName, pageIndex, pageMath, pageReading, pageRender, pageColour, pageCover,
  pagePaintOrder, pagePicture, pageSearch, pageSeen, pageShadow, pageSvg, pageVisibility, pageWalker].map(String);

/** A hash of the library's source: a page keeping an older library (extension updated) gets the new one. */
const LIB_VERSION = textHash(PARTS.join(""));

const MISSING = "bua-library-missing";

/**
 * Calls lib[method](...args); a document without this version of the library throws MISSING. Kept tiny: it
 * travels with every call, while the library (tens of KB to parse) is sent once per document by INSTALL_SOURCE.
 */
const CALL_SOURCE = `function (method, ...args) {
  const lib = globalThis.__bua;
  if (!lib || lib.version !== ${JSON.stringify(LIB_VERSION)}) throw new Error(${JSON.stringify(MISSING)});
  return lib[method](...args);
}`;

/** Installs the library in this world (once per document and library version). */
export const INSTALL_SOURCE = `function () {
  const lib = { version: ${JSON.stringify(LIB_VERSION)} };
${PARTS.map((part) => `  (${part})(lib);`).join("\n")}
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
  const executionContextId = await contextOf(dbg, frame);
  if (installed.get(keyOf(frame)) === executionContextId) return executionContextId;
  await callPage(dbg, frame, "seenReady");
  return contextOf(dbg, frame);
}

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
  for (let attempt = 0; ; attempt++) {
    const executionContextId = await contextOf(dbg, frame);
    try {
      const call = () => dbg.send(frame.tabId, "Runtime.callFunctionOn", {
        functionDeclaration: CALL_SOURCE,
        executionContextId,
        arguments: [{ value: method }, ...args],
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
 * A kept function called on the node the library registered as (doc, id); `f` is an expression for it.
 * @param {string} f
 */
const onNode = (f) => `function (doc, id, ...args) {
  const lib = globalThis.__bua;
  if (!lib || lib.version !== ${JSON.stringify(LIB_VERSION)}) return { [${JSON.stringify(MISSING)}]: true };
  const node = lib.lookup(doc, id);
  if (typeof node !== "object") return { [${JSON.stringify(MISSING)}]: true };
  const f = ${f};
  return f ? f.apply(node, args) : { ${JSON.stringify(NOT_KEPT)}: true };
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
 * @returns {Promise<any>} the function's JSON value, or NODE_MISSING
 */
export async function callOnNode(dbg, frame, node, ref, args) {
  const executionContextId = await contextOf(dbg, frame);
  let res;
  try {
    res = await callKept((functionDeclaration) => dbg.send(frame.tabId, "Runtime.callFunctionOn", {
      functionDeclaration,
      executionContextId,
      arguments: [{ value: node.doc }, { value: node.id }, ...args.map((value) => ({ value }))],
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
  return value && typeof value === "object" && value[MISSING] ? NODE_MISSING : value;
}
