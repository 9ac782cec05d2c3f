/**
 * In-page: the order boxes are painted in, for what hit testing cannot tell (issue 18; page-cover.js asks):
 *
 * - `layerOf(el, win)`: the paint layer a box is painted in: itself when it is positioned or a stacking context
 *   (transform and the individual transforms, opacity under 1, filter, clip-path, mask, isolation, blend mode,
 *   will-change of any of them, contain: paint or layout, a size container, content-visibility: auto, a z-index on
 *   a flex or grid item, the top layer), else its nearest such ancestor; null for the document's root layer.
 * - `paintedOver(box, el, win, node)`: whether the box's own paint is painted over the text `node` of `el`, by
 *   CSS 2.2 appendix E: the layers' chains of stacking contexts are compared where they part (higher z-index
 *   later, auto and non-positioned contexts as 0, then order-modified document order; the top layer over the
 *   root's context); a z-index inside a positioned box with z-index auto counts in the context around that box;
 *   inside one layer, the steps of appendix E decide (page-paint-phase.js: block backgrounds, floats, inline
 *   content with atomic inlines and flex and grid items, in order-modified tree order). Exact for what it
 *   reads; among several top-layer boxes it takes tree order for the order they were opened in.
 * - `belowAncestor(el, parts, win)`: whether text in a negative z-index layer is painted under the background of
 *   an ancestor inside the layer's stacking context (CSS 2.1 appendix E: negative layers before block backgrounds).
 * - `paintersOf(win)`: every box of the document that paints something opaque (its root and body aside), with
 *   its box, for a reader that judges text without a walk (page-seen.js) where hit testing cannot answer:
 *   outside the viewport, or a text hit testing skips. One pass per call (page-render.js factsOf).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";
import { pageCover } from "./page-cover.js";
import { pagePaintPhase } from "./page-paint-phase.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";

definePagePart(pagePaintOrder, { uses: [pageCover, pagePaintPhase, pageRender, pageScan, pageShadow] });

/**
 * Adds layerOf, paintedOver, belowAncestor, positionedAbove and paintersOf to lib (needs pageRender's factsOf, pageCover's paints).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pagePaintOrder(lib) {
  /** @param {Element} e its parent in the flat tree (a slotted element's slot, a shadow root's host) */
  const up = (e) => /** @type {Element | null} */ (lib.slotOf(e) ?? e.parentElement ?? /** @type {any} */ (e.parentNode)?.host ?? null);

  /**
   * Whether a box makes a stacking context (CSS 2.2 §9.9.1, and every property since that makes one): the context
   * its positioned descendants and z-indexed children are ordered in.
   * @param {CSSStyleDeclaration} cs @param {Element} e @param {Window} win
   */
  const makesContext = (cs, e, win) => {
    if (/fixed|sticky/.test(cs.position) || (cs.position !== "static" && cs.zIndex !== "auto")) return true;
    if (cs.transform !== "none" || cs.filter !== "none" || parseFloat(cs.opacity) < 1) return true;
    const any = /** @type {any} */ (cs);
    if ((any.translate ?? "none") !== "none" || (any.rotate ?? "none") !== "none" || (any.scale ?? "none") !== "none") return true;
    if (cs.clipPath !== "none" || (any.maskImage ?? any.webkitMaskImage ?? "none") !== "none" || cs.isolation === "isolate"
      || cs.mixBlendMode !== "normal" || cs.perspective !== "none" || (any.backdropFilter ?? "none") !== "none"
      || /transform|translate|rotate|scale|opacity|filter|perspective|clip-path|mask|isolation|mix-blend-mode/.test(cs.willChange)
      || /paint|strict|content|layout/.test(cs.contain) || /size/.test(any.containerType ?? "") || any.contentVisibility === "auto"
      || topLayer(e)) return true;
    if (cs.zIndex === "auto") return false;
    const parent = up(e);
    return !!parent && /flex|grid/.test(lib.styleOf(parent, win).display);
  };

  /** @param {Element} e whether it is in the top layer (a modal dialog, an open popover, a fullscreen element) */
  const topLayer = (e) => {
    try {
      return e.matches(":modal, :popover-open, :fullscreen");
    } catch {
      return e.matches(":modal");
    }
  };

  /**
   * Whether a box paints as a layer of its own: positioned, or a stacking context.
   * @param {CSSStyleDeclaration} cs @param {Element} e @param {Window} win
   */
  const ownLayer = (cs, e, win) => cs.position !== "static" || makesContext(cs, e, win);

  /**
   * The nearest element at or above `e` in the flat tree that `is` holds for, or null, cached per call under `key`:
   * each element asks its parent's answer, so one style read per element and call.
   * @param {"layers" | "positioned" | "scrollers" | "contexts"} key
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
  /** The nearest stacking context at or above `e`, or null for the root's. */
  const contextAt = nearestAbove("contexts", (n, win) => makesContext(lib.styleOf(n, win), n, win));

  /** The top layer: painted after the root's stacking context, over all of it. */
  const TOP = "top layer";

  /**
   * Where a layer is painted: the stacking contexts from the root's down, then the layer (one that is positioned
   * with z-index auto is no context: what is positioned inside it is ordered in the context around it, CSS 2.2
   * appendix E step 8). The top layer's boxes stand under TOP, outside the root's context.
   * @param {Element | null} layer @param {Window} win @returns {(Element | string)[]}
   */
  const chainOf = (layer, win) => {
    /** @type {(Element | string)[]} */
    const chain = [];
    for (let l = layer; l; ) {
      chain.unshift(l);
      if (topLayer(l)) {
        chain.unshift(TOP);
        break;
      }
      const p = up(l);
      l = p ? contextAt(p, win) : null;
    }
    return chain;
  };

  /** @param {Element | string} l @param {Window} win its z-index in the context it is painted in (auto: 0) */
  const zOf = (l, win) => {
    if (typeof l === "string") return Infinity;
    const cs = lib.styleOf(l, win);
    if (cs.position === "static") {
      const parent = up(l);
      if (!parent || !/flex|grid/.test(lib.styleOf(parent, win).display)) return 0;
    }
    return parseInt(cs.zIndex, 10) || 0;
  };

  /**
   * Whether the box's own paint (its background, a picture's content) is painted over the in-flow text `node` of
   * `el`, by CSS 2.2 appendix E: where the chains of stacking contexts part, the higher z-index paints later, then
   * the later in order-modified document order (the top layer over all); a layer inside the text's own layer
   * paints over its text unless its z-index is negative, and under it when the text's layer is inside the box's;
   * inside one layer, its steps decide (page-paint-phase.js laterInLayer).
   * @param {Element} box
   * @param {Element} el the element whose text it may paint over
   * @param {Window} win
   * @param {Node} [node] the text (el: its first text)
   */
  lib.paintedOver = (box, el, win, node = el) => {
    const [boxLayer, textLayer] = [layerOf(box, win), layerOf(el, win)];
    if (boxLayer === textLayer) return lib.laterInLayer(box, node, el, textLayer, win);
    const over = chainOf(boxLayer, win);
    const under = chainOf(textLayer, win);
    let i = 0;
    while (i < over.length && i < under.length && over[i] === under[i]) i++;
    if (i === over.length) return box !== boxLayer && zOf(under[i], win) < 0; // the text in a layer inside the box's
    const a = over[i];
    if (i === under.length) return zOf(a, win) >= 0; // a layer inside the text's own
    const b = under[i];
    const [za, zb] = [zOf(a, win), zOf(b, win)];
    if (za !== zb) return za > zb;
    if (typeof a === "string" || typeof b === "string") return false;
    return lib.paintsAfter(a, b, win);
  };

  /**
   * Whether a box makes a stacking context (the context a negative z-index layer inside it is painted in).
   * @param {Element} e @param {Window} win
   */
  const stacks = (e, win) => makesContext(lib.styleOf(e, win), e, win);

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
      const [root, body] = [win.document.documentElement, win.document.body];
      for (let i = 0; i < els.length; i++) {
        const e = els[i];
        const cs = styles[i];
        // Every box that paints opaque, in a layer of its own or not: whether it is painted over a text is the
        // order's to say (paintedOver). The root and the body paint under everything.
        if (e === root || e === body || !lib.paints(e, win) || cs.display === "none" || cs.visibility !== "visible") continue;
        const r = e.getBoundingClientRect();
        if (r.width >= 8 && r.height >= 8) facts.painters.push({ el: e, box: { l: r.left, t: r.top, r: r.right, b: r.bottom } });
      }
    }
    return facts.painters;
  };
}
