/**
 * What an action does, as its declaration says (app/protocol/actions/spec.py `sensitive_by` and the `Carries` of its
 * fields, generated into ../generated/protocol.js), read out of the action as sent: which text it types, which key it
 * presses, which form fields it fills, whether it submits, which scripts it runs. The confirmation
 * (confirmations.js) reads an action only through this, never by its name or its fields' names, so an action added
 * tomorrow with declared fields is checked with no other edit. Its targets (`uid`, `selector`, `point`; a drag's
 * `to_…`) are the targeting fields every targeted action shares (app/protocol/actions/fields.py Target).
 */

import { ACTIONS } from "../protocol.js";

/**
 * @typedef {"pointer" | "typing" | "fields" | "key" | "script"} SensitiveBy
 * @typedef {{sensitive_by?: SensitiveBy | null, carries?: Readonly<Record<string, string>>}} Declaration
 * @typedef {Readonly<Record<string, Declaration>>} Declarations
 * @typedef {{uid?: unknown, selector?: unknown, point?: unknown}} Target
 * @typedef {{by: SensitiveBy, submits: boolean, typed: string[], keys: string[], forms: Record<string, any>[][],
 *   scripts: string[]}} Effect
 */

/**
 * The values at a carrier path (`fields[].value`; `[]` steps into each item of a list).
 * @param {unknown} value
 * @param {string[]} steps
 * @returns {unknown[]}
 */
function valuesAt(value, steps) {
  if (steps.length === 0) return value === undefined ? [] : [value];
  const [step, ...rest] = steps;
  const inner = value && typeof value === "object" ? /** @type {any} */ (value)[step.replace(/\[\]$/, "")] : undefined;
  if (inner === undefined || inner === null) return [];
  if (step.endsWith("[]")) return Array.isArray(inner) ? inner.flatMap((item) => valuesAt(item, rest)) : [];
  return valuesAt(inner, rest);
}

/**
 * The values of an action's fields whose declaration carries `kind`.
 * @param {Declaration | undefined} declaration
 * @param {Record<string, unknown>} action
 * @param {string} kind a carrier (spec.py Carries: "typed_text", "keys", "form_fields", "script", "submits", …)
 * @returns {unknown[]}
 */
export function carried(declaration, action, kind) {
  return Object.entries(declaration?.carries ?? {}).filter(([, what]) => what === kind)
    .flatMap(([path]) => valuesAt(action, path.split(".")));
}

/** @param {unknown[]} values */
const strings = (values) => values.flatMap((v) => (Array.isArray(v) ? v : [v])).filter((v) => typeof v === "string");

/**
 * What the action does, as its declaration says; null when it is declared never sensitive.
 * @param {string} type
 * @param {Record<string, unknown>} action
 * @param {Declarations} [actions] the declarations (the generated ones; a test adds its own)
 * @returns {Effect | null}
 */
export function effectOf(type, action, actions = /** @type {Declarations} */ (/** @type {unknown} */ (ACTIONS))) {
  const declaration = actions[type];
  const by = declaration?.sensitive_by ?? null;
  if (!by) return null;
  return {
    by,
    submits: carried(declaration, action, "submits").some((v) => v === true),
    typed: strings(carried(declaration, action, "typed_text")),
    keys: strings(carried(declaration, action, "keys")),
    forms: carried(declaration, action, "form_fields").filter(Array.isArray)
      .map((fields) => fields.filter((f) => f && typeof f === "object")),
    scripts: strings(carried(declaration, action, "script")),
  };
}

/**
 * The targets of an action (its own, and a drag's drop target), each with how a click there reads.
 * @param {Record<string, any>} action
 * @returns {[Target, "own" | "drop"][]}
 */
export function targetsOf(action) {
  return [[{ uid: action.uid, selector: action.selector, point: action.point }, "own"],
    [{ uid: action.to_uid, selector: action.to_selector, point: action.to_point }, "drop"]];
}
