/**
 * In-page: one scan of the document's rendered tree per call, shared by the judgement's document-wide lists
 * (issue 18 speed): the outlines, box shadows and atomic boxes page-decor.js places, and the opaque layers
 * page-paint-order.js `paintersOf` lists for text hit testing cannot judge.
 *
 * - `renderedScan(win)`: the elements under <body> in tree order, then those of each shadow root met (open, and
 *   closed ones page-shadow.js resolved; its content inside when its host is), each with its
 *   computed style (page-render.js styleOf, read once per call) and whether it stands inside a picture
 *   (an image, video, canvas, SVG, frame, object or embed) or a box that is never boxed (a script, a style, a
 *   template, …): page-decor.js places no decoration there, page-paint-order.js still asks (an SVG
 *   <foreignObject>'s HTML paints). A `display: none` box and its content are left out: nothing there has a box
 *   (a top-layer dialog or popover inside one neither: measured on Chromium 156), so no list could hold it (a
 *   hidden menu's element no longer pays each list's style reads to be dropped by its display or its box).
 *
 * Before, each list walked the document itself (a TreeWalker with a filter calling back into script per element,
 * and `querySelectorAll("body *")`); the scan walks it once by its element links. What each list reads of an
 * element stays in that list's part: a new document-wide check adds its own loop over the scan.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";
import { pageShadow } from "./page-shadow.js";

definePagePart(pageScan, { uses: [pageRender, pageShadow] });

/**
 * Adds renderedScan to lib (needs pageRender's factsOf and styleOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageScan(lib) {
  /** Boxes whose content page-decor.js never decorates: their pictures' insides, their never-boxed elements. */
  const PICTURES = new Set(["IMG", "VIDEO", "CANVAS", "svg", "IFRAME", "OBJECT", "EMBED"]);
  const UNBOXED = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "LINK", "META"]);

  /**
   * @typedef {{els: Element[], styles: CSSStyleDeclaration[], inside: number[]}} Scan inside[i]: 1 when els[i] is
   *   a never-boxed element or stands inside a picture or a never-boxed element
   */

  /** @param {Window} win @returns {Scan} the document's rendered tree, once per call */
  lib.renderedScan = (win) => {
    const facts = lib.factsOf(win);
    if (facts.renderedScan) return facts.renderedScan;
    /** @type {Element[]} */
    const els = [];
    /** @type {CSSStyleDeclaration[]} */
    const styles = [];
    /** @type {number[]} */
    const inside = [];
    /** @param {Element} e @returns {ShadowRoot | null} its shadow root, open or closed (page-shadow.js resolved) */
    const rootOf = (e) => lib.shadowOf(e);
    const body = win.document.body;
    /** @type {[Element | null, Node, number][]} the trees to walk: the body's, then each shadow root met, each with
     *  whether its content is inside (its host's mark) */
    const trees = body ? [[body.firstElementChild, body, 0]] : [];
    for (let t = 0; t < trees.length; t++) {
      const [first, top, base] = /** @type {[Element | null, Node, number]} */ (trees[t]);
      /** @type {number[]} whether each open ancestor's content is inside (1) or not (0), innermost last */
      const within = [];
      let e = first;
      while (e) {
        const cs = lib.styleOf(e, win);
        const tag = e.tagName;
        const outer = within.length ? within[within.length - 1] : base;
        const mark = outer || UNBOXED.has(tag) ? 1 : 0;
        const boxed = cs.display !== "none";
        if (boxed) {
          els.push(e);
          styles.push(cs);
          inside.push(mark);
        }
        const root = boxed ? rootOf(e) : null;
        if (root) trees.push([root.firstElementChild, root, mark]);
        const kid = boxed ? e.firstElementChild : null;
        if (kid) {
          within.push(mark || PICTURES.has(tag) ? 1 : 0);
          e = kid;
          continue;
        }
        /** @type {Element | null} */
        let n = e;
        e = null;
        // a tree's top children have their tree's top (the body, a shadow root) as parent node
        while (n && n.parentNode !== top) {
          const sib = n.nextElementSibling;
          if (sib) {
            e = sib;
            break;
          }
          n = n.parentElement;
          within.pop();
        }
        if (!e && n) e = n.nextElementSibling;
      }
    }
    facts.renderedScan = { els, styles, inside };
    return facts.renderedScan;
  };
}
