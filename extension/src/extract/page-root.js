/**
 * In-page: what a document's root element and <body> do to everything in it (issue 18). Readers walk from the
 * body's children (page-walker.js) or up to the root (page-seen.js), so the two elements every text stands in were
 * never judged as painters: a `<body>` or `<html>` with opacity 0, a filter or a mask hid the whole document from
 * a person, and a `<body>` that clips its own overflow (its overflow not taken by the viewport, because the root
 * element sets one) hid everything below its box, unreachable by scrolling, while every reader read it.
 *
 * - `rootContext(doc, rc)`: the render context (page-render.js) the document's content is judged in: the root
 *   element's, then the body's, from `rc` (a frame's context from its <iframe>, or none at the top). An overflow
 *   the viewport takes (the root's, or the body's when the root's is `visible`) is the document's scrollable area
 *   (page-render.js areasOf), not a clip of the element's box. `hidden` says why nothing of the document shows.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pageRoot, { uses: [pageRender] });

/**
 * Adds rootContext to lib (needs pageRender's renderContext and styleOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageRoot(lib) {
  /** @param {CSSStyleDeclaration} cs a style whose overflow the viewport takes, read as not clipping its box */
  const unclipped = (cs) => /** @type {CSSStyleDeclaration} */ (Object.create(cs, {
    overflowX: { value: "visible" }, overflowY: { value: "visible" },
  }));

  /**
   * @param {Document} doc @param {any} rc the context the document is painted in (undefined at the top)
   * @returns {any} the render context its body's children are judged in
   */
  lib.rootContext = (doc, rc) => {
    const win = /** @type {Window} */ (doc.defaultView);
    const known = (lib.factsOf(win).rootContexts ??= new Map());
    if (known.has(rc)) return known.get(rc);
    const root = doc.documentElement;
    const rootStyle = lib.styleOf(root, win);
    let out = lib.renderContext(root, unclipped(rootStyle), { win, rc });
    const body = doc.body;
    if (body && !out.hidden) {
      const bodyStyle = lib.styleOf(body, win);
      // The body's overflow goes to the viewport when the root's is visible (CSS Overflow 3, overflow propagation).
      const viewportTakes = rootStyle.overflowX === "visible" && rootStyle.overflowY === "visible";
      out = lib.renderContext(body, viewportTakes ? unclipped(bodyStyle) : bodyStyle, { win, rc: out });
    }
    known.set(rc, out);
    return out;
  };
}
