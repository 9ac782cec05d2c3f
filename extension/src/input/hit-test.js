/**
 * Hit-testing before a click: would the event at the chosen point reach the
 * element, or something on top of it? Runs in the page with `this` = the
 * element (with what it declares it uses: page/page-code.js).
 */

import { definePageFunction } from "../page/page-code.js";
import { describeElement, disabledReason, hiddenReason } from "../page/functions.js";

/**
 * @typedef {{status: "ok", target: string}
 *   | {status: "detached"}
 *   | {status: "disabled", reason: string, target: string}
 *   | {status: "covered", by: string, target: string}
 *   | {status: "clipped", by: string, target: string}
 *   | {status: "missed", target: string}} HitResult
 */

/**
 * @this {any} the element
 * @param {number} x point in the element's frame, in the same space as the quads
 * @param {number} y
 * @param {number} quadsLeft left of the union of the element's quads (same space)
 * @param {number} quadsTop
 * @returns {HitResult}
 */
export function hitTestInPage(x, y, quadsLeft, quadsTop) {
  const el = this;
  if (!el.isConnected) return { status: "detached" };
  const target = describeElement(el);
  const disabled = disabledReason(el);
  if (disabled) return { status: "disabled", reason: disabled, target };
  const rect = el.getBoundingClientRect();
  const lx = x - quadsLeft + rect.left;
  const ly = y - quadsTop + rect.top;
  let hit = el.ownerDocument.elementFromPoint(lx, ly);
  // Into shadow roots: open ones, and closed ones that extract found (the library keeps them, host → root).
  const closed = globalThis.__bua && globalThis.__bua.closedRoots;
  for (let root = hit && (hit.shadowRoot || (closed && closed.get(hit))); root;
    root = hit.shadowRoot || (closed && closed.get(hit))) {
    const inner = root.elementFromPoint(lx, ly);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return { status: "missed", target };
  for (let node = hit; node; node = node.parentNode || node.host) {
    if (node === el) return { status: "ok", target };
  }
  const label = typeof hit.closest === "function" ? hit.closest("label") : null;
  if (label && label.control === el) return { status: "ok", target };
  for (let node = el.parentNode || el.host; node; node = node.parentNode || node.host) {
    if (node !== hit) continue;
    // What is there contains the element: it lets events through to it (pointer-events: none), or the element
    // is not drawn there (clipped by its container).
    const view = el.ownerDocument.defaultView;
    if (view && view.getComputedStyle(el).pointerEvents === "none") return { status: "ok", target };
    // Name the box that cuts it off (the nearest ancestor clipping its overflow), else what is there.
    let clipper = hit;
    for (let up = el.parentElement; view && up && up !== hit; up = up.parentElement) {
      const style = view.getComputedStyle(up);
      if (style.overflowX !== "visible" || style.overflowY !== "visible") {
        clipper = up;
        break;
      }
    }
    return { status: "clipped", by: describeElement(clipper), target };
  }
  return { status: "covered", by: describeElement(hit), target };
}
definePageFunction(hitTestInPage, { uses: [describeElement, disabledReason] });

/**
 * The part of `rect` (client coordinates) a person can see: inside the viewport and inside every ancestor
 * that clips its overflow (scroll boxes, overflow: hidden), up to a fixed-position ancestor. `clipper` names
 * the box that hides it all, when one does (null for the viewport).
 * @param {any} el
 * @param {{left: number, top: number, right: number, bottom: number}} rect
 * @param {number} width viewport
 * @param {number} height
 * @returns {{box: {left: number, top: number, w: number, h: number} | null, clipper: any}}
 */
export function visiblePart(el, rect, width, height) {
  let left = Math.max(rect.left, 0);
  let top = Math.max(rect.top, 0);
  let right = Math.min(rect.right, width);
  let bottom = Math.min(rect.bottom, height);
  if (right <= left || bottom <= top) return { box: null, clipper: null };
  const view = el.ownerDocument.defaultView;
  const doc = el.ownerDocument;
  let fixed = view.getComputedStyle(el).position === "fixed";
  for (let node = el.parentElement || (el.getRootNode && el.getRootNode().host) || null; node && !fixed;
    node = node.parentElement || (node.getRootNode && node.getRootNode().host) || null) {
    if (node === doc.body || node === doc.documentElement) break;
    const style = view.getComputedStyle(node);
    fixed = style.position === "fixed";
    const clipX = style.overflowX !== "visible";
    const clipY = style.overflowY !== "visible";
    if (!clipX && !clipY) continue;
    const box = node.getBoundingClientRect();
    const l = box.left + node.clientLeft;
    const t = box.top + node.clientTop;
    if (clipX) {
      left = Math.max(left, l);
      right = Math.min(right, l + node.clientWidth);
    }
    if (clipY) {
      top = Math.max(top, t);
      bottom = Math.min(bottom, t + node.clientHeight);
    }
    if (right <= left || bottom <= top) return { box: null, clipper: node };
  }
  return { box: { left, top, w: right - left, h: bottom - top }, clipper: null };
}
definePageFunction(visiblePart);

/**
 * For an element of the tab's top frame, all of the aiming in one call: scroll
 * it into view when it is not fully visible (instantly, whatever the page's
 * scroll-behavior), choose the centre of its largest visible box and
 * hit-test that point. Elements in frames answer {status: "in_frame"} and are
 * aimed through CDP instead.
 * @this {any}
 * @returns {(HitResult & {point?: {x: number, y: number}}) | {status: "in_frame"}
 *   | {status: "no_box" | "outside_viewport", target: string, reason: string}}
 */
export function aimInPage() {
  const el = this;
  if (!el.isConnected) return { status: "detached" };
  const view = el.ownerDocument.defaultView;
  if (!view || view !== view.top) return { status: "in_frame" };
  const width = view.visualViewport ? view.visualViewport.width : view.innerWidth;
  const height = view.visualViewport ? view.visualViewport.height : view.innerHeight;
  const bounds = el.getBoundingClientRect();
  const seen = visiblePart(el, bounds, width, height).box;
  // Not all of it is visible: scroll every scrolling ancestor (scroll boxes, then the page) to bring it to the
  // middle, at once whatever the page's scroll-behavior.
  if (!seen || seen.w * seen.h < bounds.width * bounds.height - 1) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
  }
  const rects = Array.from(el.getClientRects()).filter((r) => r.width >= 1 && r.height >= 1);
  const target = describeElement(el);
  if (rects.length === 0) return { status: "no_box", target, reason: hiddenReason(el) || "not rendered" };
  let best = null;
  let clipper = null;
  for (const r of rects) {
    const part = visiblePart(el, r, width, height);
    clipper = clipper || part.clipper;
    if (part.box && (!best || part.box.w * part.box.h > best.w * best.h)) best = part.box;
  }
  if (!best) return { status: "outside_viewport", target, reason: clipper ? describeElement(clipper) : "" };
  const round = (/** @type {number} */ v) => Math.round(v * 100) / 100;
  const point = { x: round(best.left + best.w / 2), y: round(best.top + best.h / 2) };
  const now = el.getBoundingClientRect();
  const centre = hitTestInPage.call(el, point.x, point.y, now.left, now.top);
  const drawn = el.namespaceURI === "http://www.w3.org/2000/svg";
  if (!drawn || (centre.status !== "covered" && centre.status !== "missed")) return { ...centre, point };
  // A drawn shape's box centre need not be on it (a pie slice, a ring, its label drawn over it): the first point
  // of a grid over its visible box that reaches it, nearest the centre first; else the centre's answer. (A box
  // element covered at its centre stays covered: the page put something over it.)
  const steps = [0.5, 0.3, 0.7, 0.15, 0.85];
  for (const fy of steps) {
    for (const fx of steps) {
      if (fx === 0.5 && fy === 0.5) continue;
      const at = { x: round(best.left + best.w * fx), y: round(best.top + best.h * fy) };
      const hit = hitTestInPage.call(el, at.x, at.y, now.left, now.top);
      if (hit.status === "ok") return { ...hit, point: at };
    }
  }
  return { ...centre, point };
}
definePageFunction(aimInPage, { uses: [visiblePart, describeElement, hiddenReason, hitTestInPage] });

/**
 * The not_interactable message for a hit-test result, or "" when the click can go ahead.
 * @param {HitResult} hit
 * @param {{x: number, y: number}} point
 * @param {string} verb "click" or "hover"
 * @returns {string}
 */
export function hitProblem(hit, point, verb) {
  const at = `(${Math.round(point.x)}, ${Math.round(point.y)})`;
  switch (hit.status) {
    case "ok":
      return "";
    case "disabled":
      return `${hit.target} cannot be used: ${hit.reason}; fill in what it depends on first, or pick another element`;
    case "covered":
      return `${hit.target} is covered by ${hit.by} at ${at}: a ${verb} there would reach that element instead; ` +
        "close or dismiss it first (a dialog, cookie banner or overlay), or scroll, then retry";
    case "clipped":
      return `${hit.target} is not drawn at ${at}: it is cut off inside ${hit.by} (nothing covers it); scroll that ` +
        "container (scroll with its uid or selector) or extract again";
    case "missed":
      return `nothing in the page is at ${at} where ${hit.target} should be; scroll or extract again`;
    default:
      return "the element is no longer in the page; extract again";
  }
}
