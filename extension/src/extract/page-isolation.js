/**
 * In-page: what a `mix-blend-mode` blends with (issue 18). An element with a blend mode is blended with the
 * content of the stacking context it belongs to (Compositing and Blending 1: an isolated group), not with the
 * whole page: inside a group where nothing is painted under it (`isolation: isolate`, an opacity, a transform…
 * on an ancestor that paints no background itself) its backdrop is transparent, and it shows in its own colour
 * (black text with `screen` inside an isolated box is black, not white on white).
 *
 * - `blendOverClear(el, rect, win)`: whether the element carrying a blend mode (`el`) stands in such a clear
 *   group: no ancestor up to the group's root paints a background, and no other element of the group (a box
 *   with a background or a shadow, a picture, a control) meets the text's box (`rect`); false when it cannot
 *   tell (no group but the root's, whose backdrop is the page's canvas; a group of more than MAX_GROUP elements).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageControls } from "./page-controls.js";
import { pageRender } from "./page-render.js";

definePagePart(pageIsolation, { uses: [pageColour, pageControls, pageRender] });

/**
 * Adds blendOverClear to lib (needs pageColour's colourOf, pageRender's styleOf and factsOf, pageControls' flatParent).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageIsolation(lib) {
  /** A group with more elements than this is not looked through. */
  const MAX_GROUP = 300;
  /** Elements that paint a picture of their own. */
  const PICTURES = new Set(["img", "canvas", "video", "svg", "iframe", "embed", "object", "input", "textarea", "select", "button"]);

  /** @param {CSSStyleDeclaration} cs whether an element of this style makes a stacking context (an isolated group) */
  const groups = (cs) => {
    const any = /** @type {any} */ (cs);
    return cs.isolation === "isolate" || parseFloat(cs.opacity) < 1 || cs.transform !== "none" || cs.filter !== "none"
      || (any.backdropFilter ?? "none") !== "none" || cs.mixBlendMode !== "normal" || cs.clipPath !== "none"
      || (any.maskImage ?? any.webkitMaskImage ?? "none") !== "none" || cs.position === "fixed" || cs.position === "sticky"
      || (cs.zIndex !== "auto" && cs.position !== "static") || /paint|layout|strict|content/.test(cs.contain)
      || (any.scale ?? "none") !== "none" || (any.rotate ?? "none") !== "none" || (any.translate ?? "none") !== "none"
      || cs.perspective !== "none" || /opacity|transform|filter|isolation/.test(cs.willChange);
  };

  /** @param {CSSStyleDeclaration} cs whether an element of this style paints a background */
  const paints = (cs) => (lib.colourOf(cs.backgroundColor)?.[3] ?? 1) > 0 || cs.backgroundImage !== "none"
    || cs.boxShadow !== "none";

  /**
   * @param {Element} el @param {Window} win @returns {Element | null} the root of the clear group el stands in
   *   (an ancestor making a stacking context, with no background painted on the way up to it), or null
   */
  const clearRoot = (el, win) => {
    const root = win.document.documentElement;
    for (let a = lib.flatParent(el); a && a !== root && a !== win.document.body; a = lib.flatParent(a)) {
      const cs = lib.styleOf(a, win);
      if (paints(cs)) return null;
      if (groups(cs)) return a;
    }
    return null;
  };

  /** @param {Element} el @param {{left: number, top: number, right: number, bottom: number}} rect @param {Window} win */
  lib.blendOverClear = (el, rect, win) => {
    const known = (lib.factsOf(win).blendClear ??= new WeakMap());
    if (known.has(el)) return known.get(el);
    const root = clearRoot(el, win);
    let clear = !!root;
    if (root) {
      // Nothing else in the group paints where the text stands (a box, a picture), in or out of view; a group too
      // big to look through is taken as not clear (the text is blended with what is under the group).
      const all = root.getElementsByTagName("*");
      clear = all.length <= MAX_GROUP;
      for (let i = 0; clear && i < all.length; i++) {
        const e = all[i];
        if (e.contains(el) || el.contains(e)) continue;
        const b = e.getBoundingClientRect();
        if (b.right <= rect.left || b.left >= rect.right || b.bottom <= rect.top || b.top >= rect.bottom) continue;
        clear = !PICTURES.has(e.localName) && !paints(lib.styleOf(e, win));
      }
    }
    known.set(el, clear);
    return clear;
  };
}
