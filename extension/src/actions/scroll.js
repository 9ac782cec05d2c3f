/**
 * scroll {direction, amount?} | {uid|selector}
 *
 * With a direction: scrolls the page by `amount` CSS pixels (default 90% of
 * the viewport, so a line cut at the edge stays in view); when the page
 * itself cannot scroll that way, the largest visible scrollable container
 * (an app's main pane) is scrolled instead. Done in the page with
 * `behavior: "instant"`, so it works the same in background tabs.
 * With an element: scrolls it into view (centred when it was off screen).
 * The result gives the new position and whether anything moved.
 */

import { CdpError } from "../tabs/debugger-controller.js";
import { nodeError, onTaskTab, targetElement } from "../targets/action-target.js";
import { inWorld, onElement } from "../tabs/isolated-world.js";
import { definePageFunction } from "../page/page-code.js";
import { describeElement } from "../page/functions.js";

/** @typedef {import("./support/context.js").ActionContext} ActionContext */


/**
 * In the page: scroll the page (or its main scroll container) one step.
 * @param {string} direction
 * @param {number | null} amount
 */
function scrollStep(direction, amount) {
  const vertical = direction === "up" || direction === "down";
  const sign = direction === "down" || direction === "right" ? 1 : -1;
  const page = document.scrollingElement || document.documentElement;
  const room = (/** @type {any} */ el) => (vertical ? el.scrollHeight - el.clientHeight : el.scrollWidth - el.clientWidth);
  const scrollable = (/** @type {any} */ el) => {
    if (room(el) <= 1) return false;
    if (el === page) return true;
    const style = getComputedStyle(el);
    return /(auto|scroll|overlay)/.test(vertical ? style.overflowY : style.overflowX);
  };
  let target = page;
  if (!scrollable(page)) {
    let bestArea = 0;
    for (const el of document.querySelectorAll("body *")) {
      if (el.clientHeight < 50 || el.clientWidth < 50 || !scrollable(el)) continue;
      const rect = el.getBoundingClientRect();
      const area = Math.max(0, Math.min(rect.right, innerWidth) - Math.max(rect.left, 0))
        * Math.max(0, Math.min(rect.bottom, innerHeight) - Math.max(rect.top, 0));
      if (area > bestArea) {
        bestArea = area;
        target = el;
      }
    }
  }
  const isPage = target === page;
  const viewport = vertical ? (isPage ? innerHeight : target.clientHeight) : (isPage ? innerWidth : target.clientWidth);
  const step = amount ?? Math.max(1, Math.round(viewport * 0.9));
  const before = { x: target.scrollLeft, y: target.scrollTop };
  target.scrollBy({ left: vertical ? 0 : sign * step, top: vertical ? sign * step : 0, behavior: "instant" });
  const x = Math.round(target.scrollLeft);
  const y = Math.round(target.scrollTop);
  const max = { x: Math.max(0, target.scrollWidth - target.clientWidth), y: Math.max(0, target.scrollHeight - target.clientHeight) };
  const pos = vertical ? y : x;
  const end = vertical ? max.y : max.x;
  return {
    container: isPage ? "page" : describeElement(target).split(" ")[0],
    x, y, max_x: Math.round(max.x), max_y: Math.round(max.y),
    moved: x !== Math.round(before.x) || y !== Math.round(before.y),
    moved_by: vertical ? y - Math.round(before.y) : x - Math.round(before.x),
    at_start: pos <= 1, at_end: pos >= end - 1,
  };
}
definePageFunction(scrollStep, { uses: [describeElement] });

/**
 * In the page: where the element and the page are after scrolling it into view.
 * @this {any}
 */
function positionOf() {
  const rect = this.getBoundingClientRect();
  const inView = rect.bottom > 0 && rect.right > 0 && rect.top < innerHeight && rect.left < innerWidth;
  return {
    target: describeElement(this),
    in_view: inView,
    top: Math.round(rect.top),
    x: Math.round(scrollX),
    y: Math.round(scrollY),
  };
}
definePageFunction(positionOf, { uses: [describeElement] });

/**
 * @param {import("./support/context.js").ActionOf<"scroll">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"scroll">>}
 */
export async function scroll(action, ctx) {
  const hasTarget = action.uid !== undefined || action.selector !== undefined;
  const amount = action.amount ?? null;
  return onTaskTab(action, ctx, async (tabId) => {
    if (!hasTarget) return scrolledResult(await inWorld(ctx, tabId, scrollStep, [action.direction, amount]), String(action.direction));
    const element = await targetElement(action, ctx, tabId);
    try {
      await ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId);
      return { scrolled_to: "element", ...(await onElement(ctx, tabId, element, positionOf)) };
    } catch (err) {
      throw err instanceof CdpError ? nodeError(err) : err;
    }
  });
}

/**
 * @param {{container: string, moved: boolean, at_start?: boolean, at_end?: boolean} & Record<string, unknown>} r
 *   what scrollStep saw
 * @param {string} direction
 */
function scrolledResult(r, direction) {
  const towardsEnd = direction === "down" || direction === "right";
  const edge = direction === "down" ? "bottom" : direction === "up" ? "top" : direction === "left" ? "left edge" : "right edge";
  const where = r.container === "page" ? "the page" : r.container;
  if (!r.moved) {
    return { ...r, note: `${where} is already at the ${edge}; nothing more to scroll ${direction}` };
  }
  if (towardsEnd ? r.at_end : r.at_start) return { ...r, note: `reached the ${edge} of ${where}` };
  return r;
}

export { scroll as handler };
