/**
 * evaluate {expression, dialog?, prompt_text?}: run JavaScript in the page's
 * own world (REPL mode: top-level await and redeclared `let`/`const` work),
 * await a promise result (REPL mode hands the promise back; Runtime.awaitPromise
 * settles it), and return a JSON value. Values JSON cannot carry are described
 * (DOM nodes as `<button#id "text">`, functions, undefined, NaN, BigInt, Map,
 * Set, cycles); results over MAX_RESULT_CHARS come back truncated, with a note.
 * A script that sends the top frame elsewhere says so (`navigated: true`,
 * `url`; the request event arrives before the evaluate reply), and the
 * session gate checks that URL against the blocklist.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { onTaskTab } from "../targets/action-target.js";
import { describeElement, pageFunction } from "../page/functions.js";
import { topFrameId } from "../tabs/isolated-world.js";
import { watchNavigation } from "../tabs/navigation-watch.js";
import { definePageFunction } from "../page/page-code.js";

export const MAX_RESULT_CHARS = 100_000;
export const EVALUATE_TIMEOUT_MS = 20_000;

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {{type?: string, subtype?: string, value?: unknown, unserializableValue?: string, objectId?: string,
 *   description?: string}} RemoteObject what evaluate reads of CDP's Runtime.RemoteObject
 * @typedef {{text: string, exception?: RemoteObject}} ExceptionDetails what it reads of Runtime.ExceptionDetails
 */

/**
 * In the page (`this` = the value): a JSON text of it, with what JSON cannot carry described.
 * @this {any}
 * @param {number} maxDepth
 */
function toJsonText(maxDepth) {
  const seen = new WeakSet();
  /** @param {any} v @param {number} depth @returns {any} */
  const convert = (v, depth) => {
    switch (typeof v) {
      case "undefined": return "[undefined]";
      case "function": return `[function ${v.name || "anonymous"}]`;
      case "symbol": return v.toString();
      case "bigint": return `${v}n`;
      case "number": return Number.isFinite(v) ? v : String(v);
      case "string": case "boolean": return v;
      default: break;
    }
    if (v === null) return null;
    if (typeof Node !== "undefined" && v instanceof Node) {
      return v.nodeType === 1 ? `<${describeElement(v)}>` : `[${v.nodeName}]`;
    }
    if (typeof Window !== "undefined" && v instanceof Window) return "[Window]";
    if (seen.has(v)) return "[circular]";
    if (depth >= maxDepth) return Array.isArray(v) ? `[array of ${v.length}]` : "[object]";
    seen.add(v);
    try {
      if (v instanceof Error) return { name: v.name, message: v.message };
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? "Invalid Date" : v.toISOString();
      if (v instanceof RegExp) return String(v);
      if (v instanceof Map) return { "[Map]": [...v.entries()].map(([k, val]) => [convert(k, depth + 1), convert(val, depth + 1)]) };
      if (v instanceof Set) return { "[Set]": [...v].map((item) => convert(item, depth + 1)) };
      if (ArrayBuffer.isView(v)) return `[${v.constructor.name}(${/** @type {any} */ (v).length ?? v.byteLength})]`;
      if (typeof v.length === "number" && typeof v !== "string" && !Array.isArray(v) && typeof v.item === "function") {
        return Array.from(v, (item) => convert(item, depth + 1));
      }
      if (Array.isArray(v)) return v.map((item) => convert(item, depth + 1));
      if (typeof v.toJSON === "function") return convert(v.toJSON(), depth + 1);
      /** @type {Record<string, any>} */
      const out = {};
      for (const key of Object.keys(v)) {
        let item;
        try {
          item = v[key];
        } catch (err) {
          item = `[throws: ${err}]`;
        }
        if (item !== undefined) out[key] = convert(item, depth + 1);
      }
      return out;
    } finally {
      seen.delete(v);
    }
  };
  return JSON.stringify(convert(this, 0));
}
definePageFunction(toJsonText, { uses: [describeElement] });

/**
 * @param {import("./support/context.js").ActionOf<"evaluate">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"evaluate">>} navigated and url only when the script
 *   sent the top frame elsewhere
 */
