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
 *   each, the pin's position is piecewise linear in the scroll offset; so is the text's, when the text is itself
 *   in a pinned box of the same scroll frame (a sticky caption under a fixed banner, a fixed widget under a fixed
 *   overlay, two sticky boxes of one scroller), and so are the text's visible part and the coverage conditions,
 *   so checking them at the breakpoints (the scroll range's ends, where either box starts and stops sticking,
 *   where the text's edges cross the port's) is exact. A text pinned against another scroll frame than the box
 *   (a fixed widget over a sticky bar inside a scroller) is judged over the page's scroll positions, each inner
 *   scroller held at its offset now.
 * - `pinReach(e, win)`: the box `e` sweeps over every scroll position, in viewport coordinates now (a text
 *   outside it is never covered by `e`).
 *
 * A sticky box's position at scroll offset s is its static position S shifted toward the scrollport's edge
 * inset by `top` (`bottom`, `left`, `right`), as far as its containing block's content box lets its margin box
 * go (CSS Positioned Layout 3, sticky positioning); inside another sticky box both S and the containing block
 * move with that box. S comes from the engine (a ViewTimeline, page-sticky-engine.js), else from the boxes the
 * shift does not move (page-sticky-static.js: siblings, flex lines, grid tracks; several candidates where layout
 * leaves it open, and the text is covered only when covered for each). A start that does not reproduce where the
 * box stands now is not used; with none left, a box that is not shifted now stands at S, and one that is shifted
 * is taken to move as far as its containing block lets it (the least it can cover: the text is kept).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pageRender } from "./page-render.js";
import { pageStickyEngine } from "./page-sticky-engine.js";
import { pageStickyStatic } from "./page-sticky-static.js";

definePagePart(pageSticky, { uses: [pagePaintOrder, pageRender, pageStickyEngine, pageStickyStatic] });

