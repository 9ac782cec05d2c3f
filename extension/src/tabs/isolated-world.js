/**
 * Running bua's own action scripts in the frame's isolated world "bua" (the
 * same world extract uses, see extract/run-in-page.js): they see the page's
 * DOM but not its JavaScript, and the page cannot see them.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { CdpError } from "./debugger-controller.js";
import { CONTEXT_GONE, forgetContexts, libraryContextOf, mainFrameId, pixelValue, verdictsArg, withPixels } from "../extract/run-in-page.js";
import { callKept, keptFunction } from "../page/functions.js";
import { perAttachment } from "./attachment-cache.js";

export { mainFrameId };


/** @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext */

/** The top frame id per attached tab (it is the tab target's id and stays). */
const topFrames = perAttachment();

/**
 * The tab's top frame id, asked once per debugger attachment.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @returns {Promise<string>}
 */
export function topFrameId(ctx, tabId) {
  return topFrames(ctx.debugger, tabId, () => mainFrameId(ctx.debugger, tabId));
}

/** @typedef {import("../extract/run-in-page.js").Pixels} Pixels */

/**
 * Call `fn(...args)` in the frame's isolated world and return its JSON value. Like every page function's call, it
 * carries the texts it left to the pixels back on its answer (run-in-page.js withPixels): a read that judges them
 * (pixel-reads.js) gives `where.pixels`, which sends its verdicts and gathers those texts; other calls drop them.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Function} fn a page function: declared with what it uses (page/page-code.js)
 * @param {unknown[]} [args] JSON-serialisable
 * @param {{sessionId?: string, frameId?: string, pixels?: Pixels}} [where] default: the tab's main frame
 * @returns {Promise<any>}
 */
export async function inWorld(ctx, tabId, fn, args = [], where = {}) {
  const frameId = where.frameId ?? (where.sessionId === undefined ? await topFrameId(ctx, tabId) : await mainFrameId(ctx.debugger, tabId, where.sessionId));
  const frame = { tabId, sessionId: where.sessionId, frameId };
  const ref = keptFunction(fn);
  for (let attempt = 0; ; attempt++) {
    const executionContextId = await libraryContextOf(ctx.debugger, frame);
    try {
      const reply = await callKept((functionDeclaration) => ctx.debugger.send(tabId, "Runtime.callFunctionOn", {
        functionDeclaration, executionContextId, arguments: [verdictsArg(where.pixels), ...args.map((value) => ({ value }))],
        returnByValue: true,
      }, where.sessionId), ref, withPixels);
      return pixelValue(valueOf(reply), where.pixels);
    } catch (err) {
      if (attempt > 0 || !(err instanceof CdpError) || !CONTEXT_GONE.test(err.cdpMessage)) throw err;
      forgetContexts(tabId);
    }
  }
}

/**
 * Call `fn(...args)` with `this` = the element, returning its JSON value (the pixels' questions as for inWorld).
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {{objectId: string, sessionId?: string}} element from resolveElement
 * @param {Function} fn
 * @param {unknown[]} [args]
 * @param {Pixels} [pixels] the read it is part of (pixel-reads.js)
 * @returns {Promise<any>}
 */
export async function onElement(ctx, tabId, element, fn, args = [], pixels = undefined) {
  const reply = await callKept((functionDeclaration) => ctx.debugger.send(tabId, "Runtime.callFunctionOn", {
    objectId: element.objectId, functionDeclaration, arguments: [verdictsArg(pixels), ...args.map((value) => ({ value }))],
    returnByValue: true,
  }, element.sessionId), keptFunction(fn), withPixels);
  return pixelValue(valueOf(reply), pixels);
}

/** @param {any} reply a Runtime.callFunctionOn reply */
function valueOf(reply) {
  if (reply?.exceptionDetails) {
    const details = reply.exceptionDetails;
    const message = details.exception?.description?.split("\n")[0] ?? details.text ?? "script error";
    throw new ActionError(ErrorCode.INTERNAL_ERROR, `bua's page script failed: ${message}; retry once, then extract`, quoting(message));
  }
  return reply?.result?.value;
}
