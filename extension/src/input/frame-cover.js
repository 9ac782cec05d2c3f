/**
 * The top page's layer of the hit-test, for elements inside frames: the
 * in-frame hit-test cannot see an overlay of the parent page lying over the
 * <iframe> (a cookie wall, a modal backdrop). At the press point, the top
 * document must show a frame element; anything else covers the target.
 * Runs in bua's isolated world, so a page cannot fake elementFromPoint.
 */

import { contextOf } from "../extract/run-in-page.js";
import { topFrameId } from "../tabs/isolated-world.js";

/** In the page: "" when a frame element is on top at (x, y), else a description of what is. */
const PROBE = `(x, y) => {
  const el = document.elementFromPoint(x, y);
  if (!el || el.tagName === "IFRAME" || el.tagName === "FRAME") return "";
  const id = el.id ? "#" + el.id : "";
  const cls = typeof el.className === "string" && el.className.trim() ? "." + el.className.trim().split(/\\s+/).join(".") : "";
  const text = (el.innerText || el.textContent || "").trim().replace(/\\s+/g, " ").slice(0, 40);
  return el.tagName.toLowerCase() + id + cls + (text ? " " + JSON.stringify(text) : "");
}`;

/**
 * @param {import("../wire/action-dispatcher.js").ActionContext} ctx
 * @param {number} tabId
 * @param {{x: number, y: number}} point top-viewport CSS pixels
 * @returns {Promise<string>} "" when nothing of the top page covers the frame there
 */
export async function topPageCover(ctx, tabId, point) {
  const frame = { tabId, frameId: await topFrameId(ctx, tabId) };
  const contextId = await contextOf(ctx.debugger, frame);
  const reply = await ctx.debugger.send(tabId, "Runtime.evaluate", {
    expression: `(${PROBE})(${point.x}, ${point.y})`, contextId, returnByValue: true,
  });
  return typeof reply.result?.value === "string" ? reply.result.value : "";
}
