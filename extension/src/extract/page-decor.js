/**
 * In-page: paint over text that hit testing does not report, or cannot judge (issue 18): outlines, box
 * shadows and borders (of the document's boxes and of every shadow root's), a thick line-through over its own
 * text, and pictures and inline-blocks of the text's own layer. An opaque outline (with a negative offset it
 * lies inside its box) or a box shadow (an inset one inside the box, an outset one outside it, where hit testing
 * does not reach at all) covers text as a background would; an in-flow picture or opaque inline-block later in
 * tree order paints over the text of its layer (page-cover.js judges that by hit testing in the viewport only).
 *
 * - `decorationCovers(el, parts, win)`: whether an opaque outline, box shadow or border of some element is painted over
 *   both sample points of a text's visible boxes, by paint order (CSS 2.1 appendix E, page-paint-order.js): a
 *   shadow or a border paints with its box's background (under the in-flow text of its own layer, over the layers painted
 *   before it); an outline paints after the content of its layer, its own text included; an atomic box (a
 *   picture, an inline-block) with the lines of its layer, over the text before it in tree order.
 *
 * The decorated elements are found in the one scan of the document per call (page-scan.js, shadow roots
 * included; four style reads per element, most read `none`); only solid paint counts: a colour at least 0.85
 * opaque through every ancestor's opacity, a shadow's
 * area shrunk by its blur.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageCover } from "./page-cover.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pagePaintPhase } from "./page-paint-phase.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";

definePagePart(pageDecor, { uses: [pageColour, pageCover, pagePaintOrder, pagePaintPhase, pageRender, pageScan] });

/**
 * Adds decorationCovers to lib (needs pageRender's factsOf and styleOf, pageColour, pageCover's holds, pagePaintOrder).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageDecor(lib) {
  const OPAQUE = 0.85;
  const BAND = 64;
  /** The band of decorations taller than 400 bands, asked by every text. */
  const TALL = -1e9;
  const PICTURES = new Set(["IMG", "VIDEO", "CANVAS", "svg", "IFRAME", "OBJECT", "EMBED"]);
  /** A line-through thinner than this (px) covers no glyph. */
  const MIN_STRIKE_PX = 8;
  /** A line-through covers a line of text when at least this many times as thick as the line's box. */
  const STRIKE_COVERS = 1.2;
  const COLOUR = /(?:rgba?|color|oklch|oklab|lab|lch|hsla?|hwb)\((?:[^()]|\([^()]*\))*\)/;
  const SIDES = ["Top", "Right", "Bottom", "Left"];

  /**
   * @typedef {{l: number, t: number, r: number, b: number}} Box
   * @typedef {{el: Element, outer: Box, hole: Box | null, kind: "outline" | "shadow" | "atomic" | "strike",
   *   solid?: boolean, thick?: number}} Decoration a solid area
   *   (outer less hole) that an element's outline or shadow paints, or an atomic box of its layer (solid: whether
   *   it paints opaque, asked when a text lies in it)
   */

  /** @param {Box} b @param {number} by @returns {Box} */
  const grow = (b, by) => ({ l: b.l - by, t: b.t - by, r: b.r + by, b: b.b + by });
  /** @param {Box} b @param {number} dx @param {number} dy @returns {Box} */
  const move = (b, dx, dy) => ({ l: b.l + dx, t: b.t + dy, r: b.r + dx, b: b.b + dy });
  /** @param {Box} b @returns {Box | null} */
  const real = (b) => (b.r > b.l && b.b > b.t ? b : null);

  /** @param {Element} e @param {Window} win its opacity through every ancestor */
  const alphaThrough = (e, win) => {
    let alpha = 1;
    for (let n = /** @type {Element | null} */ (e); n && alpha > 0; n = n.parentElement) alpha *= parseFloat(lib.styleOf(n, win).opacity) || 0;
    return alpha;
  };

  /** @param {string} colour @param {number} alpha whether a computed colour paints solid */
  const solid = (colour, alpha) => {
    const c = lib.colourOf(colour);
    return !!c && c[3] * alpha >= OPAQUE;
  };

  /**
   * The solid areas an element's outline and box shadows paint.
   * @param {Element} e @param {CSSStyleDeclaration} cs @param {Window} win @returns {Decoration[]}
   */
  const decorationsOf = (e, cs, win) => {
    /** @type {Decoration[]} */
    const out = [];
    const style = cs.outlineStyle;
    if ((style === "none" || style === "auto") && cs.boxShadow === "none") return out; // a border or strike only
    const r = e.getBoundingClientRect();
    const box = { l: r.left, t: r.top, r: r.right, b: r.bottom };
    const alpha = alphaThrough(e, win);
    if (alpha < OPAQUE) return out;
    if (style !== "none" && style !== "auto" && solid(cs.outlineColor, alpha)) {
      const width = parseFloat(cs.outlineWidth) || 0;
      const offset = parseFloat(cs.outlineOffset) || 0;
      const outer = real(grow(box, offset + width));
      if (outer && width > 0) out.push({ el: e, outer, hole: real(grow(box, offset)), kind: "outline" });
    }
    if (cs.boxShadow !== "none") {
      for (const shadow of cs.boxShadow.split(/,(?![^()]*\))/)) {
        const colour = COLOUR.exec(shadow)?.[0];
        if (!colour || !solid(colour, alpha)) continue;
        const inset = /\binset\b/.test(shadow);
        const [dx = 0, dy = 0, blur = 0, spread = 0] = shadow.replace(COLOUR, "").replace(/\binset\b/, "").trim().split(/\s+/).map(parseFloat);
        const any = /** @type {any} */ (e);
        if (inset) {
          const pad = { l: r.left + any.clientLeft, t: r.top + any.clientTop, r: 0, b: 0 };
          pad.r = pad.l + any.clientWidth;
          pad.b = pad.t + any.clientHeight;
          const hole = real(grow(move(pad, dx, dy), -spread - blur / 2));
          out.push({ el: e, outer: pad, hole, kind: "shadow" });
        } else {
          const outer = real(grow(move(box, dx, dy), spread - blur / 2));
          if (outer) out.push({ el: e, outer, hole: box, kind: "shadow" });
        }
      }
    }
    return out;
  };

  /** @param {CSSStyleDeclaration} cs @returns {number[]} its border widths, top, right, bottom, left (px) */
  const borderWidths = (cs) => SIDES.map((side) => parseFloat(/** @type {any} */ (cs)[`border${side}Width`]) || 0);
  /**
   * @param {CSSStyleDeclaration} cs whether a side is as thick as a glyph (a ring of thinner borders covers none), by
   *   one read: a side's computed width is 0 where its style is none or hidden (CSS Backgrounds 3 §4.3), so the
   *   `border-width` shorthand says it for every box, most of which have no border
   */
  const mayRing = (cs) => cs.borderWidth.split(" ").some((w) => parseFloat(w) >= 4);

  /** @param {CSSStyleDeclaration} cs whether a line-through thick enough to cover glyphs is declared */
  const mayStrike = (cs) => cs.textDecorationLine.includes("line-through") && parseFloat(cs.textDecorationThickness) >= MIN_STRIKE_PX;

  /**
   * The solid ring a box's borders paint (painted with its background, as a shadow is), or null: each side of a
   * solid-looking style and an opaque colour counts its width; dotted and dashed sides paint gaps, and count none.
   * @param {Element} e @param {CSSStyleDeclaration} cs @param {Window} win @returns {Decoration | null}
   */
  const borderRing = (e, cs, win) => {
    const any = /** @type {any} */ (cs);
    const widths = borderWidths(cs);
    // Thinner than a glyph on every side covers none, whatever the styles and colours (read only past this).
    if (Math.max(...widths) < 4) return null;
    const alpha = alphaThrough(e, win);
    if (alpha < OPAQUE) return null;
    const [t, r, b, l] = SIDES.map((side, i) => {
      const style = any[`border${side}Style`];
      return /^(none|hidden|dotted|dashed)$/.test(style) || !solid(any[`border${side}Color`], alpha) ? 0 : widths[i];
    });
    if (Math.max(t, r, b, l) < 4) return null; // thinner than a glyph: covers none
    const box = e.getBoundingClientRect();
    const outer = { l: box.left, t: box.top, r: box.right, b: box.bottom };
    return { el: e, outer, hole: real({ l: outer.l + l, t: outer.t + t, r: outer.r - r, b: outer.b - b }), kind: "shadow" };
  };

  /**
   * The bar a thick `line-through` paints over its element's text (after the text, in its own layer), or null: a
   * decoration at least as thick as a line of the text, in a solid colour (CSS Text Decoration 3: line-through
   * is painted after the text; underlines and overlines before it).
   * @param {Element} e @param {CSSStyleDeclaration} cs @param {Window} win @returns {Decoration | null}
   */
  const strikeOf = (e, cs, win) => {
    const thick = parseFloat(cs.textDecorationThickness);
    if (!(thick >= MIN_STRIKE_PX) || !solid(cs.textDecorationColor, alphaThrough(e, win))) return null;
    const r = e.getBoundingClientRect();
    return { el: e, outer: { l: r.left, t: r.top - thick / 2, r: r.right, b: r.bottom + thick / 2 }, hole: null, kind: "strike", thick };
  };


  /** @param {Window} win every solid decoration of the document (once per call) @returns {Decoration[]} */
  const decorations = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.decorations) {
      facts.decorations = [];
      // Subtrees with no boxes (display: none), a picture's insides and never-boxed elements are left out
      // (page-scan.js: the one walk of the document per call, shadow roots' boxes too).
      const { els, styles, inside } = lib.renderedScan(win);
      for (let i = 0; i < els.length; i++) {
        if (inside[i]) continue;
        const e = els[i];
        const cs = styles[i];
        // An atomic box is only placed here: whether it paints opaque in the text's layer is asked when a text lies in it.
        if (PICTURES.has(e.tagName) || /^inline-/.test(cs.display)) {
          const r = e.getBoundingClientRect();
          if (r.width >= 8 && r.height >= 8) facts.decorations.push({ el: e, outer: { l: r.left, t: r.top, r: r.right, b: r.bottom }, hole: null, kind: "atomic" });
        }
        // What its style alone rules out is left before its visibility is asked (checkVisibility climbs the tree):
        // a form control's thin UA border, an outline `auto` (the focus ring) paint nothing that covers a glyph.
        const outlined = cs.outlineStyle !== "none" && cs.outlineStyle !== "auto";
        const struck = mayStrike(cs);
        const ringed = mayRing(cs);
        if (!outlined && cs.boxShadow === "none" && !ringed && !struck) continue;
        if (cs.visibility !== "visible" || !e.checkVisibility()) continue;
        const strike = struck ? strikeOf(e, cs, win) : null;
        if (strike) facts.decorations.push(strike);
        facts.decorations.push(...decorationsOf(e, cs, win));
        const ring = ringed ? borderRing(e, cs, win) : null;
        if (ring) facts.decorations.push(ring);
      }
    }
    return facts.decorations;
  };

  /** @param {Element} e @param {Window} win whether an atomic box in its parent's layer paints opaque, and shows */
  const atomicPaints = (e, win) => lib.layerOf(e, win) !== e && lib.paints(e, win) && alphaThrough(e, win) >= OPAQUE
    && lib.styleOf(e, win).visibility === "visible" && e.checkVisibility();

  /**
   * The decorations by horizontal band of the viewport's coordinates (BAND px high; each in every band it
   * reaches), so a text asks only those near it.
   * @param {Window} win @returns {Map<number, Decoration[]>}
   */
  const bandsOf = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.decorationBands) {
      /** @type {Map<number, Decoration[]>} */
      const bands = new Map();
      for (const d of decorations(win)) {
        const [from, to] = to400(Math.floor(d.outer.t / BAND), Math.floor(d.outer.b / BAND));
        for (let i = from; i <= to; i++) {
          let list = bands.get(i);
          if (!list) bands.set(i, (list = []));
          list.push(d);
        }
      }
      facts.decorationBands = bands;
    }
    return facts.decorationBands;
  };

  /** @param {number} from @param {number} to a decoration's bands: one band of its own past 400 @returns {number[]} */
  const to400 = (from, to) => (to - from >= 400 ? [TALL, TALL] : [from, to]);

  /** @param {Box} b @param {number[]} p */
  const inside = (b, [x, y]) => x > b.l && x < b.r && y > b.t && y < b.b;

  /** @param {Node} a @param {Node} b whether a holds b, across shadow roots (page-cover.js) */
  const holds = (a, b) => lib.holds(a, b);

  /**
   * Whether a decoration is painted after the in-flow text of `el`.
   * @param {Decoration} d @param {Element} el @param {Node} node the text @param {Window} win
   */
  const paintedAfter = (d, el, node, win) => {
    if (d.kind === "strike") return holds(d.el, node); // over the text it decorates (inline descendants' too)
    if (d.kind === "atomic" && (holds(d.el, node) || !(d.solid ??= atomicPaints(d.el, win)))) return false;
    // A picture that does not scroll with the text is not over it where the text can be read (text scrolled out of
    // a pane lies, unclipped, under whatever is beside the pane).
    if (d.kind === "atomic" && lib.scrollerAbove(d.el, win) !== lib.scrollerAt(el, win)) return false;
    const layer = lib.layerOf(d.el, win);
    if (layer === lib.layerOf(el, win)) {
      // One layer: outlines after its text, shadows before; a picture or inline-block by appendix E's steps
      // (page-paint-phase.js: with the lines, in order-modified tree order).
      return d.kind === "atomic" ? lib.laterInLayer(d.el, node, el, layer, win) : d.kind === "outline";
    }
    if (holds(d.el, el)) return false; // its own content in a layer of its own paints over its shadow
    return !!layer && lib.paintedOver(layer, el, win, node);
  };

  /**
   * @param {Element} el the element whose text it is @param {Box[]} parts the text's visible boxes @param {Window} win
   * @param {Node} node the text
   * @returns {boolean} whether an opaque outline or box shadow is painted over it
   */
  lib.decorationCovers = (el, parts, win, node) => {
    const bands = bandsOf(win);
    if (!bands.size || !parts.length) return false;
    const points = (parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts).map((p) => [(p.l + p.r) / 2, (p.t + p.b) / 2]);
    const near = [...(bands.get(Math.floor(points[0][1] / BAND)) ?? []), ...(bands.get(TALL) ?? [])];
    const tall = Math.max(...parts.map((p) => p.b - p.t));
    return near.some((d) => points.every((p) => inside(d.outer, p) && !(d.hole && inside(d.hole, p)))
      && (d.kind !== "strike" || (d.thick ?? 0) >= tall * STRIKE_COVERS) && paintedAfter(d, el, node, win));
  };
}
