/**
 * In-page: what the top layer paints over a page (issue 18). An element in the top layer (a modal dialog, an
 * open popover, a fullscreen element: `:modal`, `:popover-open`, `:fullscreen`) paints its `::backdrop` over the
 * whole viewport, above everything that is not in the top layer, at every scroll position (it is fixed), and
 * itself over its backdrop. A view transition paints snapshots of the page over it while it runs.
 *
 * - `topLayerHides(el, parts, win)`: why a text of `el` (its visible boxes `parts`) cannot be seen for the top
 *   layer, or "":
 *   - while a view transition is active (`:active-view-transition`, on the document's root or on the element
 *     an element-scoped transition runs in) the screen shows the transition's snapshots, not the DOM: text in a
 *     captured box is judged unseen ("a view transition paints snapshots"). The root is captured whole unless
 *     its `view-transition-name` is none; then only the named boxes are snapshots, and text outside them is
 *     painted live. The snapshots' own animations are not read; a reader that asks again once the transition
 *     ends reads the page as it is.
 *   - a backdrop that paints opaque (page-cover.js stylePaints: its background colour's alpha times its opacity,
 *     a background image that loaded, a backdrop-filter that blurs or flattens past reading) and covers the
 *     viewport covers every text outside the top layer, wherever it is (below the viewport too). The default
 *     backdrop of a modal dialog (rgba(0, 0, 0, 0.1)) and a popover's (transparent) keep what is under them.
 *   - text inside another top-layer element: the top layer is painted in the order its elements were opened,
 *     which no API gives. Where the text is in the viewport, hit testing decides: the element of an opaque
 *     backdrop (a modal dialog's backdrop is hit as its dialog) or one of its boxes listed above every box of the
 *     text's own top-layer element covers it. An element outside the topmost modal dialog is inert, so hit
 *     testing lists none of it: a popover outside a modal dialog whose backdrop paints opaque is painted under it
 *     when opened before it and over it when opened after, and `topLayerUnsure` hands its texts to the pixels
 *     (page-pixels.js: a text under the backdrop changes nothing when masked, and is left out). Elsewhere the text
 *     is kept.
 *   A backdrop with a transform, clip-path, mask or filter of its own is not judged (its text is kept).
 *   Top-layer elements and element-scoped view transitions inside shadow roots, open and closed, are found too
 *   (page-shadow.js shadowRoots), and a top-layer element holds what the flat tree puts in it (a light child
 *   slotted into a component's dialog). In a same-origin frame, the parent page's top layer is asked for the
 *   frame's element too.
 *
 * One query per root, call and window (cached in lib.factsOf); nothing per text when no top-layer element is
 * open and no view transition runs.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageCover } from "./page-cover.js";
import { pageHitStack } from "./page-hit-stack.js";
import { pageRender } from "./page-render.js";
import { pageShadow } from "./page-shadow.js";

definePagePart(pageTopLayer, { uses: [pageCover, pageHitStack, pageRender, pageShadow] });

/**
 * Adds topLayerHides and topLayerUnsure to lib (needs pageCover's stylePaints, pageHitStack's stackAt, pageRender's
 * factsOf and areasOf, pageShadow's shadowRoots).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageTopLayer(lib) {
  const TOP_LAYER = ":modal, :popover-open, :fullscreen";
  const ACTIVE_TRANSITION = ":active-view-transition";
  const TRANSITION = "a view transition paints snapshots";
  const BACKDROP = "covered by a top-layer backdrop";

  /**
   * @typedef {{el: Element, opaque: boolean}} Entry a top-layer element, and whether its backdrop paints opaque
   *   over the whole viewport
   * @typedef {{entries: Entry[], opaque: boolean, scopes: Element[], frame?: string}} TopLayer scopes: the elements
   *   a view transition runs in (the root for the document's); frame: the parent pages' verdict on the frame
   */

  /**
   * The elements matching a selector in the document and in every shadow root of it (page-shadow.js shadowRoots,
   * open and closed: a modal dialog or popover inside a component is in the top layer as any other).
   * @param {Document} doc @param {string} selector @returns {Element[] | null} null: a selector this browser does not know
   */
  const query = (doc, selector) => {
    try {
      const roots = (lib.shadowRoots?.() ?? []).filter((/** @type {ShadowRoot} */ r) => r.ownerDocument === doc);
      return [doc, ...roots].flatMap((root) => [...root.querySelectorAll(selector)]);
    } catch {
      return null;
    }
  };

  /**
   * Whether a holds b in the flat tree (a light child slotted into a shadow root's dialog, open or closed:
   * page-shadow.js slotOf, is in that dialog).
   * @param {Node} a @param {Node} b
   */
  const holds = (a, b) => {
    for (let n = /** @type {Node | null} */ (b); n; n = lib.slotOf(n) ?? n.parentNode ?? /** @type {any} */ (n).host ?? null) {
      if (n === a) return true;
    }
    return false;
  };

  /** @param {Element} el a top-layer element @param {Window} win whether its ::backdrop paints opaque over the viewport */
  const backdropPaints = (el, win) => {
    if (!el.getClientRects().length) return false; // not rendered: no backdrop either
    const bs = win.getComputedStyle(el, "::backdrop");
    if (bs.display === "none" || bs.visibility !== "visible" || bs.transform !== "none" || bs.clipPath !== "none"
      || (bs.maskImage ?? "none") !== "none" || bs.filter !== "none") return false;
    const root = win.document.documentElement;
    const [l, t] = [parseFloat(bs.left) || 0, parseFloat(bs.top) || 0];
    if (bs.position !== "fixed" || l > 0 || t > 0 || l + (parseFloat(bs.width) || 0) < root.clientWidth
      || t + (parseFloat(bs.height) || 0) < root.clientHeight) return false;
    return lib.stylePaints(bs, win);
  };

  /** @param {Window} win @returns {TopLayer} */
  const topLayerOf = (win) => {
    const facts = lib.factsOf(win);
    if (facts.topLayer) return facts.topLayer;
    const doc = win.document;
    // One query: the transitions' scopes with the top layer, the top layer alone where the browser knows no
    // :active-view-transition.
    let found = query(doc, `${TOP_LAYER}, ${ACTIVE_TRANSITION}`);
    /** @type {Element[]} */
    let scopes = [];
    if (found) scopes = found.filter((e) => e.matches(ACTIVE_TRANSITION));
    else {
      found = query(doc, TOP_LAYER) ?? query(doc, ":modal") ?? [];
      if (/** @type {any} */ (doc).activeViewTransition) scopes = [doc.documentElement];
    }
    const entries = found.filter((e) => !scopes.includes(e) || e.matches(TOP_LAYER)).map((el) => ({ el, opaque: backdropPaints(el, win) }));
    return (facts.topLayer = { entries, opaque: entries.some((e) => e.opaque), scopes });
  };

  /**
   * Whether a running view transition paints a snapshot where the text is: it stands in a transition's scope,
   * and the scope is captured whole (an element's scope; the root unless its view-transition-name is none) or
   * the text is in a named box.
   * @param {TopLayer} top @param {Element} el @param {Window} win
   */
  const inSnapshot = (top, el, win) => {
    const root = win.document.documentElement;
    for (const scope of top.scopes) {
      if (!holds(scope, el)) continue;
      if (scope !== root || named(root, win)) return true;
      for (let n = /** @type {Element | null} */ (el); n && n !== root; n = n.parentElement ?? /** @type {any} */ (n.parentNode)?.host ?? null) {
        if (named(n, win)) return true;
      }
    }
    return false;
  };

  /** @param {Element} e @param {Window} win whether the element is captured as a view transition's snapshot */
  const named = (e, win) => ((/** @type {any} */ (lib.styleOf(e, win))).viewTransitionName ?? "none") !== "none";

  /** @param {TopLayer} top @param {Element} e @returns {Entry | null} the innermost top-layer element holding e */
  const ownerOf = (top, e) => {
    /** @type {Entry | null} */
    let found = null;
    for (const entry of top.entries) {
      if (holds(entry.el, e) && (!found || holds(found.el, entry.el))) found = entry;
    }
    return found;
  };

  /**
   * Whether the text's top-layer element is inert for a modal dialog whose backdrop paints opaque and that does not
   * hold it (a popover outside the dialog, opened before it or after). Every element outside the topmost modal
   * dialog is inert, so hit testing lists none of it, and which of the two is painted on top (the order they were
   * opened in) no API gives: the rendering decides (page-pixels.js).
   * @param {TopLayer} top @param {Entry} own
   */
  const blockedBy = (top, own) => top.entries.some((e) => e !== own && e.opaque && e.el.matches(":modal") && !holds(e.el, own.el));

  /**
   * Whether an opaque backdrop's element, or a box of it, is listed above every box of the text's own top-layer
   * element at the text's points (hit testing; "" where it cannot tell).
   * @param {TopLayer} top @param {Entry} own @param {{l: number, t: number, r: number, b: number}[]} parts @param {Window} win
   */
  const coveredInTopLayer = (top, own, parts, win) => {
    const { viewport } = lib.areasOf(win);
    for (const p of parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts) {
      const [x, y] = [(p.l + p.r) / 2, (p.t + p.b) / 2];
      if (x < viewport.l || y < viewport.t || x >= viewport.r || y >= viewport.b) return false;
      const stack = lib.stackAt(win.document, x, y);
      const mine = stack.findIndex((/** @type {Element} */ e) => ownerOf(top, e) === own);
      if (mine < 0) return false; // hit testing does not list it (inert): which is on top is not known
      if (!stack.slice(0, mine).some((/** @type {Element} */ e) => { const o = ownerOf(top, e); return !!o && o !== own && o.opaque; })) return false;
    }
    return true;
  };

  /**
   * @param {Element} el the text's element @param {{l: number, t: number, r: number, b: number}[]} parts its
   * visible boxes (viewport coordinates) @param {Window} win
   * @returns {string} why the top layer hides the text, or ""
   */
  const hides = (el, parts, win) => {
    const top = topLayerOf(win);
    if (top.scopes.length && inSnapshot(top, el, win)) return TRANSITION;
    if (top.opaque) {
      const own = ownerOf(top, el);
      if (!own) return BACKDROP;
      if (top.entries.some((e) => e.opaque && e !== own) && coveredInTopLayer(top, own, parts, win)) return BACKDROP;
    }
    return "";
  };

  lib.topLayerHides = (/** @type {Element} */ el, /** @type {{l: number, t: number, r: number, b: number}[]} */ parts, /** @type {Window} */ win) => {
    const top = topLayerOf(win);
    const why = top.entries.length || top.scopes.length ? hides(el, parts, win) : "";
    return why || (top.frame ??= frameHides(win));
  };

  /**
   * Whether the top layer's order decides whether a text of el shows and page code cannot read it (blockedBy):
   * the text is asked of the pixels.
   * @param {Element} el @param {Window} win
   */
  lib.topLayerUnsure = (el, win) => {
    const top = topLayerOf(win);
    if (!top.opaque || !top.entries.length) return false;
    const own = ownerOf(top, el);
    return !!own && blockedBy(top, own);
  };

  /**
   * A same-origin frame is painted where its element is: the parent page's top layer covers it as it covers that
   * element (the same verdict for every text of the frame).
   * @param {Window} win @returns {string}
   */
  const frameHides = (win) => {
    for (let w = win; ;) {
      let frame = null;
      try {
        frame = w.frameElement;
      } catch {
        frame = null; // another origin's parent
      }
      const parent = frame?.ownerDocument.defaultView;
      if (!frame || !parent) return "";
      const top = topLayerOf(parent);
      if (top.scopes.length && inSnapshot(top, frame, parent)) return TRANSITION;
      if (top.opaque && !ownerOf(top, frame)) return BACKDROP;
      w = parent;
    }
  };
}
