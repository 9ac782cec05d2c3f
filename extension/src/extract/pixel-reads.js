/**
 * A page function's read of page text, with the texts page code could not judge decided by the pixels (issue 18;
 * page-pixels.js, pixel-judge.js): what extract and find get through callPage (run-in-page.js), for the readers
 * that run their own page functions (wait_for's checks, select_text, an element's description). The read runs;
 * when it left texts to the pixels and any of them is hidden, or texts waited past the ones asked, it runs again
 * with the verdicts held for it (a read changes nothing, so reading twice is safe), and the verdicts are dropped
 * after. Texts still waiting once the rounds are spent are left out (page-pixels.js PAST_BUDGET), never kept unjudged.
 */

import { MAX_PIXEL_ROUNDS, callLibrary, mainFrameId, pixelVerdicts } from "./run-in-page.js";

/**
 * @template T
 * @param {import("../tabs/debugger-controller.js").DebuggerController} dbg
 * @param {number} tabId
 * @param {string | undefined | (() => string | undefined)} sessionId the session the read ran in, or a function
 *   that tells after it ran (another origin's frame has its own session, not captured: its undecided texts stay
 *   kept)
 * @param {() => Promise<T>} read
 * @param {boolean} [hold] leave the verdicts in the page for the page functions that follow (an input action reads
 *   its target's text as it acts, and cannot act twice), for a few seconds (page-pixels.js pixelHold)
 * @returns {Promise<T>}
 */
export async function readJudgedByPixels(dbg, tabId, sessionId, read, hold = false) {
  let value = await read();
  if ((typeof sessionId === "function" ? sessionId() : sessionId) !== undefined) return value;
  const frame = { tabId, frameId: await mainFrameId(dbg, tabId) };
  const mask = (/** @type {number[] | null} */ ids) => callLibrary(dbg, frame, "pixelMask", [{ value: ids }]);
  /** @type {import("./pixel-judge.js").Verdict[]} */
  const verdicts = [];
  let rest = false;
  try {
    for (let round = 0; ; round++) {
      const asked = (await callLibrary(dbg, frame, "pixelAsked")).value;
      if (!asked || (!asked.asks?.length && !asked.left)) break;
      if (round >= MAX_PIXEL_ROUNDS) {
        // No round left for the texts still waiting: read once more leaving them out (page-pixels.js PAST_BUDGET).
        rest = true;
        await callLibrary(dbg, frame, "pixelCall", [{ value: { verdicts, rest } }]);
        value = await read();
        break;
      }
      const found = await pixelVerdicts(dbg, frame, asked.asks, mask);
      if (!asked.left && !found.some((v) => v.hidden)) break;
      verdicts.push(...found);
      await callLibrary(dbg, frame, "pixelCall", [{ value: verdicts }]); // held for the next read
      value = await read();
    }
  } finally {
    if (verdicts.length || rest) await callLibrary(dbg, frame, "pixelAsked");
    if (verdicts.length && hold) await callLibrary(dbg, frame, "pixelHold", [{ value: verdicts }]);
  }
  return value;
}
