/**
 * In-page: where a pinned box (fixed or sticky, or a box inside one) stands at any scroll position, from layout
 * alone — no scrolling, no change to the DOM (issue 18; page-cover.js asks). A person scrolls a text into view
 * before reading it, so a pinned box hides a text only when it covers the text at every scroll position that
 * shows the text, not only where it stands now.
 *
 * - `pinOf(e, win)`: the nearest fixed or sticky element at or above `e` (what moves `e` when something
 *   scrolls), or null.
 * - `coversAtEveryView(e, part, textEl, win)`: whether the box of `e` covers the text's box `part` (viewport
 *   coordinates now) at every scroll position of the pin's scroll container at which the text is in its
 *   scrollport (wholly, when it fits; else as much as shows). Axis by axis (the two are independent): along
 *   each, the pin's position is piecewise linear in the scroll offset, and so are the text's visible part and
 *   the coverage conditions, so checking them at the breakpoints (the scroll range's and the text's ends, where
 *   the sticky box starts and stops sticking) is exact.
 * - `pinReach(e, win)`: the box `e` sweeps over every scroll position, in viewport coordinates now (a text
 *   outside it is never covered by `e`).
 *
 * A sticky box's position at scroll offset s is its static position S shifted toward the scrollport's edge
 * inset by `top` (`bottom`, `left`, `right`), as far as its containing block's content box lets its margin box
 * go (CSS Positioned Layout 3, sticky positioning). Layout reports the shifted box only (offsetTop includes the
 * shift), so S is read from the boxes the shift does not move: the next or previous in-flow sibling and the
 * margin between them, the parent's content edge, a table cell's row. An S that does not reproduce where the box
 * stands now is not used: then a box that is not shifted now stands at S, and one that is shifted is taken to
 * move as far as its containing block lets it (the least it can cover: the text is kept).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pageRender } from "./page-render.js";

definePagePart(pageSticky, { uses: [pagePaintOrder, pageRender] });

/**
 * Adds pinOf, coversAtEveryView and pinReach to lib (needs pageRender's styleOf, areasOf, factsOf and
 * pagePaintOrder's positionedAbove, scrollerAbove).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageSticky(lib) {
  const SCROLLS = /auto|scroll/;
  /** Layout rounds to fractions of a pixel: positions this close are one. */
  const SLACK = 1;
  /** @typedef {{start: string, end: string, size: string, mStart: string, mEnd: string, bStart: string,
   *   bEnd: string, pStart: string, pEnd: string, inStart: string, inEnd: string}} Names one axis's property names */
  /** @type {Record<"x" | "y", Names>} */
  const AXES = {
    y: { start: "top", end: "bottom", size: "height", mStart: "marginTop", mEnd: "marginBottom", bStart: "borderTopWidth",
      bEnd: "borderBottomWidth", pStart: "paddingTop", pEnd: "paddingBottom", inStart: "top", inEnd: "bottom" },
    x: { start: "left", end: "right", size: "width", mStart: "marginLeft", mEnd: "marginRight", bStart: "borderLeftWidth",
      bEnd: "borderRightWidth", pStart: "paddingLeft", pEnd: "paddingRight", inStart: "left", inEnd: "right" },
  };
  /** @param {string} v */
  const px = (v) => parseFloat(v) || 0;

  /** @param {Element} e @param {Window} win */
  lib.pinOf = (e, win) => {
    for (let l = lib.positionedAbove(e, win); l; l = l.parentElement ? lib.positionedAbove(l.parentElement, win) : null) {
      if (/fixed|sticky/.test(lib.styleOf(l, win).position)) return l;
    }
    return null;
  };

  /** @param {Element} e @param {Window} win whether a fixed box's containing block is an ancestor (a transform,
   * filter, perspective or paint containment), which scrolls with the page */
  const fixedInBox = (e, win) => {
    for (let n = e.parentElement; n; n = n.parentElement) {
      const cs = lib.styleOf(n, win);
      if (cs.transform !== "none" || cs.filter !== "none" || cs.perspective !== "none" || /paint|layout|strict|content/.test(cs.contain)
        || /transform|filter|perspective/.test(cs.willChange)) return true;
    }
    return false;
  };

  /**
   * The scroll frame a pin moves against, along one axis: c0 the viewport coordinate of its content's origin
   * now (a point of the content at c stands at c0 + c), H its scrollport's size, s0 the offset now, [lo, hi]
   * the offsets a person can scroll to (none past s0 where overflow is hidden); the scrollport at offset s shows
   * content [s, s + H].
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis
   */
  const frameOf = (pin, win, axis) => {
    const doc = win.document;
    const scroller = lib.styleOf(pin, win).position === "fixed" ? null : lib.scrollerAbove(pin, win);
    if (!scroller || scroller === doc.body || scroller === doc.documentElement) {
      const { area, viewport } = lib.areasOf(win);
      const [start, end, vs, ve] = axis === "y" ? [area.t, area.b, viewport.t, viewport.b] : [area.l, area.r, viewport.l, viewport.r];
      const H = axis === "y" ? doc.documentElement.clientHeight || ve - vs : doc.documentElement.clientWidth || ve - vs;
      const s0 = vs - start;
      return { el: null, c0: start, H, s0, lo: Math.min(0, s0), hi: Math.max(s0, end - start - H) };
    }
    const any = /** @type {any} */ (scroller);
    const r = scroller.getBoundingClientRect();
    const cs = lib.styleOf(scroller, win);
    const y = axis === "y";
    const port = y ? r.top + any.clientTop : r.left + any.clientLeft;
    const H = y ? any.clientHeight : any.clientWidth;
    const range = (y ? any.scrollHeight : any.scrollWidth) - H;
    // A right-to-left box scrolls to negative offsets: counted from the content's left edge instead.
    const s0 = y ? any.scrollTop : any.scrollLeft + (cs.direction === "rtl" ? range : 0);
    const free = SCROLLS.test(y ? cs.overflowY : cs.overflowX);
    return { el: scroller, c0: port - s0, H, s0, lo: free ? 0 : s0, hi: free ? Math.max(s0, range) : s0 };
  };

  /**
   * Where a sticky box's border box starts at offset s, along one axis, as a function of s (content coordinates).
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis @param {{el: Element | null, c0: number, H: number, s0: number}} f
   * @returns {{at: (s: number) => number, breaks: number[]}}
   */
  const stickyTrack = (pin, win, axis, f) => {
    const n = AXES[axis];
    const cs = /** @type {any} */ (lib.styleOf(pin, win));
    const r = /** @type {any} */ (pin.getBoundingClientRect());
    const cur = r[n.start] - f.c0;
    const h = r[n.size];
    const cb = (lib.styleOf(pin, win).display === "table-cell" ? pin.closest("table") : null) ?? parentBox(pin, win);
    if (!cb) return { at: () => cur, breaks: [] };
    const ccs = /** @type {any} */ (lib.styleOf(cb, win));
    const any = /** @type {any} */ (cb);
    // The scroll container itself as the containing block: its content, all of it, not the part in its port.
    const [cStart, cEnd] = cb === f.el ? [px(ccs[n.pStart]), (axis === "y" ? any.scrollHeight : any.scrollWidth) - px(ccs[n.pEnd])]
      : [any.getBoundingClientRect()[n.start] + px(ccs[n.bStart]) + px(ccs[n.pStart]) - f.c0,
        any.getBoundingClientRect()[n.end] - px(ccs[n.bEnd]) - px(ccs[n.pEnd]) - f.c0];
    const [mStart, mEnd] = [px(cs[n.mStart]), px(cs[n.mEnd])];
    const T = cs[n.inStart] === "auto" ? null : px(cs[n.inStart]);
    const B = cs[n.inEnd] === "auto" ? null : px(cs[n.inEnd]);
    /** @param {number} S @param {number} s */
    const place = (S, s) => {
      let p = S;
      if (B !== null && p + h > s + f.H - B) p -= Math.min(p + h - (s + f.H - B), Math.max(0, S - mStart - cStart));
      if (T !== null && p < s + T) p += Math.min(s + T - p, Math.max(0, cEnd - mEnd - h - p));
      return p;
    };
    const inferred = staticStart(pin, win, axis);
    let S = inferred === null ? NaN : inferred - f.c0;
    if (!(Math.abs(place(S, f.s0) - cur) <= SLACK)) {
      const near = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= SLACK;
      const shifted = (T !== null && (near(cur, f.s0 + T) || near(cur, cEnd - mEnd - h)))
        || (B !== null && (near(cur + h, f.s0 + f.H - B) || near(cur, cStart + mStart)));
      // Not shifted now: it stands at S. Shifted: the S that moves it farthest from here, the least it covers.
      S = !shifted ? cur : T !== null ? cStart + mStart : cEnd - mEnd - h;
    }
    const Sv = S;
    const breaks = [];
    if (T !== null) breaks.push(Sv - T, cEnd - mEnd - h - T);
    if (B !== null) breaks.push(Sv + h - f.H + B, cStart + mStart + h - f.H + B);
    return { at: (s) => place(Sv, s), breaks };
  };

  /** @param {Element} e @param {Window} win its parent box (past display: contents) */
  const parentBox = (e, win) => {
    let p = e.parentElement;
    while (p && lib.styleOf(p, win).display === "contents") p = p.parentElement;
    return p;
  };

  /** @param {CSSStyleDeclaration} cs whether the box sits in the normal flow among its siblings */
  const inFlow = (cs) => cs.display !== "none" && cs.display !== "contents" && !/absolute|fixed/.test(cs.position) && cs.float === "none";
  /** @param {number} a @param {number} b two adjoining vertical margins collapsed into one */
  const collapse = (a, b) => Math.max(a, b, 0) + Math.min(a, b, 0);

  /**
   * A sticky box's static start along one axis (viewport coordinates now), from the boxes its shift does not
   * move; null where layout gives no such box (flex and grid items, inline boxes).
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis
   * @returns {number | null}
   */
  const staticStart = (pin, win, axis) => {
    const cs = lib.styleOf(pin, win);
    const parent = parentBox(pin, win);
    if (!parent) return null;
    const pcs = lib.styleOf(parent, win);
    const pr = parent.getBoundingClientRect();
    if (cs.display === "table-cell") {
      if (axis === "y") return pr.top;
      const prev = pin.previousElementSibling;
      return prev && lib.styleOf(prev, win).position === "static" ? prev.getBoundingClientRect().right : null;
    }
    if (!/^(block|flow-root|list-item)$/.test(pcs.display) || !/^(block|flow-root|list-item|table|flex|grid)$/.test(cs.display)) return null;
    if (axis === "x") {
      return pcs.direction === "rtl" ? pr.right - px(pcs.borderRightWidth) - px(pcs.paddingRight) - px(cs.marginRight) - pin.getBoundingClientRect().width
        : pr.left + px(pcs.borderLeftWidth) + px(pcs.paddingLeft) + px(cs.marginLeft);
    }
    const h = pin.getBoundingClientRect().height;
    const next = flowSibling(pin, win, "nextSibling");
    if (next === undefined) return null;
    if (next) return next.getBoundingClientRect().top - collapse(px(cs.marginBottom), px(lib.styleOf(next, win).marginTop)) - h;
    const prev = flowSibling(pin, win, "previousSibling");
    if (prev === undefined) return null;
    if (prev) return prev.getBoundingClientRect().bottom + collapse(px(lib.styleOf(prev, win).marginBottom), px(cs.marginTop));
    const own = px(pcs.borderTopWidth) + px(pcs.paddingTop);
    // Without a border or padding between them, the first child's top margin collapses through its parent's.
    return pr.top + own + (own > 0 || pcs.display === "flow-root" || pcs.overflowY !== "visible" ? px(cs.marginTop) : 0);
  };

  /**
   * The nearest in-flow, unshifted sibling box in one direction; null when there is none; undefined when text or
   * a shifted box stands between (its box is not where the sibling's margin puts it).
   * @param {Element} pin @param {Window} win @param {"nextSibling" | "previousSibling"} way
   * @returns {Element | null | undefined}
   */
  const flowSibling = (pin, win, way) => {
    for (let n = pin[way]; n; n = n[way]) {
      if (n.nodeType === Node.TEXT_NODE) {
        if (/\S/.test(n.textContent ?? "")) return undefined;
        continue;
      }
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const cs = lib.styleOf(/** @type {Element} */ (n), win);
      if (!inFlow(cs)) continue;
      return cs.position === "static" ? /** @type {Element} */ (n) : undefined;
    }
    return null;
  };

  /**
   * The track of `e` along one axis: where its box starts at offset s (content coordinates), and the offsets
   * where that changes slope.
   * @param {Element} e @param {Element} pin @param {Window} win @param {"x" | "y"} axis
   */
  const trackOf = (e, pin, win, axis) => {
    const f = frameOf(pin, win, axis);
    const n = AXES[axis];
    const er = /** @type {any} */ (e.getBoundingClientRect());
    const pr = /** @type {any} */ (pin.getBoundingClientRect());
    const from = er[n.start] - pr[n.start];
    const size = er[n.size];
    if (lib.styleOf(pin, win).position === "fixed") {
      const p0 = pr[n.start] - f.c0;
      const moves = !fixedInBox(pin, win);
      return { f, size, breaks: [], at: (/** @type {number} */ s) => from + p0 + (moves ? s - f.s0 : 0) };
    }
    const t = stickyTrack(pin, win, axis, f);
    return { f, size, breaks: t.breaks, at: (/** @type {number} */ s) => from + t.at(s) };
  };

  /** @param {Element} e @param {Window} win */
  const tracksOf = (e, win) => {
    const known = (lib.factsOf(win).pinTracks ??= new WeakMap());
    let tracks = known.get(e);
    if (tracks === undefined) {
      const pin = lib.pinOf(e, win);
      tracks = pin ? { pin, rect: e.getBoundingClientRect(), y: trackOf(e, pin, win, "y"), x: trackOf(e, pin, win, "x") } : null;
      known.set(e, tracks);
    }
    return tracks;
  };

  /**
   * @param {any} track @param {number} a @param {number} b the text's extent, content coordinates
   * @returns {boolean} whether the box covers the text's visible part at every offset that shows the text
   */
  const coversAlong = (track, a, b) => {
    const { f } = track;
    const fits = b - a <= f.H;
    let lo = Math.max(f.lo, fits ? b - f.H : a);
    let hi = Math.min(f.hi, fits ? a : b - f.H);
    if (lo > hi) {
      // The scroll range never shows all of it: the offsets that show some of it.
      lo = Math.max(f.lo, a - f.H + SLACK);
      hi = Math.min(f.hi, b - SLACK);
      if (lo > hi) return false;
    }
    const at = [lo, hi, a, b - f.H, a - f.H, b, ...track.breaks].filter((s) => s >= lo && s <= hi);
    return at.every((s) => {
      const p = track.at(s);
      return p <= Math.max(a, s) + SLACK && p + track.size >= Math.min(b, s + f.H) - SLACK;
    });
  };

  /**
   * @param {Element} e a pinned box (or one inside a pinned box) @param {{l: number, t: number, r: number, b: number}} part
   * @param {Element | null} textEl the text's element @param {Window} win
   */
  lib.coversAtEveryView = (e, part, textEl, win) => {
    const tracks = tracksOf(e, win);
    const r = tracks?.rect ?? e.getBoundingClientRect();
    const now = r.left <= part.l + SLACK && r.right >= part.r - SLACK && r.top <= part.t + SLACK && r.bottom >= part.b - SLACK;
    // Moved by the same pin as the text: the two move together.
    if (!tracks || (textEl && lib.pinOf(textEl, win) === tracks.pin)) return now;
    return coversAlong(tracks.y, part.t - tracks.y.f.c0, part.b - tracks.y.f.c0)
      && coversAlong(tracks.x, part.l - tracks.x.f.c0, part.r - tracks.x.f.c0);
  };

  /** @param {any} track @returns {[number, number]} the extent it sweeps, viewport coordinates now */
  const sweep = (track) => {
    const { f } = track;
    const ps = [f.lo, f.hi, ...track.breaks].filter((s) => s >= f.lo && s <= f.hi).map((s) => track.at(s));
    return [Math.min(...ps) + f.c0, Math.max(...ps) + track.size + f.c0];
  };

  /** @param {Element} e @param {Window} win @returns {{l: number, t: number, r: number, b: number}} */
  lib.pinReach = (e, win) => {
    const tracks = tracksOf(e, win);
    const r = tracks?.rect ?? e.getBoundingClientRect();
    if (!tracks) return { l: r.left, t: r.top, r: r.right, b: r.bottom };
    const [t, b] = sweep(tracks.y);
    const [l, rr] = sweep(tracks.x);
    return { l: Math.min(l, r.left), t: Math.min(t, r.top), r: Math.max(rr, r.right), b: Math.max(b, r.bottom) };
  };
}
