/**
 * In-page: text of a same-process frame that its parent document paints over (issue 18). A frame's document is
 * hit-tested in its own viewport, where nothing of the parent page exists: an overlay the parent places over the
 * <iframe> covers none of the frame's text there. The text's boxes are carried into the parent's coordinates
 * (the frame's content box) and judged there as the <iframe>'s own content: by hit testing (page-cover.js
 * coveredBy), outside the viewport by the parent's opaque boxes in paint order (coveredByPainters), and by the
 * decorations painted over it (page-decor.js), up through every frame that holds it.
 *
 * - `frameCovered(parts, win)`: whether the parent documents cover the text's visible boxes (in `win`'s
 *   viewport coordinates); false in a top-level document or another origin's frame.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageCover } from "./page-cover.js";
import { pageDecor } from "./page-decor.js";
import { pageRender } from "./page-render.js";

definePagePart(pageFrameCover, { uses: [pageCover, pageDecor, pageRender] });

/**
 * Adds frameCovered to lib (needs pageCover's coveredBy and coveredByPainters, pageDecor's decorationCovers, pageRender's styleOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageFrameCover(lib) {
  /** Frames nested deeper than this are judged in their own documents only. */
  const MAX_DEPTH = 6;

  /**
   * @param {{l: number, t: number, r: number, b: number}[]} parts @param {Window} win @param {number} [depth]
   * @returns {boolean}
   */
  const frameCovered = (parts, win, depth = 0) => {
    let frame = null;
    try {
      frame = win.frameElement; // null at the top and in another origin's frame
    } catch {
      return false;
    }
    if (!frame || !parts.length || depth >= MAX_DEPTH) return false;
    const outer = /** @type {Window} */ (frame.ownerDocument.defaultView);
    const cs = lib.styleOf(frame, outer);
    const box = frame.getBoundingClientRect();
    const dx = box.left + frame.clientLeft + (parseFloat(cs.paddingLeft) || 0);
    const dy = box.top + frame.clientTop + (parseFloat(cs.paddingTop) || 0);
    // The frame's content shows only in its content box: a text outside it now (scrolled out of the frame's
    // viewport) stands somewhere in that box once scrolled into view, so the parent must cover all of the box.
    const port = { l: dx, t: dy, r: dx + frame.clientWidth, b: dy + frame.clientHeight };
    const moved = parts.map((p) => {
      const [x, y] = [(p.l + p.r) / 2 + dx, (p.t + p.b) / 2 + dy];
      return x >= port.l && x < port.r && y >= port.t && y < port.b ? { l: p.l + dx, t: p.t + dy, r: p.r + dx, b: p.b + dy } : port;
    });
    if (lib.coveredBy(frame, moved, undefined, outer, frame) === "covered") return true;
    // Outside the viewport (hit testing cannot answer) the parent's opaque boxes are compared by paint order.
    if (lib.coveredByPainters(undefined, /** @type {any} */ (frame), frame, moved, { win: outer })) return true;
    if (lib.decorationCovers(frame, moved, outer, frame)) return true;
    return frameCovered(moved, outer, depth + 1);
  };
  lib.frameCovered = frameCovered;
}
