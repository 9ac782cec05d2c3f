/**
 * Wire protocol v1 between the app (through the native host) and this extension.
 *
 * Frames are JSON objects with `v` and `kind`:
 *   request  {id, task_id, action}                   app -> extension
 *   response {id, ok, result | error{code,message}}  extension -> app
 *   control  {id, op, args}                          app -> extension (answered by a response)
 *   event    {type, data}                            both ways, never answered
 */

import { ErrorCode, PROTOCOL_VERSION } from "./generated/protocol.js";

// The vocabulary (versions, error codes, action types and flags, control ops, events) is generated from the
// Python declarations; this module adds only the helpers that build frames.
export { ACTIONS, ACTION_TYPES, CONTROL_OPS, EXTRACT_BUDGET, ErrorCode, EXTENSION_EVENTS, HOST_EVENTS, PROTOCOL_VERSION } from "./generated/protocol.js";

/** Largest message the extension can post to the host (Chrome's limit). */
export const MAX_OUTBOUND_BYTES = 64 * 1024 * 1024;

/**
 * @typedef {{uid: string, role: string, name: string, context?: string}} Candidate
 *   a current element that may be what a stale or unknown target meant
 * @typedef {{candidates?: Candidate[], confirmation?: Record<string, unknown>, page_text?: string[],
 *   frames?: import("./extract/framed.js").Framed[]}} ErrorDetails frames: which of the page text it quotes a frame of
 *   another origin shows (extract/framed.js shownBy)
 *   extra fields of the error body (confirmation: what a held sensitive action is, see safety/confirmations.js;
 *   page_text: the page's strings the message quotes, see `quoting`)
 */

/**
 * The details of an error whose message quotes the page (an element described by its text, a thrown exception, a
 * download's file name): the quoted strings, exactly as the message interpolates them. The app marks each as page
 * data where the message says it and remembers it for its data-flow check (app/protocol/page_data.py); a message
 * that interpolates page text without listing it here reaches the model unmarked.
 * @param {...unknown} texts
 * @returns {{page_text: string[]}}
 */
export function quoting(...texts) {
  return { page_text: texts.filter((t) => typeof t === "string" && t !== "").map(String) };
}

/** An action failure with a protocol error code and a message naming the next step. */
export class ActionError extends Error {
  /**
   * @param {string} code one of ErrorCode
   * @param {string} message what happened and what to do next
   * @param {ErrorDetails} [details] extra fields for the error body (e.g. candidates)
   */
  constructor(code, message, details = undefined) {
    super(message);
    this.name = "ActionError";
    this.code = code;
    this.details = details;
  }
}

/**
 * @param {string|number} id
 * @param {unknown} result
 */
export function okResponse(id, result) {
  return { v: PROTOCOL_VERSION, kind: "response", id, ok: true, result };
}

/**
 * @param {string|number} id
 * @param {string} code
 * @param {string} message
 * @param {ErrorDetails} [details] extra fields of the error body
 */
export function errorResponse(id, code, message, details = undefined) {
  return { v: PROTOCOL_VERSION, kind: "response", id, ok: false, error: { code, message, ...details } };
}

/**
 * @param {string} type
 * @param {Record<string, unknown>} data
 */
export function eventMessage(type, data) {
  return { v: PROTOCOL_VERSION, kind: "event", type, data };
}

/**
 * Any thrown value as an error body: ActionError keeps its code (and its
 * details, e.g. candidates), anything else is internal_error.
 * @param {unknown} err
 * @returns {{code: string, message: string} & ErrorDetails}
 */
export function toErrorBody(err) {
  if (err instanceof ActionError) return { code: err.code, message: err.message, ...err.details };
  const message = err instanceof Error ? err.message : String(err);
  // Nobody wrote this message for the model: it may hold anything the page made, so it counts as page text.
  return message ? { code: ErrorCode.INTERNAL_ERROR, message, page_text: [message] }
    : { code: ErrorCode.INTERNAL_ERROR, message: "unexpected error in the extension" };
}

/**
 * @param {unknown} msg
 * @returns {msg is Record<string, any> & {id: string | number}}
 */
export function hasId(msg) {
  const id = /** @type {any} */ (msg)?.id;
  return (typeof id === "string" && id.length > 0) || Number.isFinite(id);
}
