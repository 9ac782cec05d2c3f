/**
 * In-page: a sticky box's static position S along one axis as the engine itself places it (issue 18;
 * page-sticky.js asks), read from a `ViewTimeline` whose subject is the box — no scrolling, no change to the page
 * (a timeline nothing animates with attaches to nothing and repaints nothing).
 *
 * Blink places a view timeline's subject with every sticky offset ignored (its own and its sticky ancestors'),
 * then widens the range by how far the box can stick (third_party/blink/renderer/core/animation/view_timeline.cc,
 * ApplyStickyAdjustments). So, H being the scrollport's size and h the box's: with only a start inset (`top`,
 * `left`) the timeline's start offset is S − H, unless the inset is larger than the port; with only an end inset
 * (`bottom`, `right`) or none, its end offset is S + h, unless the inset is larger than the port; with both insets
 * both offsets are the containing block's edges and S is not in them (null: page-sticky-static.js reads it from
 * layout where it can). Any layout: block, flex, grid, table, inline. A timeline whose source is not the box's
 * scroll container is not used.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageStickyEngine, { uses: [] });

/**
 * Adds stickyStaticByEngine to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageStickyEngine(lib) {
  /**
   * @param {Element} pin a sticky box @param {Window} win @param {"x" | "y"} axis
   * @param {{el: Element | null, H: number}} f its scroll frame along the axis (page-sticky.js frameOf)
   * @param {{start: number | null, end: number | null, size: number}} ins its insets along the axis (null: auto)
   *   and its border box's size
   * @returns {number | null} S in the frame's content coordinates, every sticky offset ignored
   */
  lib.stickyStaticByEngine = (pin, win, axis, f, ins) => {
    const VT = /** @type {any} */ (win).ViewTimeline;
    if (typeof VT !== "function" || (ins.start !== null && ins.end !== null)) return null;
    if ((ins.start ?? ins.end ?? 0) > f.H) return null;
    let v;
    try {
      // An inset left auto is the scroller's scroll-padding: zero, so the offsets are the box's own.
      v = new VT({ subject: pin, axis, inset: "0px 0px" });
    } catch {
      return null;
    }
    const doc = win.document;
    const source = v.source;
    if (!source || (f.el ? source !== f.el : source !== doc.scrollingElement && source !== doc.documentElement)) return null;
    const start = v.startOffset;
    const end = v.endOffset;
    if (!start || !end) return null;
    const at = ins.start !== null ? parseFloat(String(start)) + f.H : parseFloat(String(end)) - ins.size;
    return Number.isFinite(at) ? at : null;
  };
}
