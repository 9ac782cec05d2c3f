/**
 * In-page: the rendering facts the visibility judgement (page-visibility.js) is made from, read from the
 * browser's own layout rather than guessed from CSS properties (issue 18; colours: page-colour.js, what is painted
 * over text: page-cover.js):
 *
 * - `areasOf(win)`: the document's scrollable area and the viewport, in viewport coordinates;
 * - `renderContext(el, cs, st)`: what an element passes to its descendants: the effective opacity through every
 *   ancestor, filter (`opacity()`; an SVG filter's url() as measured, page-svg-effects.js; the colour functions
 *   are kept as its `tint`, page-colour.js tinted) and mask
 *   (a gradient mask's most opaque stop), the rectangle every overflow-clipping ancestor (at its current scroll
 *   position), `clip`, `contain: paint` and a `clip-path` (a basic shape's, a path's or a <clipPath>'s bounding
 *   box: page-clip-shape.js) leave visible, its blend
 *   mode, whether a 3D transform turns its back (backface-visibility: hidden), whether its content is rendered
 *   at all (content-visibility: hidden and a closed <details> skip theirs: the browser's checkVisibility), and whether the document's scrollable area bounds it
 *   (a scroll container's content is reached by scrolling it instead); absolutely positioned descendants take the
 *   context of their containing block, fixed ones the viewport. Plus `hidden`: why nothing of the element itself
 *   can show, or "".
 * - `textBoxes(node)`: a text node's boxes after transforms and zoom (Range.getClientRects).
 * - `shownData(node, rc, win)`: its text with the words outside what can show blanked (a clipped line's tail), and
 *   those that paint nothing legible (page-word-paint.js: a font blank for some characters, a pale highlight).
 * - `boxesShow(rects, chars, rc, win)`: whether boxes can show one legible glyph: thicker than MIN_GLYPH_PX,
 *   an advance per character of at least MIN_ADVANCE_PX (nothing squashed, scaled or rotated to an edge), and a
 *   part at least one glyph in size left inside the clip and the scrollable area. Returns why not, or "".
 *
 * Facts read from layout are cached for one synchronous call only (cleared in a microtask): scrolling, resizing
 * or script between two calls cannot leave a stale answer.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageClipShape } from "./page-clip-shape.js";
import { pageColour } from "./page-colour.js";
import { pageDetailsContent } from "./page-details-content.js";
import { pageMotion } from "./page-motion.js";
import { pageShear } from "./page-shear.js";
import { pageSvgEffects } from "./page-svg-effects.js";
import { pageWordPaint } from "./page-word-paint.js";

definePagePart(pageRender, { uses: [pageClipShape, pageColour, pageDetailsContent, pageMotion, pageShear, pageSvgEffects, pageWordPaint] });

/**
 * Adds factsOf, styleOf, areasOf, renderContext, skipsContent, boxOff, textBoxes, paintedBoxes, shownData, boxesShow, showsAt
 * and shownParts to lib (needs pageColour).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageRender(lib) {
  /** A box thinner than this shows no legible glyph (the text box of a ~4 px font). */
  const MIN_GLYPH_PX = 4.5;
  /** Narrower than this per character, glyphs overlap into a smear (scaled, squashed, negative letter-spacing). */
  const MIN_ADVANCE_PX = 1.5;
  /** Effective opacity at or under this shows nothing (text composited with it differs from its background by
   * under the contrast the colour judgement asks for, whatever the colours). */
  const MIN_ALPHA = 0.02;
  const INF = Infinity;
  /** @type {Map<Window, any>} facts of one synchronous call, per window */
  let cache = new Map();
  let clearing = false;
  /** @param {Window} win */
  const factsOf = (win) => {
    let facts = cache.get(win);
    if (!facts) {
      cache.set(win, (facts = {}));
      if (!clearing) {
        clearing = true;
        queueMicrotask(() => {
          cache = new Map();
          clearing = false;
        });
      }
    }
    return facts;
  };
  lib.factsOf = factsOf;

  /** @type {(new (live: CSSStyleDeclaration) => CSSStyleDeclaration) | null} */
  let ReadOnce = null;

  /**
   * The CSS name of a style attribute (`backgroundColor` → `background-color`, `webkitMaskImage` →
   * `-webkit-mask-image`, `cssFloat` → `float`), or null where that name is not one the style reads the same
   * value by: getPropertyValue costs less than the attribute's named lookup (about 0.8×, measured on Chromium 156).
   * @param {string} name @param {CSSStyleDeclaration} live @returns {string | null}
   */
  const cssName = (name, live) => {
    const css = name.includes("-") ? name : name === "cssFloat" ? "float"
      : (/^(webkit|epub)[A-Z]/.test(name) ? "-" : "") + name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    try {
      return CSS.supports(css, "initial") && live.getPropertyValue(css) === /** @type {any} */ (live)[name] ? css : null;
    } catch {
      return null;
    }
  };
  /**
   * A computed style that asks the browser for each property once: every read of a live CSSStyleDeclaration
   * serialises the value afresh (~0.4 µs), and the judgement reads about 25 properties of each element, most of
   * them several times (bench/visibility_cost.py counts the reads). Its properties are the live object's own (CSS
   * properties are named properties there, not accessors of the prototype); a Proxy costs more than the reads.
   * The values sit in an array, each property at the slot it got at its first read by any style (the library reads
   * about 35 properties in all), the array sized to the slots known when the style is made: a Map per style grew
   * its table three or four times per element, a fifth of what a walk allocated (bench/visibility_cost.py
   * --against: 0.94× the walk's CPU time).
   * @param {CSSStyleDeclaration} live @returns {CSSStyleDeclaration}
   */
  const readOnce = (live) => {
    if (!ReadOnce) {
      const slots = { n: 0 };
      const Style = class {
        /** @param {CSSStyleDeclaration} style */
        constructor(style) {
          this.live = style;
          /** @type {any[]} */
          this.values = new Array(slots.n);
        }
      };
      const names = new Set([...Object.getOwnPropertyNames(live).filter((n) => !/^\d/.test(n)), "cssFloat", "cssText", "length"]);
      for (const name of names) {
        let slot = -1;
        /** @type {string | null} the property's CSS name, read through getPropertyValue (null: read by name) */
        let css = null;
        Object.defineProperty(Style.prototype, name, {
          get() {
            if (slot < 0) {
              slot = slots.n++;
              css = cssName(name, this.live);
            }
            let value = this.values[slot];
            if (value === undefined) this.values[slot] = value = css ? this.live.getPropertyValue(css) : this.live[name];
            return value;
          },
        });
      }
      for (const method of ["getPropertyValue", "getPropertyPriority", "item"]) {
        Object.defineProperty(Style.prototype, method, {
          value(/** @type {any[]} */ ...args) {
            return this.live[method](...args);
          },
        });
      }
      ReadOnce = /** @type {any} */ (Style);
    }
    return new /** @type {any} */ (ReadOnce)(live);
  };

  /**
   * An element's computed style, one object per element and call, each property as it was at its first read in the
   * call (facts of one synchronous call: nothing in a call changes the page).
   * @param {Element} el @param {Window} win @returns {CSSStyleDeclaration}
   */
  lib.styleOf = (el, win) => {
    const known = (factsOf(win).styles ??= new WeakMap());
    let cs = known.get(el);
    if (!cs) known.set(el, (cs = readOnce(win.getComputedStyle(el))));
    return cs;
  };

  /** @param {Window} win the document's scrollable area, in viewport coordinates, and the viewport's */
  const areasOf = (win) => {
    const facts = factsOf(win);
    if (!facts.area) {
      const doc = win.document;
      const root = doc.documentElement;
      const scroller = doc.scrollingElement ?? root;
      const rs = win.getComputedStyle(root);
      const bs = doc.body ? win.getComputedStyle(doc.body) : rs;
      const over = (/** @type {"overflowX" | "overflowY"} */ axis) => (rs[axis] !== "visible" ? rs[axis] : bs[axis]);
      const w = win.innerWidth;
      const h = win.innerHeight;
      const rtl = rs.direction === "rtl";
      const [sx, sy] = [win.scrollX, win.scrollY];
      const fixedX = /hidden|clip/.test(over("overflowX"));
      const fixedY = /hidden|clip/.test(over("overflowY"));
      const sw = Math.max(scroller.scrollWidth, root.clientWidth);
      const sh = Math.max(scroller.scrollHeight, root.clientHeight);
      facts.viewport = { l: 0, t: 0, r: w, b: h };
      facts.area = {
        l: fixedX ? 0 : rtl ? root.clientWidth - sw - sx : -sx,
        r: fixedX ? w : rtl ? root.clientWidth - sx : sw - sx,
        t: fixedY ? 0 : -sy,
        b: fixedY ? h : sh - sy,
      };
      facts.maxScrollY = fixedY ? sy : Math.max(0, sh - root.clientHeight);
    }
    return facts;
  };
  lib.areasOf = areasOf;

  /** @typedef {{l: number, t: number, r: number, b: number}} Box */
  /** @param {Box} a @param {Box} b @returns {Box} */
  const meet = (a, b) => ({ l: Math.max(a.l, b.l), t: Math.max(a.t, b.t), r: Math.min(a.r, b.r), b: Math.min(a.b, b.b) });
  const NO_CLIP = { l: -INF, t: -INF, r: INF, b: INF };
  /** @param {DOMRect} r @returns {Box} */
  const boxOf = (r) => ({ l: r.left, t: r.top, r: r.right, b: r.bottom });

  /**
   * @typedef {{clip: Box, freeX: boolean, freeY: boolean, fixed: boolean}} Frame where a box can show
   * @typedef {{alpha: number, blur: number, at: Frame, abs: Frame | null, hidden: string, parent?: RenderContext,
   *   shaped?: boolean, tint?: [string, number][], blend?: string, blender?: Element, shadows?: string[],
   *   skips?: boolean, flipped?: boolean, flat?: boolean,
   *   linear?: number[], squash?: number, content?: RenderContext, style?: CSSStyleDeclaration}}
   *   RenderContext content: an open <details>'s ::details-content box's (style: that box's computed style), for
   *   its children but the summary;
   *   linear, squash: the transforms' linear part over it and its least stretch (page-shear.js), set
   *   only under a transform; shaped: a clip-path of it or an ancestor may cut it (page-cover.js asks hit testing); tint: the
   *   colour filters its paint goes through, innermost first; blend: the mix-blend-mode it is painted with (set
   *   on `blender`, page-isolation.js); shadows: the filters' drop-shadow()s, as text shadows (page-visibility.js); skips:
   *   its content is not rendered (content-visibility: hidden, a closed <details>); flipped: a 3D transform shows
   *   its back; flat: its children are flattened into its plane (no preserve-3d)
   */

  /** Filter functions that change colours (page-colour.js tinted), not opacity or sharpness. */
  const TINTS = new Set(["brightness", "contrast", "invert", "grayscale", "sepia", "saturate", "hue-rotate"]);
  /** @param {string} arg an angle @returns {number} degrees */
  const degrees = (arg) => {
    const v = parseFloat(arg);
    return arg.endsWith("turn") ? v * 360 : arg.endsWith("grad") ? v * 0.9 : arg.endsWith("rad") ? (v * 180) / Math.PI : v;
  };

  /**
   * @param {string} filter a computed filter
   * @returns {[number, number, [string, number][]]} [opacity factor, blur px, the colour functions in order]
   */
  const filterEffect = (filter) => {
    if (filter === "none") return [1, 0, []];
    let alpha = 1;
    let blur = 0;
    /** @type {[string, number][]} */
    const tint = [];
    for (const [, fn, arg] of filter.matchAll(/([a-z-]+)\(([^()]*)\)/g)) {
      const a = arg.trim();
      const v = fn === "hue-rotate" ? degrees(a) : a.endsWith("%") ? parseFloat(a) / 100 : a === "" ? 1 : parseFloat(a);
      if (Number.isNaN(v)) continue;
      if (fn === "opacity") alpha *= Math.min(1, v);
      else if (fn === "blur") blur += v;
      else if (TINTS.has(fn)) tint.push([fn, v]);
    }
    return [alpha, blur, tint];
  };

  /**
   * @param {CSSStyleDeclaration} cs @param {Element} el the most opaque a mask lets anything be (a gradient's most
   *   opaque stop; an SVG <mask>'s, page-svg-effects.js; a picture mask: 1, unknown)
   */
  const maskAlpha = (cs, el) => {
    const any = /** @type {any} */ (cs);
    const mask = any.maskImage ?? any.webkitMaskImage ?? "none";
    if (!mask || mask === "none") return 1;
    const layers = layersOf(mask);
    const modes = listOf(any.maskMode, "match-source");
    const repeats = listOf(any.maskRepeat ?? any.webkitMaskRepeat, "repeat");
    const sizes = listOf(any.maskSize ?? any.webkitMaskSize, "auto");
    const places = listOf(any.maskPosition ?? any.webkitMaskPosition, "0% 0%");
    // Each layer's most opaque and, for a gradient of one colour that covers the whole box, its one value.
    const most = layers.map((/** @type {string} */ layer, /** @type {number} */ i) => {
      const stops = lib.gradientColours(layer);
      if (!stops) return { most: lib.maskUrlAlpha(layer, el), even: false };
      const values = stops.map((/** @type {number[]} */ c) => c[3] * (modes[i % modes.length] === "luminance" ? luminance(c) : 1));
      const covers = /^repeat( repeat)?$/.test(repeats[i % repeats.length])
        || (/^(auto|auto auto|100% 100%|cover)$/.test(sizes[i % sizes.length]) && /^0(%|px) 0(%|px)$/.test(places[i % places.length]));
      return { most: Math.max(...values), even: covers && values.every((/** @type {number} */ v) => v === values[0]) };
    });
    if (most.length === 1 || !most.every((m) => m.even)) return Math.max(...most.map((m) => m.most));
    // Layers of one value each, composited bottom to top (CSS Masking's mask-composite).
    const ops = listOf(any.maskComposite, "add");
    let out = most[most.length - 1].most;
    for (let i = most.length - 2; i >= 0; i--) out = (COMPOSITE[ops[i % ops.length]] ?? COMPOSITE.add)(most[i].most, out);
    return out;
  };
  /** mask-composite's operators (and -webkit-mask-composite's Porter-Duff names), of a layer's value `a` over
   * the layers below it `b`. @type {Record<string, (a: number, b: number) => number>} */
  const COMPOSITE = {
    add: (a, b) => a + b * (1 - a), "source-over": (a, b) => a + b * (1 - a), "destination-over": (a, b) => b + a * (1 - b),
    subtract: (a, b) => a * (1 - b), "source-out": (a, b) => a * (1 - b), "destination-out": (a, b) => b * (1 - a),
    intersect: (a, b) => a * b, "source-in": (a, b) => a * b, "destination-in": (a, b) => a * b,
    exclude: (a, b) => a * (1 - b) + b * (1 - a), xor: (a, b) => a * (1 - b) + b * (1 - a),
    "source-atop": (a, b) => b, "destination-atop": (a, b) => a, clear: () => 0, copy: (a) => a,
  };
  /** @param {string} v a computed list @returns {string[]} its layers (split at commas outside parentheses) */
  const layersOf = (v) => {
    /** @type {string[]} */
    const out = [];
    let depth = 0;
    let from = 0;
    for (let i = 0; i < v.length; i++) {
      if (v[i] === "(") depth++;
      else if (v[i] === ")") depth--;
      else if (v[i] === "," && depth === 0) {
        out.push(v.slice(from, i).trim());
        from = i + 1;
      }
    }
    out.push(v.slice(from).trim());
    return out;
  };
  /** @param {string | undefined} v a computed list @param {string} none its initial value @returns {string[]} */
  const listOf = (v, none) => (v ? layersOf(v) : [none]);
  /** @param {number[]} c an sRGB colour @returns {number} its relative luminance, 0–1 (a luminance mask's value) */
  const luminance = (c) => {
    const lin = c.slice(0, 3).map((v) => ((v / 255) <= 0.04045 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  };
  /** @param {CSSStyleDeclaration} cs @param {Element} el a mask image's and a mask box image's most opaque (page-svg-effects.js) */
  const masksAlpha = (cs, el) => maskAlpha(cs, el) * lib.maskBoxAlpha(cs, el);

  /** @param {string} clip a computed `clip` value, against the border box @param {DOMRect} box @returns {Box | null} */
  const clipRect = (clip, box) => {
    const m = /^rect\(([^)]*)\)$/.exec(clip);
    if (!m) return null;
    const v = m[1].split(/[\s,]+/).map((x) => (x === "auto" ? null : parseFloat(x)));
    if (v.length !== 4) return null;
    const [top, right, bottom, left] = v;
    return { t: box.top + (top ?? 0), r: box.left + (right ?? box.width), b: box.top + (bottom ?? box.height), l: box.left + (left ?? 0) };
  };

  /**
   * The box a basic-shape clip-path (inset, circle, ellipse, polygon; against the border box) leaves at most, or
   * null for any other (a path or url(): hit testing judges those where it can, page-cover.js).
   * @param {string} path a computed clip-path @param {DOMRect} box @returns {Box | null}
   */
  const clipPathBox = (path, box) => {
    const m = /^(inset|circle|ellipse|polygon)\((.*)\)(?:\s+[a-z-]+)?$/.exec(path);
    if (!m) return null;
    const [w, h] = [box.width, box.height];
    /** @param {string} v @param {number} of */
    const len = (v, of) => (v.endsWith("%") ? (parseFloat(v) / 100) * of : parseFloat(v));
    const args = m[2].trim();
    if (m[1] === "inset") {
      const v = args.split(/\s+round\s+/)[0].trim().split(/\s+/);
      const [t, r = t, b = t, l = r] = v;
      const out = { l: box.left + len(l, w), t: box.top + len(t, h), r: box.right - len(r, w), b: box.bottom - len(b, h) };
      return [out.l, out.t, out.r, out.b].some(Number.isNaN) ? null : out;
    }
    if (m[1] === "polygon") {
      const pts = args.replace(/^(nonzero|evenodd)\s*,/, "").split(",").map((p) => p.trim().split(/\s+/));
      const xs = pts.map((p) => box.left + len(p[0], w));
      const ys = pts.map((p) => box.top + len(p[1] ?? "", h));
      if ([...xs, ...ys].some(Number.isNaN)) return null;
      return { l: Math.min(...xs), t: Math.min(...ys), r: Math.max(...xs), b: Math.max(...ys) };
    }
    const [radii, at = "50% 50%"] = args.split(/\s*\bat\b\s*/);
    const [cx, cy] = at.trim().split(/\s+/);
    const x = box.left + len(cx ?? "50%", w);
    const y = box.top + len(cy ?? cx ?? "50%", h);
    const r = radii.trim().split(/\s+/);
    const diag = Math.hypot(w, h) / Math.SQRT2;
    const rx = /^\d/.test(r[0] ?? "") ? len(r[0], m[1] === "circle" ? diag : w) : NaN;
    const ry = m[1] === "circle" ? rx : /^\d/.test(r[1] ?? "") ? len(r[1], h) : NaN;
    if ([x, y, rx, ry].some(Number.isNaN)) return null; // closest-side and the like: not judged here
    return { l: x - rx, t: y - ry, r: x + rx, b: y + ry };
  };

  /** @param {Box} b @param {number} [min] whether a box can hold one glyph */
  const holdsGlyph = (b, min = MIN_GLYPH_PX) => b.r - b.l >= min && b.b - b.t >= min;

  /** @param {Frame} at @param {Window} win the rectangle a box can show in */
  const showable = (at, win) => {
    if (at.fixed) return meet(at.clip, areasOf(win).viewport);
    const area = areasOf(win).area;
    return meet(at.clip, { l: at.freeX ? -INF : area.l, r: at.freeX ? INF : area.r, t: at.freeY ? -INF : area.t,
      b: at.freeY ? INF : area.b });
  };

  /**
   * The drop shadows a filter draws of everything under it (one `drop-shadow(colour dx dy blur)` each, as a
   * text shadow reads), added to the ones its ancestors' filters draw.
   * @param {string} filter a computed filter @param {string[] | undefined} parent @returns {string[] | undefined}
   */
  const dropShadows = (filter, parent) => {
    if (filter === "none" || !filter.includes("drop-shadow(")) return parent;
    const own = [...filter.matchAll(/drop-shadow\(((?:[^()]|\([^()]*\))*)\)/g)].map((m) => m[1]);
    return [...own, ...(parent ?? [])];
  };

  /**
   * The blend mode an element's text is painted with: its own, else its parent's (isolation: isolate ends it).
   * Style reads cost: isolation is read only under a blend.
   * @param {CSSStyleDeclaration} cs @param {string | undefined} parent
   */
  const blendOf = (cs, parent) => {
    const mode = cs.mixBlendMode;
    if (mode !== "normal") return mode;
    return parent && cs.isolation !== "isolate" ? parent : undefined;
  };

  const CLIPS = /hidden|clip/;
  const HTML = "http://www.w3.org/1999/xhtml";
  /** HTML elements whose box is atomic (replaced, or a form control) even when their display is `inline`. */
  const ATOMIC = new Set(["IMG", "VIDEO", "AUDIO", "CANVAS", "IFRAME", "EMBED", "OBJECT", "INPUT", "TEXTAREA", "SELECT",
    "BUTTON", "METER", "PROGRESS", "FRAME", "FRAMESET"]);
  /** @param {Element} el @param {CSSStyleDeclaration} cs whether its box is a non-replaced inline box */
  const inlineFlow = (el, cs) => cs.display === "inline" && el.namespaceURI === HTML && !ATOMIC.has(el.tagName);
  /**
   * Displays whose box content-visibility does not skip: size containment has no effect on a table's inner box,
   * internal table boxes but cells, internal ruby boxes (CSS Containment 2 §3.2), as Chromium paints them
   * (tests/e2e/test_visibility_inline_boxes.py compares each with its unstyled twin); a non-replaced inline
   * box is the fourth (inlineFlow).
   */
  const UNSKIPPED = /^(?:table|inline-table|table-row|table-row-group|table-header-group|table-footer-group|table-column|table-column-group|ruby|ruby-text|ruby-base|ruby-text-container|ruby-base-container)$/;

  /**
   * Whether an element's content-visibility skips painting its content (a closed <details> is asked apart):
   * every reader asks here, none reads the property.
   * @param {Element} el @param {CSSStyleDeclaration} cs
   */
  lib.skipsContent = (el, cs) => cs.contentVisibility === "hidden" && !inlineFlow(el, cs) && !UNSKIPPED.test(cs.display);
  const SCROLLS = /auto|scroll/;

  /**
   * The render context of an element without a box (display: contents): it paints nothing itself, so its
   * opacity, filters, masks, clips, overflow, position and blend mode apply to nothing; its children are painted
   * as its parent's (an open <details>'s content box still holds them: `parent` is that box's when it does).
   * @param {Element} el @param {RenderContext} parent @param {RenderContext} above the parent element's context
   * @param {{win: Window, rc?: RenderContext}} st @param {any} facts
   * @returns {RenderContext}
   */
  const boxless = (el, parent, above, st, facts) => {
    const alpha = parent.alpha;
    const hidden = (parent !== above ? parent.hidden : "") || (alpha <= MIN_ALPHA ? "opacity"
      : parent.skips && ![...el.children].some((k) => k.checkVisibility()) ? "not rendered" : "");
    /** @type {RenderContext} */
    const rc = { ...parent, alpha, hidden, parent: st.rc, content: undefined, style: undefined,
      skips: !!parent.skips || (el.tagName === "DETAILS" && !(/** @type {any} */ (el).open)) };
    facts.rcs.set(el, rc);
    return rc;
  };
  /**
   * The render context an element passes to its descendants, and why nothing of it shows ("" when it may).
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {{win: Window, rc?: RenderContext}} st the parent's walk state
   * @returns {RenderContext}
   */
  lib.renderContext = (el, cs, st) => {
    const facts = factsOf(st.win);
    const known = (facts.rcs ??= new WeakMap()).get(el);
    if (known && known.parent === st.rc) return known;
    /** @type {RenderContext} */
    const above = st.rc ?? { alpha: 1, blur: 0, at: { clip: NO_CLIP, freeX: false, freeY: false, fixed: false }, abs: null, hidden: "" };
    // An open <details>'s children but its summary stand in its ::details-content box (page-details-content.js).
    const parent = above.content && !lib.isDetailsSummary(el) ? above.content : above;
    if (cs.display === "contents") return boxless(el, parent, above, st, facts);
    const position = cs.position;
    // A non-replaced inline box is not transformed, clipped to its overflow, contained or skipped by its own
    // transform, overflow, contain or content-visibility (CSS Transforms 1 §3, Overflow 3 §3, Containment 2 §3
    // and §4 apply them to block-level and atomic boxes only): those four style reads are left out for it.
    const flow = inlineFlow(el, cs);
    const transform = flow ? "none" : cs.transform;
    /** @type {Frame} */
    let at = position === "fixed" ? { clip: NO_CLIP, freeX: false, freeY: false, fixed: true }
      : position === "absolute" ? (parent.abs ?? parent.at) : parent.at;
    const [fAlpha, blur, ownTint] = filterEffect(cs.filter);
    // page-motion.js: where a short animation ends; page-svg-effects.js: an SVG filter's opacity
    const alpha = parent.alpha * lib.settledOpacity(el, cs, st.win, facts) * fAlpha * masksAlpha(cs, el) * lib.filterUrlAlpha(cs.filter, el);
    let hidden = parent !== above ? parent.hidden : ""; // what hides a details' content box hides what is in it
    if (!hidden && alpha <= MIN_ALPHA) hidden = "opacity";
    // The content of an element that skips rendering it (content-visibility: hidden, hidden=until-found, a
    // closed <details> but its summary) has no box the browser paints: checkVisibility tells.
    if (!hidden && parent.skips && !el.checkVisibility()) hidden = "not rendered";
    // A 3D transform that turns the element's back to the viewer, with backface-visibility: hidden.
    let flipped = parent.flat === false ? !!parent.flipped : false;
    if (transform !== "none" && /^matrix3d/.test(transform) && new (/** @type {any} */ (st.win).DOMMatrixReadOnly)(transform).m33 < 0) flipped = !flipped;
    if (!hidden && flipped && cs.backfaceVisibility === "hidden") hidden = "turned away";
    const ox = flow ? "visible" : cs.overflowX;
    const oy = flow ? "visible" : cs.overflowY;
    const paintContained = !flow && /paint|strict|content/.test(cs.contain);
    const ownClip = (position === "absolute" || position === "fixed") && cs.clip !== "auto";
    if (!hidden && (ox !== "visible" || oy !== "visible" || paintContained || ownClip)) {
      const box = el.getBoundingClientRect();
      const seen = meet(showable(at, st.win), boxOf(box));
      if (!holdsGlyph(seen)) hidden = "zero size";
      let clip = at.clip;
      if (ownClip) {
        const r = clipRect(cs.clip, box);
        if (r) {
          clip = meet(clip, r);
          if (!holdsGlyph(clip)) hidden = "clipped";
        }
      }
      const any = /** @type {any} */ (el);
      const reach = { l: box.left + any.clientLeft - any.scrollLeft, t: box.top + any.clientTop - any.scrollTop, r: 0, b: 0 };
      reach.r = reach.l + any.scrollWidth;
      reach.b = reach.t + any.scrollHeight;
      const freeX = SCROLLS.test(ox) ? true : at.freeX;
      const freeY = SCROLLS.test(oy) ? true : at.freeY;
      clip = {
        l: SCROLLS.test(ox) ? reach.l : CLIPS.test(ox) || paintContained ? Math.max(clip.l, box.left) : clip.l,
        r: SCROLLS.test(ox) ? reach.r : CLIPS.test(ox) || paintContained ? Math.min(clip.r, box.right) : clip.r,
        t: SCROLLS.test(oy) ? reach.t : CLIPS.test(oy) || paintContained ? Math.max(clip.t, box.top) : clip.t,
        b: SCROLLS.test(oy) ? reach.b : CLIPS.test(oy) || paintContained ? Math.min(clip.b, box.bottom) : clip.b,
      };
      at = { clip, freeX, freeY, fixed: at.fixed };
    }
    if (!hidden && cs.clipPath !== "none") {
      const rect = el.getBoundingClientRect();
      const shape = clipPathBox(cs.clipPath, rect) ?? lib.clipShapeBox(cs.clipPath, rect, el); // path(), url(): page-clip-shape.js
      if (shape) {
        at = { ...at, clip: meet(at.clip, shape) };
        if (!holdsGlyph(at.clip)) hidden = "clipped";
      }
    }
    const masked = hidden ? null : lib.maskBox(cs, el); // page-clip-shape.js
    if (masked) {
      at = { ...at, clip: meet(at.clip, masked) };
      if (!holdsGlyph(at.clip)) hidden = "clipped";
    }
    const containing = position !== "static" || transform !== "none" || cs.filter !== "none" || paintContained;
    const linear = flow ? parent.linear : lib.linearThrough(cs, parent.linear, st.win); // page-shear.js
    /** @type {RenderContext} */
    const rc = { alpha, blur: parent.blur + blur, at, abs: containing ? at : parent.abs, hidden, parent: st.rc,
      linear, squash: linear === parent.linear ? parent.squash : linear && lib.leastStretch(linear),
      shaped: !!parent.shaped || cs.clipPath !== "none",
      tint: ownTint.length ? [...ownTint, ...(parent.tint ?? [])] : parent.tint,
      blend: blendOf(cs, parent.blend), blender: cs.mixBlendMode !== "normal" ? el : blendOf(cs, parent.blend) ? parent.blender : undefined,
      shadows: dropShadows(cs.filter, parent.shadows),
      skips: lib.skipsContent(el, cs) || (el.tagName === "DETAILS" && !(/** @type {any} */ (el).open)),
      flipped, flat: !flipped || cs.transformStyle !== "preserve-3d" }; // only a turned element's children ask
    const content = hidden ? null : lib.detailsContent(el, st.win); // page-details-content.js
    if (content) rc.content = { ...lib.renderContext(content.box, content.cs, { win: st.win, rc }), style: content.cs };
    facts.rcs.set(el, rc);
    return rc;
  };

  /** @param {Element} el @param {RenderContext | undefined} rc @param {Window} win whether an element's box is off everything it can show in */
  lib.boxOff = (el, rc, win) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) return false;
    const seen = meet(showable(rc?.at ?? { clip: NO_CLIP, freeX: false, freeY: false, fixed: false }, win), boxOf(box));
    // A box of no height (or width) in view is a line there, not off-screen: what overflows it shows.
    return seen.r < seen.l || seen.b < seen.t || (seen.r === seen.l && box.width > 0) || (seen.b === seen.t && box.height > 0);
  };

  /** @type {WeakMap<Document, Range>} */
  const ranges = new WeakMap();
  const SVG_NS = "http://www.w3.org/2000/svg";
  const SVG_TEXT = new Set(["text", "tspan", "textPath"]);
  /** @param {Text} node @returns {DOMRect[]} its boxes as painted (after transforms and zoom) */
  lib.textBoxes = (node) => {
    const doc = /** @type {Document} */ (node.ownerDocument);
    const known = (factsOf(/** @type {Window} */ (doc.defaultView)).boxes ??= new WeakMap());
    let boxes = known.get(node);
    if (!boxes) {
      let range = ranges.get(doc);
      if (!range) ranges.set(doc, (range = doc.createRange()));
      range.selectNodeContents(node);
      boxes = [...range.getClientRects()];
      // SVG text laid out by `textLength` (squeezed or stretched to it) keeps the unadjusted advances in its range's
      // boxes; the element's own box is what is painted: each box is cut to it.
      const parent = node.parentElement;
      if (parent && parent.namespaceURI === SVG_NS && SVG_TEXT.has(parent.localName)) {
        const own = parent.getBoundingClientRect();
        const Rect = /** @type {any} */ (doc.defaultView).DOMRect;
        boxes = boxes.map((/** @type {DOMRect} */ r) => {
          const [l, t] = [Math.max(r.left, own.left), Math.max(r.top, own.top)];
          return new Rect(l, t, Math.max(0, Math.min(r.right, own.right) - l), Math.max(0, Math.min(r.bottom, own.bottom) - t));
        });
      }
      known.set(node, boxes);
    }
    return boxes;
  };

  /**
   * The height a text's glyphs are painted at where layout gives its line boxes none, or 0: layout rounds a font's
   * metrics to whole pixels, so a font under a pixel (0.4 px) has line boxes 0 px high, and a transform that scales
   * it up (40×) paints glyphs of the font times the transforms' least stretch (page-shear.js: 16 px) on them. A
   * font of a pixel or more has boxes of its own height: a thin box there is thin as painted (a tiny `::first-line`
   * above the element's ordinary lines, under a transform too).
   * @param {Text} node @param {RenderContext | undefined} rc @param {Window} win
   */
  const roundedAway = (node, rc, win) => {
    if (rc?.squash === undefined || !node.parentElement) return 0;
    const font = parseFloat(lib.styleOf(node.parentElement, win).fontSize) || 0;
    return font < 1 && rc.squash * font >= MIN_GLYPH_PX ? rc.squash * font : 0;
  };
  /** @param {DOMRect} r @param {number} glyph roundedAway's @param {Window} win @returns {DOMRect} the box as its glyphs paint */
  const asPainted = (r, glyph, win) => (glyph && r.width >= 1 && r.height < MIN_GLYPH_PX
    ? new (/** @type {any} */ (win).DOMRect)(r.x, r.y, r.width, glyph) : r);

  /**
   * A text node's boxes as its glyphs paint them in a render context (roundedAway: a sub-pixel font scaled up).
   * @param {Text} node @param {RenderContext | undefined} rc @param {Window} win @returns {DOMRect[]}
   */
  lib.paintedBoxes = (node, rc, win) => {
    const rects = lib.textBoxes(node);
    const glyph = roundedAway(node, rc, win);
    return glyph ? rects.map((/** @type {DOMRect} */ r) => asPainted(r, glyph, win)) : rects;
  };

  /**
   * Whether a line's box is too thin for a glyph (under MIN_GLYPH_PX high: a tiny `::first-line` above ordinary lines
   * of the same text); a box of no width (a collapsed space) is none.
   * @param {DOMRect} r
   */
  const thinLine = (r) => r.width > 0 && r.height < MIN_GLYPH_PX;
  /**
   * Whether a word's box holds legible glyphs: boxesShow's rule for one box (thick enough for a glyph, an advance per
   * character a glyph needs; a word of one or two characters by its larger side).
   * @param {DOMRect} r @param {number} chars
   */
  const wordSized = (r, chars) => {
    const [thin, long] = [Math.min(r.width, r.height), Math.max(r.width, r.height)];
    return (chars <= 2 && thin >= MIN_ADVANCE_PX ? long : thin) >= MIN_GLYPH_PX && long / chars >= MIN_ADVANCE_PX;
  };

  /**
   * Why a run of text in these boxes shows no legible glyph, or "".
   * @param {DOMRect[]} rects
   * @param {number} chars characters that are not white space
   * @param {RenderContext | undefined} rc
   * @param {Window} win
   * @param {number} fontPx
   */
  lib.boxesShow = (rects, chars, rc, win, fontPx) => {
    let long = 0;
    let thick = 0;
    for (const r of rects) {
      long += Math.max(r.width, r.height);
      // A glyph or two ("." after a link) is narrower than tall: its box is judged by its larger side.
      thick = Math.max(thick, chars <= 2 && Math.min(r.width, r.height) >= MIN_ADVANCE_PX ? Math.max(r.width, r.height)
        : Math.min(r.width, r.height));
    }
    if (!rects.length || thick < MIN_GLYPH_PX || long / Math.max(chars, 1) < MIN_ADVANCE_PX) return "too small to read";
    if (rc && rc.blur >= fontPx * 0.4) return "blurred";
    if (rc?.squash !== undefined && rc.squash * fontPx < MIN_GLYPH_PX) return "squashed"; // sheared or scaled thin
    const where = showable(rc?.at ?? { clip: NO_CLIP, freeX: false, freeY: false, fixed: false }, win);
    for (const r of rects) {
      const part = meet(where, boxOf(r)); // as much of the box as one glyph needs, or all of a smaller box
      if (part.r - part.l >= Math.min(MIN_GLYPH_PX, r.width) && part.b - part.t >= Math.min(MIN_GLYPH_PX, r.height)
        && part.r > part.l && part.b > part.t) return "";
    }
    return "off-screen or clipped";
  };

  /**
   * Whether a box moved by (dx, dy) (a text shadow) still has a glyph-sized part inside what can show.
   * @param {{left: number, top: number, right: number, bottom: number}} r @param {number} dx @param {number} dy
   * @param {RenderContext | undefined} rc @param {Window} win
   */
  lib.showsAt = (r, dx, dy, rc, win) => holdsGlyph(meet(showable(rc?.at ?? { clip: NO_CLIP, freeX: false, freeY: false,
    fixed: false }, win), { l: r.left + dx, t: r.top + dy, r: r.right + dx, b: r.bottom + dy }));

  /**
   * A text node's text with the words that lie outside what can show blanked (same length, so offsets still
   * map to the node): the clipped tail of a line in an overflow-hidden box, past an ellipsis or in an overflow
   * column; the words a person sees stay. Most nodes lie wholly inside and cost one comparison per box.
   * @param {Text} node @param {RenderContext | undefined} rc @param {Window} win @returns {string}
   */
  lib.shownData = (node, rc, win) => {
    // Once per node and render context in a call: a control's text is read again for its name and token.
    const known = (factsOf(win).shown ??= new WeakMap());
    const last = known.get(node);
    if (last && last.rc === rc) return last.data;
    const data = lib.unseenWords(node, clippedData(node, rc, win), win); // page-word-paint.js
    known.set(node, { rc, data });
    return data;
  };

  /** @param {Text} node @param {RenderContext | undefined} rc @param {Window} win @returns {string} its text, the clipped words blanked */
  const clippedData = (node, rc, win) => {
    const data = node.data;
    if (!/\S/.test(data)) return data; // white space only: no word to blank, its boxes need not be read
    const where = showable(rc?.at ?? { clip: NO_CLIP, freeX: false, freeY: false, fixed: false }, win);
    /** @param {DOMRect} r @param {number} share how much of its width must show */
    const shows = (r, share) => {
      const part = meet(where, boxOf(r));
      return part.r - part.l >= r.width * share - 0.5 && part.b - part.t >= r.height * 0.5 && !thinLine(r);
    };
    const rects = /** @type {DOMRect[]} */ (lib.paintedBoxes(node, rc, win));
    if (rects.every((/** @type {DOMRect} */ r) => shows(r, 1))) return data;
    const glyph = roundedAway(node, rc, win); // a word's boxes as painted, as the node's are (paintedBoxes)
    const doc = /** @type {Document} */ (node.ownerDocument);
    const range = doc.createRange();
    let out = "";
    let at = 0;
    for (const word of data.matchAll(/\S+/g)) {
      const start = /** @type {number} */ (word.index);
      range.setStart(node, start);
      range.setEnd(node, start + word[0].length);
      const seen = [...range.getClientRects()].map((/** @type {DOMRect} */ r) => asPainted(r, glyph, win))
        .some((/** @type {DOMRect} */ r) => shows(r, 0.6) && wordSized(r, word[0].length));
      out += data.slice(at, start) + (seen ? word[0] : " ".repeat(word[0].length));
      at = start + word[0].length;
    }
    return out + data.slice(at);
  };

  /** The part of the boxes inside what can show (for hit testing). @param {DOMRect[]} rects @param {RenderContext | undefined} rc @param {Window} win */
  lib.shownParts = (rects, rc, win) => {
    const where = showable(rc?.at ?? { clip: NO_CLIP, freeX: false, freeY: false, fixed: false }, win);
    return rects.map((r) => meet(where, boxOf(r))).filter((b) => holdsGlyph(b, 2));
  };
}
