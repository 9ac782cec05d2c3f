/**
 * In-page: one scan of the document's rendered tree per call, shared by the judgement's document-wide lists
 * (issue 18 speed): the outlines, box shadows and atomic boxes page-decor.js places, and the opaque layers
 * page-paint-order.js `paintersOf` lists for text hit testing cannot judge.
 *
 * - `renderedScan(win)`: the elements of the document's light tree under <body> in tree order, each with its
 *   computed style (page-render.js styleOf, read once per call) and whether it stands inside a picture
 *   (an image, video, canvas, SVG, frame, object or embed) or a box that is never boxed (a script, a style, a
 *   template, …): page-decor.js places no decoration there, page-paint-order.js still asks (an SVG
 *   <foreignObject>'s HTML paints). The content of a `display: none` box is left out: nothing in it has a box (a
 *   top-layer dialog or popover inside one neither: measured on Chromium 156), so no list could hold it.
 *
 * Before, each list walked the document itself (a TreeWalker with a filter calling back into script per element,
 * and `querySelectorAll("body *")`); the scan walks it once by its element links. What each list reads of an
 * element stays in that list's part: a new document-wide check adds its own loop over the scan.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pageScan, { uses: [pageRender] });

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
    const body = win.document.body;
    /** @type {number[]} whether each open ancestor's content is inside (1) or not (0), innermost last */
    const within = [];
    let e = body?.firstElementChild ?? null;
    while (e) {
      const cs = lib.styleOf(e, win);
      const tag = e.tagName;
      const outer = within.length ? within[within.length - 1] : 0;
      const mark = outer || UNBOXED.has(tag) ? 1 : 0;
      els.push(e);
      styles.push(cs);
      inside.push(mark);
      const kid = cs.display !== "none" ? e.firstElementChild : null;
      if (kid) {
        within.push(mark || PICTURES.has(tag) ? 1 : 0);
        e = kid;
        continue;
      }
      /** @type {Element | null} */
      let n = e;
      e = null;
      while (n && n !== body) {
        const sib = n.nextElementSibling;
        if (sib) {
          e = sib;
          break;
        }
        n = n.parentElement;
        within.pop();
      }
    }
    facts.renderedScan = { els, styles, inside };
    return facts.renderedScan;
  };
}