/**
 * Adds pinOf, coversAtEveryView and pinReach to lib (needs pageRender's styleOf, areasOf, factsOf and
 * pagePaintOrder's positionedAbove, scrollerAbove, pageStickyEngine's stickyStaticByEngine, pageStickyStatic's staticStarts, boxParent).
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
    // Once per element and call: a reader without a walk asks it of every opaque box for each text (page-cover.js).
    const known = (lib.factsOf(win).pins ??= new WeakMap());
    let pin = known.get(e);
    if (pin === undefined) {
      pin = null;
      for (let l = lib.positionedAbove(e, win); l && !pin; l = l.parentElement ? lib.positionedAbove(l.parentElement, win) : null) {
        if (/fixed|sticky/.test(lib.styleOf(l, win).position)) pin = l;
      }
      known.set(e, pin);
    }
    return pin;
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
      return { el: null, axis, c0: start, H, s0, lo: Math.min(0, s0), hi: Math.max(s0, end - start - H) };
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
    return { el: scroller, axis, c0: port - s0, H, s0, lo: free ? 0 : s0, hi: free ? Math.max(s0, range) : s0 };
  };

  /**
   * The offsets in [lo, hi] where a function that is linear between consecutive `pts` crosses zero.
   * @param {(s: number) => number} g @param {number[]} pts sorted, lo first and hi last @returns {number[]}
   */
  const rootsOf = (g, pts) => {
    const out = [];
    for (let i = 0; i + 1 < pts.length; i++) {
      const [x0, x1] = [pts[i], pts[i + 1]];
      const [g0, g1] = [g(x0), g(x1)];
      if (g0 === 0) out.push(x0);
      else if (g0 * g1 < 0) out.push(x0 + (x1 - x0) * g0 / (g0 - g1));
    }
    if (pts.length && g(pts[pts.length - 1]) === 0) out.push(pts[pts.length - 1]);
    return out;
  };

  /** @param {number[]} xs @param {number} lo @param {number} hi sorted, unique, inside [lo, hi], lo and hi included */
  const span = (xs, lo, hi) => [...new Set([lo, hi, ...xs.filter((x) => x > lo && x < hi)])].sort((a, b) => a - b);

  /**
   * @typedef {{f: Frame, size: number, at: (s: number) => number, breaks: number[]}} Track where a box starts along
   *   one axis at offset s (content coordinates of f), its size, and the offsets where that changes slope
   * @typedef {{el: Element | null, axis: "x" | "y", c0: number, H: number, s0: number, lo: number, hi: number}} Frame
   * @typedef {Track & {moved: number}} PinTrack a pin's own track; `moved` how far every sticky shift (its own and
   *   its pinned ancestors') moves it now
   */

  /**
   * Where a sticky box's border box starts at offset s, along one axis. Inside another sticky box of the same
   * scroll frame (`outer`), its static box and its containing block move with that box (CSS Positioned Layout 3:
   * the nearest sticky ancestor shifts both), so the breakpoints are where those moving edges meet the port's.
   * One track per static start that puts the box where it stands now (the engine's, else the ones layout
   * allows: page-sticky-static.js); a text is covered only when it is on every one.
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis @param {Frame} f @param {PinTrack | null} outer
   * @returns {PinTrack[]}
   */
  const stickyTrack = (pin, win, axis, f, outer) => {
    const n = AXES[axis];
    const cs = /** @type {any} */ (lib.styleOf(pin, win));
    const r = /** @type {any} */ (pin.getBoundingClientRect());
    const cur = r[n.start] - f.c0;
    const h = r[n.size];
    const still = [{ f, size: h, at: () => cur, breaks: [], moved: outer?.moved ?? 0 }];
    const cb = (cs.display === "table-cell" ? pin.closest("table") : null) ?? lib.boxParent(pin, win);
    if (!cb) return still;
    const ccs = /** @type {any} */ (lib.styleOf(cb, win));
    const any = /** @type {any} */ (cb);
    // The scroll container itself as the containing block: its content, all of it, not the part in its port.
    const [cStart, cEnd] = cb === f.el ? [px(ccs[n.pStart]), (axis === "y" ? any.scrollHeight : any.scrollWidth) - px(ccs[n.pEnd])]
      : [any.getBoundingClientRect()[n.start] + px(ccs[n.bStart]) + px(ccs[n.pStart]) - f.c0,
        any.getBoundingClientRect()[n.end] - px(ccs[n.bEnd]) - px(ccs[n.pEnd]) - f.c0];
    const [mStart, mEnd] = [px(cs[n.mStart]), px(cs[n.mEnd])];
    const T = cs[n.inStart] === "auto" ? null : px(cs[n.inStart]);
    const B = cs[n.inEnd] === "auto" ? null : px(cs[n.inEnd]);
    const now = f.s0;
    /** @param {number} s how far the outer sticky box has moved from where it stands now */
    const d = (s) => (outer ? outer.at(s) - outer.at(now) : 0);
    /** @param {number} S the static start, where layout stands now @param {number} s */
    const place = (S, s) => {
      const dd = d(s);
      const [S1, lo, hi] = [S + dd, cStart + mStart + dd, cEnd - mEnd - h + dd];
      let p = S1;
      if (B !== null && p + h > s + f.H - B) p -= Math.min(p + h - (s + f.H - B), Math.max(0, S1 - lo));
      if (T !== null && p < s + T) p += Math.min(s + T - p, Math.max(0, hi - p));
      return p;
    };
    const stands = (/** @type {number | null} */ S) => S !== null && Math.abs(place(S, now) - cur) <= SLACK;
    const near = (/** @type {number} */ a, /** @type {number} */ b) => Math.abs(a - b) <= SLACK;
    // A shifted box stands at one of its limits (the port's inset edge, its containing block's far edge): a box at
    // none of them is unshifted, S is where it stands, and nothing need be asked.
    const shifted = (T !== null && (near(cur, now + T) || near(cur, cEnd - mEnd - h)))
      || (B !== null && (near(cur + h, now + f.H - B) || near(cur, cStart + mStart)));
    /** @type {number[]} */
    let starts = [cur];
    if (shifted) {
      // The engine's S ignores every sticky shift: the pinned ancestors' moves now put it where layout stands now.
      const engine = lib.stickyStaticByEngine(pin, win, axis, f, { start: T, end: B, size: h });
      starts = engine !== null && stands(engine + (outer?.moved ?? 0)) ? [engine + (outer?.moved ?? 0)]
        : (lib.staticStarts(pin, win, axis) ?? []).map((/** @type {number} */ v) => v - f.c0).filter(stands);
      // Neither gives it: the S that moves it farthest from here, the least it covers.
      if (!starts.length) starts = [T !== null ? cStart + mStart : cEnd - mEnd - h];
    }
    const pts = span(outer?.breaks ?? [], f.lo, f.hi);
    return starts.map((Sv) => {
      /** @type {((s: number) => number)[]} where each edge that can start or stop the shift meets the port's */
      const edges = [];
      if (T !== null) edges.push((s) => Sv + d(s) - s - T, (s) => cEnd - mEnd - h + d(s) - s - T);
      if (B !== null) edges.push((s) => Sv + h + d(s) - s - f.H + B, (s) => cStart + mStart + h + d(s) - s - f.H + B);
      const breaks = [...(outer?.breaks ?? []), ...edges.flatMap((g) => rootsOf(g, pts))];
      return { f, size: h, at: (/** @type {number} */ s) => place(Sv, s), breaks, moved: cur - Sv + (outer?.moved ?? 0) };
    });
  };

  /**
   * A pin's own tracks along one axis (cached per walk): one, or one per static start layout allows.
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis @returns {PinTrack[]}
   */
  const pinTracks = (pin, win, axis) => {
    const known = (lib.factsOf(win).pinOwn ??= new WeakMap());
    const both = known.get(pin) ?? {};
    if (both[axis]) return both[axis];
    const f = frameOf(pin, win, axis);
    const pr = /** @type {any} */ (pin.getBoundingClientRect());
    const size = pr[AXES[axis].size];
    let tracks;
    if (lib.styleOf(pin, win).position === "fixed") {
      const p0 = pr[AXES[axis].start] - f.c0;
      const moves = !fixedInBox(pin, win);
      tracks = [{ f, size, breaks: [], moved: 0, at: (/** @type {number} */ s) => p0 + (moves ? s - f.s0 : 0) }];
    } else {
      const parent = lib.boxParent(pin, win);
      const above = parent ? lib.pinOf(parent, win) : null;
      const outers = above && lib.styleOf(above, win).position === "sticky" && frameOf(above, win, axis).el === f.el
        ? pinTracks(above, win, axis) : [null];
      tracks = outers.flatMap((outer) => stickyTrack(pin, win, axis, f, outer));
    }
    both[axis] = tracks;
    known.set(pin, both);
    return tracks;
  };

  /**
   * The tracks of a box moved by `pin` (the pin's own, or a box inside it) along one axis.
   * @param {number} start its start now (viewport coordinates) @param {number} size
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis @returns {Track[]}
   */
  const tracksAlong = (start, size, pin, win, axis) => {
    const from = start - /** @type {any} */ (pin.getBoundingClientRect())[AXES[axis].start];
    return pinTracks(pin, win, axis).map((t) => ({ f: t.f, size, breaks: t.breaks, at: (/** @type {number} */ s) => from + t.at(s) }));
  };

  /** @param {Element} e @param {Window} win */
  const tracksOf = (e, win) => {
    const known = (lib.factsOf(win).pinTracks ??= new WeakMap());
    let tracks = known.get(e);
    if (tracks === undefined) {
      const pin = lib.pinOf(e, win);
      const rect = e.getBoundingClientRect();
      tracks = pin ? { pin, rect, y: tracksAlong(rect.top, rect.height, pin, win, "y"), x: tracksAlong(rect.left, rect.width, pin, win, "x") } : null;
      known.set(e, tracks);
    }
    return tracks;
  };

  /** Offsets this close are one when the text's edges are compared with the port's (floating point). */
  const EPS = 1e-6;

  /**
   * Whether the box on track `cover` covers the text on track `text` (both in one scroll frame) at every offset
   * that shows the text: wholly, when some offset shows all of it; else as much as shows. Between consecutive
   * breakpoints of either track, and the offsets where the text's edges cross the port's, every edge moves
   * linearly, so the offsets that show the text are whole pieces there and the coverage conditions, linear on
   * each piece, hold on a piece when they hold at its ends.
   * @param {Track} cover @param {Track} text
   */
  const coversAlong = (cover, text) => {
    const { f } = cover;
    const a = text.at;
    const b = (/** @type {number} */ s) => text.at(s) + text.size;
    const fits = text.size <= f.H;
    const base = span([...cover.breaks, ...text.breaks], f.lo, f.hi);
    const crossings = [(/** @type {number} */ s) => a(s) - s, (/** @type {number} */ s) => b(s) - s - f.H,
      (/** @type {number} */ s) => a(s) - s - f.H + SLACK, (/** @type {number} */ s) => b(s) - s - SLACK];
    const pts = span(crossings.flatMap((g) => rootsOf(g, base)), f.lo, f.hi);
    /** @param {number} s @param {boolean} whole */
    const shows = (s, whole) => (!whole ? a(s) <= s + f.H - SLACK + EPS && b(s) >= s + SLACK - EPS
      : fits ? a(s) >= s - EPS && b(s) <= s + f.H + EPS : a(s) <= s + EPS && b(s) >= s + f.H - EPS);
    /** @param {number} s */
    const covers = (s) => {
      const p = cover.at(s);
      return p <= Math.max(a(s), s) + SLACK && p + cover.size >= Math.min(b(s), s + f.H) - SLACK;
    };
    for (const whole of [true, false]) {
      const at = pts.filter((s) => shows(s, whole));
      for (let i = 0; i + 1 < pts.length; i++) {
        if (shows((pts[i] + pts[i + 1]) / 2, whole)) at.push(pts[i], pts[i + 1]);
      }
      if (at.length) return at.every(covers);
    }
    return false;
  };

  /**
   * @param {Element} e a pinned box (or one inside a pinned box) @param {{l: number, t: number, r: number, b: number}} part
   * @param {Element | null} textEl the text's element @param {Window} win
   */
  lib.coversAtEveryView = (e, part, textEl, win) => {
    const tracks = tracksOf(e, win);
    const r = tracks?.rect ?? e.getBoundingClientRect();
    const now = r.left <= part.l + SLACK && r.right >= part.r - SLACK && r.top <= part.t + SLACK && r.bottom >= part.b - SLACK;
    if (!tracks) return now;
    const textPin = textEl ? lib.pinOf(textEl, win) : null;
    // Moved by the same pin as the text: the two move together.
    if (textPin === tracks.pin) return now;
    /** @param {"x" | "y"} axis @param {number} start @param {number} size @returns {Track[]} */
    const textTracks = (axis, start, size) => {
      const f = tracks[axis][0].f;
      return textPin ? tracksAlong(start, size, textPin, win, axis) : [{ f, size, breaks: [], at: () => start - f.c0 }];
    };
    /** @param {Track[]} covers @param {Track[]} texts */
    const every = (covers, texts) => {
      // Pinned against different scroll frames: both judged in the page's frame, each inner scroller where it is.
      const [cs, ts] = covers.some((c) => texts.some((t) => t.f.el !== c.f.el)) ? [toPage(covers, win), toPage(texts, win)] : [covers, texts];
      return cs.every((c) => ts.every((t) => coversAlong(c, t)));
    };
    return every(tracks.y, textTracks("y", part.t, part.b - part.t)) && every(tracks.x, textTracks("x", part.l, part.r - part.l));
  };

  /**
   * Tracks lifted into the page's scroll frame: a box in a scroller moves there with the scroller's box (the
   * scroller's own offset held where it is now), and the scroller with its pin, if it has one.
   * @param {Track[]} tracks @param {Window} win @returns {Track[]}
   */
  const toPage = (tracks, win) => tracks.flatMap((t) => {
    const x = t.f.el;
    if (!x) return [t];
    const axis = t.f.axis;
    const start = t.at(t.f.s0) + t.f.c0;
    const pin = lib.pinOf(x, win);
    if (pin) return toPage(tracksAlong(start, t.size, pin, win, axis), win);
    const g = frameOf(x, win, axis);
    return toPage([{ f: g, size: t.size, breaks: [], at: () => start - g.c0 }], win);
  });

  /** @param {Track[]} tracks @returns {[number, number]} the extent they sweep, viewport coordinates now */
  const sweep = (tracks) => {
    const ends = tracks.flatMap((track) => {
      const { f } = track;
      const ps = [f.lo, f.hi, ...track.breaks].filter((s) => s >= f.lo && s <= f.hi).map((s) => track.at(s));
      return [Math.min(...ps) + f.c0, Math.max(...ps) + track.size + f.c0];
    });
    return [Math.min(...ends), Math.max(...ends)];
  };

  /** @param {Element} e @param {Window} win @returns {{l: number, t: number, r: number, b: number}} */
  lib.pinReach = (e, win) => {
    const reaches = (lib.factsOf(win).pinReaches ??= new WeakMap());
    const had = reaches.get(e);
    if (had) return had;
    const got = reachOf(e, win);
    reaches.set(e, got);
    return got;
  };
  /** @param {Element} e @param {Window} win */
  const reachOf = (e, win) => {
    const tracks = tracksOf(e, win);
    const r = tracks?.rect ?? e.getBoundingClientRect();
    if (!tracks) return { l: r.left, t: r.top, r: r.right, b: r.bottom };
    const [t, b] = sweep(tracks.y);
    const [l, rr] = sweep(tracks.x);
    return { l: Math.min(l, r.left), t: Math.min(t, r.top), r: Math.max(rr, r.right), b: Math.max(b, r.bottom) };
  };
}
