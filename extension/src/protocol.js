/**
 * Wire protocol v1 between the app (through the native host) and this extension.
 *
 * Frames are JSON objects with `v` and `kind`:
 *   request  {id, task_id, action}                   app -> extension
 *   response {id, ok, result | error{code,message}}  extension -> app
 *   control  {id, op, args}                          app -> extension (answered by a response)
 *   event    {type, data}                            both ways, never answered
 */

export const PROTOCOL_VERSION = 1;

/** Error codes; each means a different next step for the agent. */
export const ErrorCode = Object.freeze({
  INVALID_ACTION: "invalid_action",
  ELEMENT_NOT_FOUND: "element_not_found",
  ELEMENT_STALE: "element_stale",
  NOT_INTERACTABLE: "not_interactable",
  TIMEOUT: "timeout",
  NAVIGATION_FAILED: "navigation_failed",
  SESSION_NOT_FOUND: "session_not_found",
  BLOCKED: "blocked",
  FORBIDDEN_URL: "forbidden_url",
  TAB_NOT_FOUND: "tab_not_found",
  EVALUATE_FAILED: "evaluate_failed",
  PAYLOAD_TOO_LARGE: "payload_too_large",
  EXTENSION_DISCONNECTED: "extension_disconnected",
  INTERNAL_ERROR: "internal_error",
});

/** The 13 browser actions, in the order of the schema. */
export const ACTION_TYPES = Object.freeze([
  "navigate", "click", "type", "press_key", "scroll", "screenshot", "extract",
  "wait_for", "hover", "evaluate", "get_tabs", "open_tab", "close_tab",
]);

/**
 * Required fields per action type, mirroring `required` in
 * src/schema/actions.schema.json (the app validates first; this is the
 * extension's own defensive check).
 * @type {Readonly<Record<string, readonly string[]>>}
 */
export const REQUIRED_FIELDS = Object.freeze({
  navigate: ["url"],
  type: ["text"],
  press_key: ["key"],
  evaluate: ["expression"],
  open_tab: ["url"],
  close_tab: ["tab_id"],
});

export const CONTROL_OPS = Object.freeze(["ping", "stop_all", "end_session", "set_blocklist", "configure", "show_tab"]);

/** Largest message the extension can post to the host (Chrome's limit). */
export const MAX_OUTBOUND_BYTES = 64 * 1024 * 1024;

/**
 * @typedef {{uid: string, role: string, name: string, context?: string}} Candidate
 *   a current element that may be what a stale or unknown target meant
 * @typedef {{candidates?: Candidate[]}} ErrorDetails extra fields of the error body
 */

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
  return { code: ErrorCode.INTERNAL_ERROR, message: message || "unexpected error in the extension" };
}

/**
 * @param {unknown} msg
 * @returns {msg is Record<string, any> & {id: string | number}}
 */
export function hasId(msg) {
  const id = /** @type {any} */ (msg)?.id;
  return (typeof id === "string" && id.length > 0) || Number.isFinite(id);
}
