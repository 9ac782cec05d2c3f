/**
 * The one map from action type to handler. Each action declared in the Python declarations
 * (app/protocol/actions/, generated into ../generated/) has its handler in the module named after it
 * (`press_key` → ./press-key.js, exported as `handler`; shared helpers live in ./support/), gathered by the
 * generated ../generated/handlers.js (`make schema`); the type check refuses a handler whose action or result is
 * not its declaration's
 * (../generated/protocol-types.d.ts), and a node test (test/handlers.test.js) refuses a module that is not named
 * after a declared action. How a handler is wrapped comes from its declaration (ACTIONS[type].change_list:
 * extract/action-changes.js), never from this file.
 */

import { ACTIONS } from "../protocol.js";
import { withChangeList } from "../extract/action-changes.js";
import { ACTION_HANDLERS } from "../generated/handlers.js";

export { ACTION_HANDLERS };

/**
 * @typedef {import("./support/context.js").HandlerMap} HandlerMap
 * @typedef {import("./support/context.js").ActionType} ActionType
 */

/**
 * The handlers the dispatcher runs: each wrapped as its declaration says.
 * @type {Readonly<HandlerMap>}
 */
export const HANDLERS = Object.freeze(declared(ACTION_HANDLERS));

/**
 * @param {HandlerMap} handlers
 * @returns {HandlerMap}
 */
function declared(handlers) {
  const out = /** @type {Record<string, unknown>} */ ({});
  for (const type of /** @type {ActionType[]} */ (Object.keys(handlers))) {
    const when = ACTIONS[type]?.change_list;
    out[type] = when ? withChangeList(handlers[type], when) : handlers[type];
  }
  return /** @type {HandlerMap} */ (out);
}
