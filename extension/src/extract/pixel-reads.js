/**
 * A page function's read of page text, with the texts page code could not judge decided by the pixels (issue 18;
 * page-pixels.js, pixel-judge.js): what extract and find get through callPage (run-in-page.js), for the readers
 * that run their own page functions (wait_for's checks, select_text, an element's description). Each page call of
 * the read carries the texts it left to the pixels back on its own answer (run-in-page.js withPixels), so a read
 * that left none (an ordinary page) costs nothing more. When it left some and any of them is hidden, or texts
 * waited past the ones asked, it runs again with the verdicts sent along (a read changes nothing, so reading twice
 * is safe). Texts still waiting once the rounds are spent are left out (page-pixels.js PAST_BUDGET), never kept
 * unjudged.
 */

import { MAX_PIXEL_ROUNDS, callLibrary, mainFrameId, pixelVerdicts, unjudged } from "./run-in-page.js";

/**
 * @typedef {import("./run-in-page.js").Pixels} Pixels
 * @typedef {string | undefined | (() => string | undefined)} SessionOf the session the read ran in, or a function
 *   that tells after it ran: its main frame's library registered the texts the read asked (a same-process frame's
 *   texts are read through its top document's library), so it masks them; another origin's frame is painted in
 *   the tab and its texts are placed there (pixel-judge.js)
 */

/**
 * @template T
 * @param {import("../tabs/debugger-controller.js").DebuggerController} dbg
 * @param {number} tabId
 * @param {SessionOf} sessionId
 * @param {(pixels: Pixels) => Promise<T>} read gives `pixels` to each of its page calls (isolated-world.js)
 * @param {boolean} [hold] leave the verdicts in the page for the page functions that follow (an input action reads
 *   its target's text as it acts, and cannot act twice), for a few seconds (page-pixels.js pixelHold)
 * @returns {Promise<T>}
 */
export async function readJudgedByPixels(dbg, tabId, sessionId, read, hold = false) {
  const pixels = unjudged();
  const value = await read(pixels);
  const again = await judgedAgain(dbg, tabId, sessionId, pixels, read, hold);
  return again ? again.value : value;
}

/**
 * After a read whose page calls left texts to the pixels (`pixels`): their verdicts, and when any is hidden or more
 * texts waited, `reread` with them (a few rounds: a read that stops at its first match may meet new such texts past
 * a hidden one; once they are spent, one more reread leaves what still waits out). An input action's own call,
 * which acts and cannot run twice, rereads with a call that only describes.
 * @template T
 * @param {import("../tabs/debugger-controller.js").DebuggerController} dbg
 * @param {number} tabId
 * @param {SessionOf} sessionId
 * @param {Pixels} pixels the first read's
 * @param {(pixels: Pixels) => Promise<T>} reread
 * @param {boolean} hold the verdicts are also held in the page (readJudgedByPixels), before each reread
 * @returns {Promise<{value: T} | null>} the last reread, or null when nothing needed one
 */
export async function judgedAgain(dbg, tabId, sessionId, pixels, reread, hold) {
  if (!pixels.asked.length && !pixels.left) return null;
  const session = typeof sessionId === "function" ? sessionId() : sessionId;
  const frame = { tabId, sessionId: session, frameId: await mainFrameId(dbg, tabId, session) };
  const mask = (/** @type {number[] | null} */ ids) => callLibrary(dbg, frame, "pixelMask", [{ value: ids }]);
  /** @type {import("./pixel-judge.js").Verdict[]} */
  const verdicts = [];
  /** @type {{value: T} | null} */
  let last = null;
  for (let round = 0, { asked, left } = pixels; asked.length || left; round++) {
    if (round >= MAX_PIXEL_ROUNDS) {
      // No round left for the texts still waiting: read once more leaving them out (page-pixels.js PAST_BUDGET).
      last = { value: await reread({ verdicts: { verdicts: [...verdicts], rest: true }, asked: [], left: 0 }) };
      break;
    }
    const found = await pixelVerdicts(dbg, frame, asked, mask);
    if (!left && !found.some((v) => v.hidden)) break;
    verdicts.push(...found);
    if (hold && verdicts.length) await callLibrary(dbg, frame, "pixelHold", [{ value: verdicts }]);
    const next = { verdicts: [...verdicts], asked: [], left: 0 };
    last = { value: await reread(next) };
    ({ asked, left } = next);
  }
  return last;
}