export async function evaluate(action, ctx) {
  const expression = action.expression;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const nav = watchNavigation(ctx, tabId, await topFrameId(ctx, tabId));
    try {
      /** @type {Record<string, unknown> & {value: unknown, type: string}} */
      const result = await withTimeout(ctx, run(ctx, tabId, expression));
      const seen = dialogs.records();
      if (seen.length > 0) result.dialog = seen[0];
      // Reported so the model knows, and so the session gate checks where the script sent the tab.
      const destination = nav.destination();
      if (destination !== undefined) Object.assign(result, { navigated: true, url: destination });
      return result;
    } finally {
      nav.stop();
    }
  });
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} expression
 */
async function run(ctx, tabId, expression) {
  let reply;
  try {
    // No user activation: the agent's script cannot open popups, go full screen, start downloads or pass any other
    // activation check as if the person had clicked (no action's declaration needs it).
    reply = await ctx.debugger.send(tabId, "Runtime.evaluate", {
      expression, awaitPromise: true, returnByValue: false, replMode: true, userGesture: false,
      objectGroup: "bua-evaluate", timeout: EVALUATE_TIMEOUT_MS,
    });
  } catch (err) {
    if (err instanceof CdpError) throw new ActionError(ErrorCode.EVALUATE_FAILED, `the expression could not run: ${err.cdpMessage}`);
    throw err;
  }
  if (reply.exceptionDetails) throw thrown(reply.exceptionDetails);
  let remote = reply.result ?? {};
  if (remote.subtype === "promise") {
    const settled = await ctx.debugger.send(tabId, "Runtime.awaitPromise", { promiseObjectId: remote.objectId, returnByValue: false });
    if (settled.exceptionDetails) throw thrown(settled.exceptionDetails);
    remote = settled.result ?? {};
  }
  try {
    return await valueOf(ctx, tabId, remote);
  } finally {
    ctx.debugger.send(tabId, "Runtime.releaseObjectGroup", { objectGroup: "bua-evaluate" }).catch(() => {});
  }
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {RemoteObject} remote
 */
async function valueOf(ctx, tabId, remote) {
  const type = remote.subtype ?? remote.type ?? "undefined";
  if (remote.type === "undefined") return { value: null, type: "undefined" };
  if (remote.unserializableValue !== undefined) return { value: remote.unserializableValue, type };
  if (!remote.objectId) return capped(JSON.stringify(remote.value ?? null), type, remote.value ?? null);
  const json = await ctx.debugger.send(tabId, "Runtime.callFunctionOn", {
    objectId: remote.objectId, functionDeclaration: pageFunction(toJsonText), arguments: [{ value: 20 }], returnByValue: true,
  });
  if (json.exceptionDetails) throw thrown(json.exceptionDetails, "the result could not be converted to JSON: ");
  const text = json.result?.value ?? "null";
  return capped(text, type);
}

/**
 * @param {string} text JSON
 * @param {string} type
 * @param {unknown} [parsed]
 */
function capped(text, type, parsed = undefined) {
  if (text.length <= MAX_RESULT_CHARS) return { value: parsed === undefined ? JSON.parse(text) : parsed, type };
  return {
    value: text.slice(0, MAX_RESULT_CHARS),
    type,
    truncated: true,
    total_chars: text.length,
    note: `the result is ${text.length} characters of JSON; 'value' holds the first ${MAX_RESULT_CHARS} as text. ` +
      "Return less (pick fields, slice arrays) to get all of it.",
  };
}

/**
 * @param {ExceptionDetails} details
 * @param {string} [prefix]
 */
function thrown(details, prefix = "the expression threw: ") {
  const exception = details.exception ?? {};
  const first = typeof exception.description === "string" ? exception.description.split("\n")[0]
    : exception.value !== undefined ? `${JSON.stringify(exception.value)} (a thrown value)` : details.text;
  const quote = String(first).slice(0, 1000);
  return new ActionError(ErrorCode.EVALUATE_FAILED, `${prefix}${quote}; fix the expression, or use extract instead`, quoting(quote));
}

/**
 * @template T
 * @param {ActionContext} ctx
 * @param {Promise<T>} work
 * @returns {Promise<T>}
 */
function withTimeout(ctx, work) {
  /** @type {unknown} */
  let timer;
  const limit = new Promise((_, reject) => {
    timer = ctx.timers.setTimeout(() => reject(new ActionError(ErrorCode.TIMEOUT,
      `the expression did not finish in ${EVALUATE_TIMEOUT_MS / 1000} s (a promise that never settles?); ` +
      "return something that settles sooner, or use wait_for / extract")), EVALUATE_TIMEOUT_MS + 500);
  });
  return Promise.race([work, limit]).finally(() => ctx.timers.clearTimeout(timer));
}

export { evaluate as handler };
