/**
 * In-page: the order boxes are painted in, for what hit testing cannot tell (issue 18; page-cover.js asks):
 *
 * - `layerOf(el, win)`: the paint layer a box is painted in: itself when it is positioned or a stacking context
 *   (transform, opacity under 1, filter, clip-path, mask, isolation, blend mode, will-change, contain: paint, a
 *   z-index on a flex or grid item), else its nearest such ancestor; null for the document's root layer.
 * - `paintedOver(box, el, win)`: whether a box that is a layer of its own is painted over the in-flow text of
 *   `el`, by CSS 2.1 appendix E's stacking order: where their layer chains part, the higher z-index paints later
 *   (auto counts as 0), then the later in document order; a layer inside the text's own layer paints over its
 *   in-flow text unless its z-index is negative; a layer around the text is under it. A z-index inside a
 *   positioned box with z-index auto is compared where the chains part (not lifted into the outer context).
 * - `belowAncestor(el, parts, win)`: whether text in a negative z-index layer is painted under the background of
 *   an ancestor inside the layer's stacking context (CSS 2.1 appendix E: negative layers before block backgrounds).
 * - `paintersOf(win)`: every box of the document that is a layer of its own and paints something opaque, with
 *   its box, for a reader that judges text without a walk (page-seen.js) where hit testing cannot answer:
 *   outside the viewport, or a text hit testing skips. One pass per call (page-render.js factsOf).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageCover } from "./page-cover.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";

definePagePart(pagePaintOrder, { uses: [pageCover, pageRender, pageScan] });

/**
 * Adds layerOf, paintedOver, belowAncestor, positionedAbove and paintersOf to lib (needs pageRender's factsOf, pageCover's paints).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pagePaintOrder(lib) {
  /** @param {Element} e its parent in the flat tree (a slotted element's slot, a shadow root's host) */
  const up = (e) => /** @type {Element | null} */ (e.assignedSlot ?? e.parentElement ?? /** @type {any} */ (e.parentNode)?.host ?? null);

  /**
   * Whether a box paints as a layer of its own: positioned, or a stacking context.
   * @param {CSSStyleDeclaration} cs @param {Element} e @param {Window} win
   */
  const ownLayer = (cs, e, win) => {
    if (cs.position !== "static" || cs.transform !== "none" || cs.filter !== "none" || parseFloat(cs.opacity) < 1) return true;
    const any = /** @type {any} */ (cs);
    if (cs.clipPath !== "none" || (any.maskImage ?? any.webkitMaskImage ?? "none") !== "none" || cs.isolation === "isolate"
      || cs.mixBlendMode !== "normal" || cs.perspective !== "none" || (any.backdropFilter ?? "none") !== "none"
      || /transform|opacity|filter|perspective/.test(cs.willChange) || /paint|strict|content/.test(cs.contain)) return true;
    if (cs.zIndex === "auto") return false;
    const parent = up(e);
    return !!parent && /flex|grid/.test(lib.styleOf(parent, win).display);
  };

  /**
   * The nearest element at or above `e` in the flat tree that `is` holds for, or null, cached per call under `key`:
   * each element asks its parent's answer, so one style read per element and call.
   * @param {"layers" | "positioned" | "scrollers"} key
   * @param {(n: Element, win: Window) => boolean} is
   * @returns {(e: Element, win: Window) => Element | null}
   */
  const nearestAbove = (key, is) => (e, win) => {
    const facts = lib.factsOf(win);
    /** @type {WeakMap<Element, Element | null>} */
    const known = (facts[key] ??= new WeakMap());
    /** @type {Element[]} */
    const path = [];
    /** @type {Element | null | undefined} */
    let found;
    for (let n = /** @type {Element | null} */ (e); n; n = up(n)) {
      found = known.get(n);
      if (found !== undefined) break;
      if (n === n.ownerDocument.documentElement) {
        found = null;
        break;
      }
      if (is(n, win)) {
        found = n;
        break;
      }
      path.push(n);
    }
    for (const n of path) known.set(n, found ?? null);
    if (found) known.set(found, found);
    return found ?? null;
  };

  /** The element whose paint layer `e` paints in (ownLayer), or null for the root's. */
  const layerOf = nearestAbove("layers", (n, win) => ownLayer(lib.styleOf(n, win), n, win));
  lib.layerOf = layerOf;

  /** @param {Element} e @param {Window} win the layers from the root's down to e's own, outermost first */
  const chainOf = (e, win) => {
    /** @type {Element[]} */
    const chain = [];
    for (let l = layerOf(e, win); l; l = (() => { const p = up(/** @type {Element} */ (l)); return p ? layerOf(p, win) : null; })()) {
      chain.unshift(l);
    }
    return chain;
  };

  /** @param {Element} l @param {Window} win its z-index in the context it is painted in (auto: 0) */
  const zOf = (l, win) => parseInt(lib.styleOf(l, win).zIndex, 10) || 0;

  /**
   * @param {Element} box a layer of its own
   * @param {Element} el the element whose in-flow text it may paint over
   * @param {Window} win
   */
  lib.paintedOver = (box, el, win) => {
    const over = chainOf(box, win);
    const under = chainOf(el, win);
    let i = 0;
    while (i < over.length && i < under.length && over[i] === under[i]) i++;
    if (i === over.length) return false; // the box is the text's layer or one around it: painted under its text
    const a = over[i];
    if (i === under.length) return zOf(a, win) >= 0; // a layer inside the text's own layer
    const b = under[i];
    const [za, zb] = [zOf(a, win), zOf(b, win)];
    if (za !== zb) return za > zb;
    return !!(b.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING);
  };

  /**
   * Whether a box makes a stacking context (the context a negative z-index layer inside it is painted in).
   * @param {Element} e @param {Window} win
   */
  const stacks = (e, win) => {
    const cs = lib.styleOf(e, win);
    if (/fixed|sticky/.test(cs.position) || (cs.position !== "static" && cs.zIndex !== "auto")) return true;
    if (cs.position !== "static") return ownLayer({ ...stylePart(cs), position: "static" }, e, win);
    return ownLayer(cs, e, win);
  };
  /** @param {CSSStyleDeclaration} cs the properties ownLayer reads */
  const stylePart = (cs) => {
    const any = /** @type {any} */ (cs);
    return /** @type {any} */ ({ transform: cs.transform, filter: cs.filter, opacity: cs.opacity, clipPath: cs.clipPath,
      maskImage: any.maskImage, webkitMaskImage: any.webkitMaskImage, isolation: cs.isolation, mixBlendMode: cs.mixBlendMode,
      perspective: cs.perspective, backdropFilter: any.backdropFilter, willChange: cs.willChange, contain: cs.contain,
      zIndex: cs.zIndex });
  };

  /**
   * Whether an ancestor paints its background over the in-flow text of `el`: the text is in a layer with a
   * negative z-index, which its stacking context paints before the backgrounds of the boxes inside it (CSS 2.1
   * appendix E, step 3 before step 4), and an ancestor between that context and the layer paints opaque there.
   * @param {Element} el @param {{l: number, t: number, r: number, b: number}[]} parts the text's visible boxes
   * @param {Window} win
   */
  lib.belowAncestor = (el, parts, win) => {
    for (let l = lib.positionedAbove(el, win); l; ) {
      const layer = /** @type {Element} */ (l);
      if (zOf(layer, win) < 0) {
        const body = layer.ownerDocument.body;
        for (let a = up(layer); a && a !== body && !stacks(a, win); a = up(a)) {
          if (!lib.paints(a, win)) continue;
          const b = a.getBoundingClientRect();
          if (parts.every((p) => p.l >= b.left && p.r <= b.right && p.t >= b.top && p.b <= b.bottom)) return true;
        }
      }
      const p = up(layer);
      l = p ? lib.positionedAbove(p, win) : null;
    }
    return false;
  };

  /**
   * The nearest positioned element at or above `e` in the flat tree, or null: one style read per element and
   * call (each element asks its parent's answer), so a judgement per text node stays cheap.
   * @param {Element} e @param {Window} win @returns {Element | null}
   */
  lib.positionedAbove = nearestAbove("positioned", (n, win) => lib.styleOf(n, win).position !== "static");

  /**
   * The nearest box at or above `e` in the flat tree that clips and scrolls its content (overflow other than
   * visible), or null for the page: what the content of `e` (its text) moves with when something scrolls.
   * @type {(e: Element, win: Window) => Element | null}
   */
  lib.scrollerAt = nearestAbove("scrollers", (n, win) => {
    const cs = lib.styleOf(n, win);
    return cs.overflowX !== "visible" || cs.overflowY !== "visible";
  });
  /**
   * The same strictly above `e`: what the box of `e` moves with.
   * @param {Element} e @param {Window} win @returns {Element | null}
   */
  lib.scrollerAbove = (e, win) => {
    const parent = up(e);
    return parent ? lib.scrollerAt(parent, win) : null;
  };

  /**
   * @param {Window} win
   * @returns {{el: Element, box: {l: number, t: number, r: number, b: number}}[]}
   */
  lib.paintersOf = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.painters) {
      facts.painters = [];
      // page-scan.js: the one walk of the document per call, shadow roots' boxes too (the content of a
      // display: none box has no box to list)
      const { els, styles } = lib.renderedScan(win);
      for (let i = 0; i < els.length; i++) {
        const e = els[i];
        const cs = styles[i];
        // paints first: most boxes paint nothing opaque, which two style reads tell (ownLayer reads about twelve)
        if (!lib.paints(e, win) || cs.display === "none" || cs.visibility !== "visible" || !ownLayer(cs, e, win)) continue;
        const r = e.getBoundingClientRect();
        if (r.width >= 8 && r.height >= 8) facts.painters.push({ el: e, box: { l: r.left, t: r.top, r: r.right, b: r.bottom } });
      }
    }
    return facts.painters;
  };
}
