/**
 * Whether a script only reads, as the engine judges it (README "Safety model"): before the label check asks
 * about a script on a page that holds a sensitive control, each script the action's declaration says it carries
 * is run once with `Runtime.evaluate`'s `throwOnSideEffect`, V8's own side-effect check (the one DevTools'
 * eager evaluation relies on). It refuses, with an EvalError, anything that could change the page or send: a
 * DOM write, a call of a function the engine cannot prove pure (the page's own included: a getter or function
 * the page defined is checked as it runs), a network call, storage, a top-level declaration in REPL mode. A
 * script it runs through without an error changed nothing, so it has nothing to confirm; any error, a timeout
 * or a CDP failure leaves the decision to the label check, as before.
 */

/** How long the engine may spend proving a script pure before the label check decides instead. */
export const PROOF_TIMEOUT_MS = 500;

/**
 * @typedef {import("../wire/action-dispatcher.js").ActionContext} ActionContext
 */

/**
 * Whether every script is proven free of side effects in the tab's top frame, in the page's own world (where the
 * action runs them).
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string[]} scripts
 * @returns {Promise<boolean>} false when there is none
 */
export async function provedReadOnly(ctx, tabId, scripts) {
  if (scripts.length === 0) return false;
  try {
    for (const expression of scripts) {
      const reply = await ctx.debugger.send(tabId, "Runtime.evaluate", {
        expression, throwOnSideEffect: true, replMode: true, returnByValue: false, silent: true, userGesture: false,
        objectGroup: "bua-proof", timeout: PROOF_TIMEOUT_MS,
      });
      if (reply.exceptionDetails) return false;
    }
    return true;
  } catch {
    return false;
  } finally {
    ctx.debugger.send(tabId, "Runtime.releaseObjectGroup", { objectGroup: "bua-proof" }).catch(() => {});
  }
}
