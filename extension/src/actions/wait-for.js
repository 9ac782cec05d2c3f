/**
 * wait_for {uid|selector|text, state = visible, timeout_ms = 10000}
 *
 * Polls from the extension (every 50 ms for the first second, then 100 ms),
 * so it is not slowed by the timer throttling of background tabs. An element
 * is visible with a non-empty box and visibility: visible (as in Playwright);
 * text is visible when a person sees it (extract's judgement: page-seen.js).
 * Text matches case-insensitively with whitespace collapsed, in the page and
 * its open shadow roots. On timeout the error says what was seen last, quoting
 * only what a person sees.
 */

import { ACTIONS, ActionError, ErrorCode, quoting } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { onTaskTab, targetElement } from "../targets/action-target.js";
import { inWorld, onElement } from "../tabs/isolated-world.js";
import { checkElement, checkSelector, checkText } from "../page/wait-for.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";
import { shownBy } from "../extract/framed.js";
import { targetFrameOrigin } from "../extract/frame-origin.js";


/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {{done: boolean, seen: string, invalid?: string}} Check
 */

/**
 * @param {import("./support/context.js").ActionOf<"wait_for">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"wait_for">>}
 */
export async function waitFor(action, ctx) {
  const state = action.state ?? ACTIONS.wait_for.defaults.state;
  const timeoutMs = action.timeout_ms ?? ACTIONS.wait_for.defaults.timeout_ms;
  const what = action.text !== undefined ? `text ${JSON.stringify(action.text)}`
    : action.selector !== undefined ? `selector ${JSON.stringify(action.selector)}` : `${action.uid}`;

  return onTaskTab(action, ctx, async (tabId) => {
    const started = Date.now();
    const check = await checker(action, ctx, tabId, state);
    for (let polls = 0; ; polls++) {
      const last = await check();
      const elapsed = Date.now() - started;
      if (last.invalid) throw new ActionError(ErrorCode.INVALID_ACTION, `selector ${JSON.stringify(action.selector)} is not valid CSS (${last.invalid}); fix it`);
      if (last.done) return { state, seen: last.seen, elapsed_ms: elapsed, ...shownBy(await check.frame(), [last.seen]) };
      if (elapsed >= /** @type {number} */ (timeoutMs)) {
        throw new ActionError(ErrorCode.TIMEOUT,
          `waited ${timeoutMs} ms for ${what} to be ${state}; last seen: ${last.seen}. ` +
          "Do not repeat the same wait: extract to see what the page shows now, then decide",
          { ...quoting(last.seen), ...shownBy(await check.frame(), [last.seen]) });
      }
      await sleep(ctx, Math.min(elapsed < 1000 ? 50 : 100, /** @type {number} */ (timeoutMs) - elapsed));
    }
  });
}

/**
 * A check, and the origin of the frame of another origin that what it sees stands in (frame-origin.js).
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} state
 * @returns {Promise<(() => Promise<Check>) & {frame: () => Promise<string | undefined>}>}
 */
async function checker(action, ctx, tabId, state) {
  const check = await elementChecker(action, ctx, tabId, state);
  return Object.assign(check, { frame: () => targetFrameOrigin(ctx, tabId, /** @type {{uid?: string}} */ (action)) });
}

/**
 * @param {Record<string, unknown>} action
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {string} state
 * @returns {Promise<() => Promise<Check>>}
 */
async function elementChecker(action, ctx, tabId, state) {
  // What a check quotes (`seen`) is page text: read with the pixels deciding what page code could not (pixel-reads.js).
  /** @param {(pixels: import("../extract/run-in-page.js").Pixels) => Promise<Check>} read */
  const judged = (read, sessionId = /** @type {string | undefined} */ (undefined)) => readJudgedByPixels(ctx.debugger, tabId, sessionId, read);
  if (action.text !== undefined) return () => judged((pixels) => inWorld(ctx, tabId, checkText, [action.text, state], { pixels }));
  if (action.selector !== undefined) return () => judged((pixels) => inWorld(ctx, tabId, checkSelector, [action.selector, state], { pixels }));
  const gone = { done: state === "detached" || state === "hidden", seen: `${action.uid} is no longer in the page` };
  let element;
  try {
    element = await targetElement(action, ctx, tabId);
  } catch (err) {
    if (err instanceof ActionError && err.code === ErrorCode.ELEMENT_STALE && gone.done) return async () => gone;
    throw err;
  }
  return async () => {
    try {
      return await judged((pixels) => onElement(ctx, tabId, element, checkElement, [state], pixels), element.sessionId);
    } catch (err) {
      if (!(err instanceof CdpError)) throw err;
      if (gone.done) return gone;
      throw new ActionError(ErrorCode.ELEMENT_STALE, `${action.uid} is no longer in the page (it navigated or re-rendered); extract again`);
    }
  };
}

/**
 * @param {ActionContext} ctx
 * @param {number} ms
 */
function sleep(ctx, ms) {
  return new Promise((resolve) => ctx.timers.setTimeout(() => resolve(undefined), Math.max(0, ms)));
}

export { waitFor as handler };
