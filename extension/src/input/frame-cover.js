/**
 * The top page's layer of the hit-test, for elements inside frames: the
 * in-frame hit-test cannot see an overlay of the parent page lying over the
 * <iframe> (a cookie wall, a modal backdrop). At the press point, the top
 * document must show a frame element; anything else covers the target.
 * Runs in bua's isolated world, so a page cannot fake elementFromPoint.
 */

import { inWorld } from "../tabs/isolated-world.js";
import { describeElement } from "../page/functions.js";
import { definePageFunction } from "../page/page-code.js";

/**
 * In the page: "" when a frame element is on top at (x, y), else a description of what is (describeElement:
 * only what a person sees of it is quoted).
 * @param {number} x
 * @param {number} y
 */
function probeCover(x, y) {
  const el = document.elementFromPoint(x, y);
  if (!el || el.tagName === "IFRAME" || el.tagName === "FRAME") return "";
  return describeElement(el);
}
definePageFunction(probeCover, { uses: [describeElement] });

/**
 * @param {import("../wire/action-dispatcher.js").ActionContext} ctx
 * @param {number} tabId
 * @param {{x: number, y: number}} point top-viewport CSS pixels
 * @returns {Promise<string>} "" when nothing of the top page covers the frame there
 */
export async function topPageCover(ctx, tabId, point) {
  const cover = await inWorld(ctx, tabId, probeCover, [point.x, point.y]);
  return typeof cover === "string" ? cover : "";
}
