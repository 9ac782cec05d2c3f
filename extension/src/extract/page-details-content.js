/**
 * In-page: an open `<details>`'s `::details-content` box as an ancestor of its children but the summary (issue 18).
 * The box that holds a details element's content (CSS Overflow 5) takes filter, opacity, clip-path, mask, overflow
 * with a height, content-visibility, transform, like any element's, but it is on no element a walk reads: its
 * computed style is the browser's (`getComputedStyle(details, "::details-content")`), and its box is not exposed to
 * page code. `detailsContent(el, win)` gives a stand-in for that box, so page-render.js renderContext judges it
 * with the same code as an ordinary ancestor (its children's boxes already carry its transform: layout applies it).
 *
 * - `detailsContent(el, win)`: for an open <details>, `{box, cs}`: a stand-in element whose border box is where
 *   the content box is laid out (below the summary, the details' content width, the height the browser computed),
 *   and the box's computed style; null for anything else.
 * - `isDetailsSummary(el)`: whether el is the summary its <details> paints outside that box.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageDetailsContent, { uses: [] });

/**
 * Adds detailsContent and isDetailsSummary to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageDetailsContent(lib) {
  /** @param {Element} el whether it is the summary of its <details> (painted outside ::details-content) */
  lib.isDetailsSummary = (el) => el.tagName === "SUMMARY" && el.parentElement?.tagName === "DETAILS"
    && el.parentElement.querySelector(":scope > summary") === el;

  /** @param {string} v a computed length @returns {number} */
  const px = (v) => parseFloat(v) || 0;

  /**
   * @param {Element} el @param {Window} win
   * @returns {{box: any, cs: CSSStyleDeclaration} | null}
   */
  lib.detailsContent = (el, win) => {
    if (el.tagName !== "DETAILS" || !(/** @type {any} */ (el).open)) return null;
    const cs = win.getComputedStyle(el, "::details-content");
    if (cs.display === "none" || !cs.display) return null;
    /** @returns {DOMRect} where the content box stands: the details' content box, below its summary */
    const rect = () => {
      const host = win.getComputedStyle(el);
      const outer = el.getBoundingClientRect();
      const summary = el.querySelector(":scope > summary");
      const below = summary && summary.getClientRects().length
        ? summary.getBoundingClientRect().bottom + px(win.getComputedStyle(summary).marginBottom)
        : outer.top + px(host.borderTopWidth) + px(host.paddingTop);
      const left = outer.left + px(host.borderLeftWidth) + px(host.paddingLeft) + px(cs.marginLeft);
      const top = below + px(cs.marginTop);
      const sized = cs.boxSizing === "border-box" ? 0 : 1;
      const w = px(cs.width) + sized * (px(cs.paddingLeft) + px(cs.paddingRight) + px(cs.borderLeftWidth) + px(cs.borderRightWidth));
      const h = px(cs.height) + sized * (px(cs.paddingTop) + px(cs.paddingBottom) + px(cs.borderTopWidth) + px(cs.borderBottomWidth));
      return new (/** @type {any} */ (win).DOMRect)(left, top, w, h);
    };
    let known = /** @type {DOMRect | null} */ (null);
    // The members page-render.js and the parts it asks (page-clip-shape.js, page-svg-effects.js) read of an element.
    const box = {
      tagName: "::DETAILS-CONTENT", ownerDocument: el.ownerDocument, open: false,
      getBoundingClientRect: () => (known ??= rect()),
      getRootNode: () => el.getRootNode(), checkVisibility: () => true,
      get clientLeft() { return px(cs.borderLeftWidth); }, get clientTop() { return px(cs.borderTopWidth); },
      scrollLeft: 0, scrollTop: 0,
      get scrollWidth() { return box.getBoundingClientRect().width; }, get scrollHeight() { return box.getBoundingClientRect().height; },
    };
    return { box, cs };
  };
}
