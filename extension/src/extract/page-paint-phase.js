/**
 * In-page: the order boxes paint in inside one paint layer (issue 18; page-paint-order.js asks, for what hit
 * testing cannot tell and for what hit testing lists out of paint order inside a layer):
 *
 * - `laterInLayer(box, node, el, layer, win)`: whether the box's own paint (its background, a picture's content)
 *   is painted after the text `node` of `el`, both in `layer`. CSS 2.2 appendix E, steps 4–7: inside a layer (or
 *   inside an atomic box of it) every in-flow block's background paints first, then the floats, then the inline
 *   content — lines of text, inline boxes' backgrounds and atomic inlines — in tree order. A float, an atomic
 *   inline (inline-block, inline-flex, inline-table, a picture, a control) and a flex or grid item paint
 *   atomically: all of their own content at their place in that order (CSS Flexbox 1 §5.4, CSS Grid 1 §9.2:
 *   items paint like inline-blocks, in order-modified document order).
 * - `paintsAfter(a, b, win)`: whether node a comes after node b in order-modified document order (the flat tree's
 *   order, with the children of a flex or grid container ordered by `order`).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";
import { pageRender } from "./page-render.js";

definePagePart(pagePaintPhase, { uses: [pageRender, pageShadow] });

/**
 * Adds laterInLayer and paintsAfter to lib (needs pageRender's styleOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pagePaintPhase(lib) {
  /** Replaced elements and controls: atomic inlines whatever their display (their content paints with the lines). */
  const REPLACED = new Set(["IMG", "VIDEO", "CANVAS", "IFRAME", "EMBED", "OBJECT", "svg", "INPUT", "SELECT", "TEXTAREA", "BUTTON"]);
  /** Appendix E's steps inside a layer: block backgrounds, floats, inline content. */
  const BLOCKS = 1;
  const FLOATS = 2;
  const INLINE = 3;

  /** @param {Node} n its parent in the flat tree (a slotted node's slot, a shadow root's host) */
  const up = (n) => /** @type {Element | null} */ (lib.slotOf(n) ?? n.parentElement
    ?? /** @type {any} */ (n.parentNode)?.host ?? null);

  /** @param {Element} e @param {Window} win whether it is an item of a flex or grid container */
  const isItem = (e, win) => {
    const parent = up(e);
    return !!parent && /flex|grid/.test(lib.styleOf(parent, win).display) && !/absolute|fixed/.test(lib.styleOf(e, win).position);
  };

  /**
   * The step of appendix E an atomic box paints at in its layer, or 0 when it is not atomic (its descendants paint
   * in the steps of the box around it).
   * @param {Element} e @param {Window} win
   */
  const atomicStep = (e, win) => {
    const cs = lib.styleOf(e, win);
    if (cs.display === "contents") return 0;
    if (cs.float !== "none") return FLOATS;
    if (/^inline-/.test(cs.display) || REPLACED.has(e.tagName) || isItem(e, win)) return INLINE;
    return 0;
  };

  /** @param {Node} n @param {Window} win its `order` among its flex or grid siblings (text: 0) */
  const orderOf = (n, win) => (n.nodeType === 1 ? parseInt(lib.styleOf(/** @type {Element} */ (n), win).order, 10) || 0 : 0);

  /** @param {Node} n @returns {Node[]} n and its ancestors in the flat tree, the root first */
  const pathOf = (n) => {
    /** @type {Node[]} */
    const path = [];
    for (let m = /** @type {Node | null} */ (n); m; m = up(m)) path.unshift(m);
    return path;
  };

  /**
   * @param {Node} a @param {Node} b @param {Window} win
   * @returns {boolean} whether a comes after b in order-modified document order (a descendant comes after its ancestor)
   */
  const paintsAfter = (a, b, win) => {
    const pa = pathOf(a);
    const pb = pathOf(b);
    let i = 0;
    while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
    if (i === pa.length) return false; // a holds b
    if (i === pb.length) return true; // b holds a
    const [ca, cb] = [pa[i], pb[i]];
    const parent = /** @type {Element | undefined} */ (pa[i - 1]);
    if (parent && /flex|grid/.test(lib.styleOf(parent, win).display)) {
      const [oa, ob] = [orderOf(ca, win), orderOf(cb, win)];
      if (oa !== ob) return oa > ob;
    }
    return !!(cb.compareDocumentPosition(ca) & Node.DOCUMENT_POSITION_FOLLOWING);
  };
  lib.paintsAfter = paintsAfter;

  /**
   * The atomic boxes at or above `e` inside `layer` (exclusive), outermost first.
   * @param {Element} e @param {Element | null} layer @param {Window} win
   */
  const atomsOf = (e, layer, win) => {
    /** @type {Element[]} */
    const atoms = [];
    const root = e.ownerDocument.documentElement;
    for (let n = /** @type {Element | null} */ (e); n && n !== layer && n !== root; n = up(n)) if (atomicStep(n, win)) atoms.unshift(n);
    return atoms;
  };

  /**
   * @param {Element} box an element painted in `layer`, not around the text
   * @param {Node} node the text (or a frame whose content is judged)
   * @param {Element} el the element whose text it is
   * @param {Element | null} layer the paint layer both are painted in (page-paint-order.js layerOf; null: the root's)
   * @param {Window} win
   */
  lib.laterInLayer = (box, node, el, layer, win) => {
    if (box === layer) return false; // the layer's own background paints first
    const over = atomsOf(box, layer, win);
    const under = atomsOf(el, layer, win);
    let i = 0;
    while (i < over.length && i < under.length && over[i] === under[i]) i++;
    if (i === over.length && i > 0 && over[i - 1] === box) return false; // an atomic box around the text
    /** @type {[number, Node]} */
    const a = i < over.length ? [atomicStep(over[i], win), over[i]]
      : [lib.styleOf(box, win).display.startsWith("inline") ? INLINE : BLOCKS, box];
    /** @type {[number, Node]} */
    const b = i < under.length ? [atomicStep(under[i], win), under[i]] : [INLINE, node];
    if (a[0] !== b[0]) return a[0] > b[0];
    return paintsAfter(a[1], b[1], win);
  };
}
