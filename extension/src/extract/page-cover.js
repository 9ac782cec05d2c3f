/**
 * In-page: what is painted over, and under, a run of text (issue 18), by the browser's hit testing:
 *
 * - `coveredBy(el, parts, rc, win)`: "covered" when something opaque is painted over every sample point of the
 *   text's visible boxes (an overlay, a sibling box, an image, a box inside the text's own element), "clipped"
 *   when a clip-path cuts the text away there, else "". The element stack at each point (elementsFromPoint) is read
 *   down to the text's own element; an element above it that paints (an opaque background, a picture that loaded)
 *   covers the point when it paints in another paint layer than the text (page-paint-order.js `layerOf`: the
 *   nearest box that is positioned or a stacking context). The stack orders paint layers as they are painted, but
 *   not the boxes inside one layer: there every block background and float is painted before any line of text
 *   (CSS 2.1 appendix E), so an in-flow box, the text's own child or a sibling pulled over it by a negative margin,
 *   lies under the text although hit testing lists it above; a picture or an inline-block after the text in tree
 *   order is painted over it. Hit testing respects clip-path: a text under a
 *   clip-path (of it or an ancestor) that is not in the stack at its points, nor at eight more across its box, is
 *   cut away by the shape (polygon, circle, inset, path alike). A fixed or sticky element covers text that scrolls
 *   only where no scroll position brings the text out from under it (a fixed header over the page's first line
 *   does; over a line further down, which scrolling moves away, it does not).
 * - `pictureBehind(el, rect, win)`: the picture (an image, video, canvas, SVG, frame, or a box with a
 *   background image) that shows behind the text rather than its ancestors' background colour, or null: by the
 *   element stack inside the viewport, by the boxes of the document's pictures outside it (its colours:
 *   page-picture.js).
 *
 * - Where hit testing cannot answer (text outside the viewport; a text hit testing skips: pointer-events: none,
 *   inert, behind a modal dialog; an overlay with `pointer-events: none`), a walk keeps the boxes it met that paint
 *   something opaque and are positioned or transformed (`coverBegin`, `notePainter`): text whose sample points lie
 *   inside such a box painted above it (z-index, then document order within one layer: a positioned box paints
 *   over in-flow text) is covered (`coveredByPainters`). A box met after the text it covers is found once the walk
 *   is over (`coveredLater`); the walker then walks again, leaving those text nodes out. A reader without a walk
 *   (find, wait_for, select_text through page-seen.js) compares the document's opaque layers with the text by
 *   stacking order instead (page-paint-order.js `paintersOf`, `paintedOver`); readers a walk asks use its boxes.
 *   Off the viewport a clip-path is judged only when it is empty (page-visibility.js).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";
import { pageBackdrop } from "./page-backdrop.js";
import { pageColour } from "./page-colour.js";
import { pageHitStack } from "./page-hit-stack.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pagePaintPhase } from "./page-paint-phase.js";
import { pagePicture } from "./page-picture.js";
import { pageRender } from "./page-render.js";
import { pageSticky } from "./page-sticky.js";
import { pageWalker } from "./page-walker.js";

definePagePart(pageCover, { uses: [pageBackdrop, pageColour, pageHitStack, pagePaintOrder, pagePaintPhase, pagePicture, pageRender, pageShadow, pageSticky, pageWalker] });

/**
 * Adds coveredBy, backdropBehind, hitTestable, paints, stylePaints, holds, pictureBehind, coverBegin, notePainter, coveredByPainters and coveredLater to lib
 * (needs pageRender, pagePaintOrder).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageCover(lib) {
  const PICTURES = new Set(["IMG", "VIDEO", "CANVAS", "PICTURE", "svg", "IFRAME", "OBJECT", "EMBED"]);
  const PICTURE_SELECTOR = "img,video,canvas,picture,svg,iframe,object,embed";
  const SVG_NS = "http://www.w3.org/2000/svg";
  /** An element at least this opaque hides what is under it. */
  const OPAQUE = 0.85;

  /** @param {Node} a @param {Node} b whether a holds b, across shadow roots */
  const holds = (a, b) => {
    for (let n = /** @type {Node | null} */ (b); n; n = n.parentNode ?? /** @type {any} */ (n).host ?? null) {
      if (n === a) return true;
    }
    return false;
  };

  /** @param {Element} e @param {Window} win whether it paints something opaque over what is under it (an image
   * that did not load, or a background image that did not, paints nothing; a picture whose pixels cannot be read
   * is left to the pixels) */
  const paints = (e, win) => {
    const cs = lib.styleOf(e, win);
    // A picture whose pixels page code cannot read (a canvas, a video, another origin's image) may be clear where
    // the text is: the rendering decides (page-pixels.js), not its box. Asked last: a box whose style paints
    // nothing opaque needs no mask read (bench/walk_profile.py: most boxes of a page paint nothing).
    if (e.tagName === "IMG") {
      return /** @type {HTMLImageElement} */ (e).complete && /** @type {HTMLImageElement} */ (e).naturalWidth > 0
        && lib.pictureReadable(e, cs, win);
    }
    if (PICTURES.has(e.tagName)) return lib.pictureReadable(e, cs, win);
    return stylePaints(cs, win) && lib.pictureReadable(e, cs, win);
  };
  lib.paints = paints;

  /** @param {CSSStyleDeclaration} cs a box's style (an element's, a pseudo-element's) @param {Window} win whether
   * its background paints opaque: a picture that loaded, a backdrop blur past reading, a colour whose alpha times
   * the box's opacity is OPAQUE or more */
  const stylePaints = (cs, win) => {
    if (cs.backgroundImage !== "none" && !/gradient/.test(cs.backgroundImage) && lib.imageShows(cs.backgroundImage, win)) return true;
    if (blursBehind(cs)) return true;
    const c = lib.colourOf(cs.backgroundColor);
    // An opacity is at most 1: a colour under OPAQUE stays under it, and its opacity need not be read.
    return !!c && c[3] >= OPAQUE && c[3] * (parseFloat(cs.opacity) || 0) >= OPAQUE;
  };
  lib.stylePaints = stylePaints;
  lib.holds = holds;

  /** A backdrop blur at least this wide (px) leaves no glyph of text under it legible. */
  const BLURS_TEXT_PX = 6;
  /** @param {CSSStyleDeclaration} cs whether its backdrop-filter blurs or flattens what is under it past reading */
  const blursBehind = (cs) => {
    const filter = /** @type {any} */ (cs).backdropFilter ?? "none";
    if (filter === "none") return false;
    if (lib.flattensBehind(filter)) return true; // page-backdrop.js: brightness(0), contrast(0) and the like
    const blur = /blur\(\s*([\d.]+)px/.exec(filter);
    return !!blur && parseFloat(blur[1]) >= BLURS_TEXT_PX;
  };

  /**
   * The boxes a positioned element's ::before and ::after paint opaque over its own in-flow content (hit
   * testing reports a pseudo-element as its element, so only their computed boxes tell): absolutely
   * positioned against the element, with content, an opaque background or a backdrop blur. One style read per
   * positioned element and call.
   * @param {Element} el a positioned element @param {Window} win
   * @returns {{l: number, t: number, r: number, b: number}[]}
   */
  const pseudoCovers = (el, win) => {
    const known = (lib.factsOf(win).pseudo ??= new WeakMap());
    let boxes = known.get(el);
    if (boxes) return boxes;
    boxes = [];
    for (const which of ["::before", "::after"]) {
      const ps = win.getComputedStyle(el, which);
      if (ps.content === "none" || ps.content === "normal" || ps.position !== "absolute" || ps.display === "none") continue;
      if (!stylePaints(ps, win) || ps.visibility !== "visible") continue;
      const r = el.getBoundingClientRect();
      const any = /** @type {any} */ (el);
      const px = (/** @type {string} */ v) => parseFloat(v) || 0;
      const l = r.left + any.clientLeft + px(ps.left) + px(ps.marginLeft);
      const t = r.top + any.clientTop + px(ps.top) + px(ps.marginTop);
      const w = px(ps.width) + px(ps.paddingLeft) + px(ps.paddingRight) + px(ps.borderLeftWidth) + px(ps.borderRightWidth);
      const h = px(ps.height) + px(ps.paddingTop) + px(ps.paddingBottom) + px(ps.borderTopWidth) + px(ps.borderBottomWidth);
      if (w >= 8 && h >= 8) boxes.push({ l, t, r: l + (ps.boxSizing === "border-box" ? px(ps.width) : w), b: t + (ps.boxSizing === "border-box" ? px(ps.height) : h) });
    }
    known.set(el, boxes);
    return boxes;
  };

  /**
   * Whether a positioned pseudo-element of the layer the text is painted in covers both its points (a reader
   * without a walk; the walk notes them as painters).
   * @param {Element} el @param {number[][]} points @param {Window} win
   */
  const coveredByPseudo = (el, points, win) => {
    const layer = lib.positionedAbove(el, win);
    if (!layer) return false;
    return pseudoCovers(layer, win).some((b) => points.every(([x, y]) => x >= b.l && x <= b.r && y >= b.t && y <= b.b));
  };

  /** @param {Element} e its parent in the flat tree (a slotted element's slot, a shadow root's host) */
  const up = (e) => /** @type {Element | null} */ (lib.slotOf(e) ?? e.parentElement ?? /** @type {any} */ (e.parentNode)?.host ?? null);


  /** @param {Element} e @param {Window} win whether it, or an ancestor, is fixed or sticky (page-sticky.js) */
  const pinned = (e, win) => !!lib.pinOf(e, win);

  /**
   * Whether a pinned box covers the text at every scroll position that shows the text (page-sticky.js): a fixed
   * header over the page's first line does; a sticky header over an article's lines does not.
   * @param {Element} e @param {{l: number, t: number, r: number, b: number}} part @param {Element | null} textEl
   * @param {Window} win
   */
  const coversForGood = (e, part, textEl, win) => lib.coversAtEveryView(e, part, textEl, win);

  /** @param {{el: Element, box: Box, pinned?: boolean}} p @param {Window} win where a box can stand: a pinned box
   * anywhere scrolling takes it (page-sticky.js), another where it is */
  const reachOf = (p, win) => (p.pinned ?? pinned(p.el, win) ? lib.pinReach(p.el, win) : p.box);

  /**
   * @param {Element} el the element whose text it is
   * @param {{l: number, t: number, r: number, b: number}[]} parts the text's visible boxes
   * @param {any} rc its render context (page-render.js)
   * @param {Window} win
   * @param {Text | null} [node] the text node (in one layer, what follows it in tree order paints later)
   */
  lib.coveredBy = (el, parts, rc, win, node = null) => {
    const root = /** @type {any} */ (el.getRootNode());
    const hit = root.elementsFromPoint ? root : win.document;
    const { viewport } = lib.areasOf(win);
    /** @type {[number, number, {l: number, t: number, r: number, b: number}][]} */
    const points = [];
    for (const p of parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts) {
      const x = (p.l + p.r) / 2;
      const y = (p.t + p.b) / 2;
      if (x < viewport.l || y < viewport.t || x >= viewport.r || y >= viewport.b) return "";
      points.push([x, y, p]);
    }
    const own = hitBox(el, win);
    if (!own) return ""; // hit testing cannot place the text
    let why = "clipped";
    for (const [x, y, p] of points) {
      if (hit.elementFromPoint(x, y) === own) return "";
      const stack = lib.stackAt(hit, x, y); // page-hit-stack.js: shadow roots' boxes in their hosts' place
      const at = stack.indexOf(own);
      if (at < 0) {
        // Not hit where it is laid out: a clip-path (of it or an ancestor) cuts it away there, unless another
        // point along the box still reaches it.
        if (!rc?.shaped || along(p, win).some(([ax, ay]) => hit.elementsFromPoint(ax, ay).includes(own))) return "";
        continue;
      }
      let covered = false;
      for (let i = 0; i < at && !covered; i++) {
        const e = stack[i];
        if (holds(e, own) || !paints(e, win)) continue;
        // Inside one layer hit testing lists boxes out of paint order: appendix E's steps decide (page-paint-phase.js).
        const layer = lib.layerOf(own, win);
        if (lib.layerOf(e, win) === layer && !lib.laterInLayer(e, node ?? own, own, layer, win)) continue;
        covered = !pinned(e, win) || coversForGood(e, p, el, win);
      }
      if (!covered) return "";
      why = "covered";
    }
    return why;
  };

  /**
   * What the backdrop-filter boxes painted over a text do to every colour there, text and background alike
   * (page-backdrop.js backdropBoxes): a function from a colour to the colour painted, or null when no such box
   * covers both its sample points. A box covers the text as an opaque one would (paint order,
   * page-paint-order.js paintedOver; in the viewport also hit testing, which respects the box's clipping): its
   * colour functions (page-colour.js tinted, the text's own filters' code) turn what is behind it, the result is
   * laid over what was there by the product of its opacity()s and its own opacity (an opacity(0) changes
   * nothing), and its translucent background is painted over that; boxes one over another in paint order. Its
   * url() is left out: the pixels judge (page-pixels.js).
   * @param {Element} el @param {Box[]} parts the text's visible boxes @param {Window} win @param {Node} [node]
   * @returns {((c: number[]) => number[]) | null}
   */
  lib.backdropBehind = (el, parts, win, node = el) => {
    /** @type {{el: Element, cs: CSSStyleDeclaration, tint: [string, number][], alpha: number, url: boolean, rect?: DOMRect}[]} */
    const boxes = lib.backdropBoxes(win);
    if (!boxes.length) return null;
    const points = (parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts).map((p) => [(p.l + p.r) / 2, (p.t + p.b) / 2]);
    if (!points.length) return null;
    const { viewport } = lib.areasOf(win);
    const inView = points.every(([x, y]) => x >= viewport.l && y >= viewport.t && x < viewport.r && y < viewport.b);
    const own = inView ? hitBox(el, win) : null;
    const root = /** @type {any} */ (el.getRootNode());
    const hit = root.elementsFromPoint ? root : win.document;
    /** @type {Element[][] | null} */
    let stacks = null;
    const over = boxes.filter((b) => {
      if (!b.tint.length || holds(b.el, el)) return false;
      const r = (b.rect ??= b.el.getBoundingClientRect()); // once per call: the list is the call's
      if (!points.every(([x, y]) => x >= r.left && x <= r.right && y >= r.top && y <= r.bottom)) return false;
      if (!lib.paintedOver(b.el, el, win, node)) return false;
      // a pinned box turns the text only where no scroll position brings the text out from under it, as a cover
      if (pinned(b.el, win) && !coversForGood(b.el, parts[0], el, win)) return false;
      if (!own || b.cs.pointerEvents === "none" || !lib.hitTestable(b.el, win)) return true;
      stacks ??= points.map(([x, y]) => lib.stackAt(hit, x, y));
      return stacks.every((stack) => {
        const at = stack.indexOf(own);
        const i = stack.indexOf(b.el);
        return i >= 0 && (at < 0 || i < at);
      });
    });
    if (!over.length) return null;
    const layers = over.map((b) => {
      const alpha = b.alpha * alphaThrough(b.el, win);
      const fill = lib.colourOf(b.cs.backgroundColor);
      return { tint: b.tint, alpha, fill: fill && fill[3] > 0 ? fill : null, fillAlpha: alphaThrough(b.el, win) };
    });
    return (c) => {
      let x = [c[0], c[1], c[2], 1];
      for (const l of layers) {
        if (l.alpha > 0) x = lib.composite(lib.tinted(x, l.tint), x, l.alpha);
        if (l.fill) x = lib.composite(l.fill, x, l.fillAlpha);
      }
      return [x[0], x[1], x[2], c[3]];
    };
  };

  /**
   * Points across a box, inside its viewport part.
   * @param {{l: number, t: number, r: number, b: number}} p @param {Window} win @returns {number[][]}
   */
  const along = (p, win) => {
    const { viewport } = lib.areasOf(win);
    const l = Math.max(p.l, viewport.l);
    const r = Math.min(p.r, viewport.r - 1);
    const t = Math.max(p.t, viewport.t);
    const b = Math.min(p.b, viewport.b - 1);
    /** @type {number[][]} */
    const out = [];
    for (const fx of [0.1, 0.3, 0.7, 0.9]) for (const fy of [0.3, 0.7]) out.push([l + (r - l) * fx, t + (b - t) * fy]);
    return out;
  };

  /**
   * The element hit testing reports for an element's text — itself, or (display: contents) its nearest ancestor
   * with a box — or null when hit testing skips it (pointer-events: none, inert, behind a modal dialog).
   * @param {Element} el @param {Window} win
   */
  const hitBox = (el, win) => {
    const facts = lib.factsOf(win);
    const known = (facts.hitBoxes ??= new WeakMap());
    if (known.has(el)) return known.get(el);
    let n = /** @type {Element | null} */ (el);
    while (n && lib.styleOf(n, win).display === "contents") n = up(n);
    if (n && (lib.styleOf(n, win).pointerEvents === "none" || n.closest("[inert]"))) n = null;
    if (facts.modal === undefined) facts.modal = win.document.querySelector(":modal");
    if (n && facts.modal && !holds(facts.modal, n)) n = null;
    known.set(el, n);
    return n;
  };
  lib.hitTestable = (/** @type {Element} */ el, /** @type {Window} */ win) => !!hitBox(el, win);

  /**
   * The picture that shows behind an element's text, or null (its ancestors' background colour shows).
   * @param {Element} el
   * @param {{left: number, top: number, width: number, height: number}} rect the text's first box
   * @param {Window} win
   * @returns {Element | null}
   */
  lib.pictureBehind = (el, rect, win) => {
    const x = rect.left + Math.min(rect.width / 2, 8);
    const y = rect.top + Math.min(rect.height / 2, 8);
    const { viewport } = lib.areasOf(win);
    if (x >= viewport.l && y >= viewport.t && x < viewport.r && y < viewport.b) {
      const root = /** @type {any} */ (el.getRootNode());
      for (const under of (root.elementsFromPoint ? root : win.document).elementsFromPoint(x, y)) {
        if (holds(el, under)) continue;
        // The drawing an SVG text is part of is no picture behind it; the shapes drawn under it are (their fill).
        if (under.namespaceURI === SVG_NS) {
          if (holds(under, el)) continue;
          if (under.tagName !== "svg") return under;
        }
        if (PICTURES.has(under.tagName)) return under;
        const ucs = lib.styleOf(under, win);
        if (ucs.backgroundImage !== "none") return under;
        const c = lib.colourOf(ucs.backgroundColor);
        if (c && c[3] > 0.1) return null;
      }
      return null;
    }
    const facts = lib.factsOf(win);
    facts.pictures ??= [...win.document.querySelectorAll(PICTURE_SELECTOR)].map((pic) => [pic, pic.getBoundingClientRect()]);
    for (const [pic, b] of facts.pictures) {
      if (holds(el, pic) || holds(pic, el)) continue; // the SVG an SVG text is part of is no picture behind it
      if (b.left <= x && b.right >= x && b.top <= y && b.bottom >= y) return pic;
    }
    return null;
  };

  /**
   * @typedef {{l: number, t: number, r: number, b: number}} Box
   * @typedef {{seq: number, z: number}} Layer the positioned box text is painted in: its document order and z-index
   * @typedef {{el: Element, box: Box, win: Window, seq: number, z: number, pinned: boolean, through: boolean,
   *   pseudo?: boolean}} Painter through: hit testing does not see it (`pointer-events: none`, a pseudo-element);
   *   pseudo: el's positioned ::before or ::after, painted over el's in-flow content
   * @typedef {{node: Text, el: Element, win: Window, points: number[][], layer: Layer | null, seq: number,
   *   parts: Box[], inView: boolean | null}} TextMark inView: null until asked (inViewOf)
   * @typedef {{painters: Painter[], texts: TextMark[], seq: number, skip: Set<Node> | null, met?: WeakMap<Element, Layer | null>, bands: Map<number, Painter[]>}} Cover
   *   bands: the painters by the BAND-high bands their boxes reach (file)
   */

  /** @param {Set<Node> | null} skip text nodes found covered by an earlier walk @returns {Cover} */
  lib.coverBegin = (skip) => ({ painters: [], bands: new Map(), texts: [], seq: 0, skip });

  /** Painters are filed by horizontal bands of this height (px), so a text asks only those near it. */
  const BAND = 64;
  /** The band of painters taller than 400 bands (and pinned ones, which can stand anywhere they scroll to). */
  const TALL = -1e9;
  /** @param {Cover} cover @param {Painter} p */
  const file = (cover, p) => {
    cover.painters.push(p);
    const [from, to] = [Math.floor(p.box.t / BAND), Math.floor(p.box.b / BAND)];
    for (const i of p.pinned || to - from >= 400 ? [TALL] : Array.from({ length: to - from + 1 }, (_, k) => from + k)) {
      let list = cover.bands.get(i);
      if (!list) cover.bands.set(i, (list = []));
      list.push(p);
    }
  };
  /** @param {Cover} cover @param {TextMark} t the painters filed where the text's first point is @returns {Painter[]} */
  const near = (cover, t) => [...(cover.bands.get(Math.floor(t.points[0][1] / BAND)) ?? []), ...(cover.bands.get(TALL) ?? [])];

  /**
   * Notes an element: the layer its descendants paint in when it is positioned or transformed, and (when it
   * paints something opaque, in a layer of its own or not) a box that may cover text, painted over it or not by
   * paint order (page-paint-order.js paintedOver).
   * @param {Cover | undefined} cover
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {any} ns its walk state (gets layer)
   * @param {any} st the parent's walk state
   */
  lib.notePainter = (cover, el, cs, ns, st) => {
    if (!cover) return;
    const layered = cs.position !== "static" || cs.transform !== "none";
    // Met once per walk: a control's content is read for its name and its token (page-visibility.js seenText).
    const metBefore = (cover.met ??= new WeakMap());
    if (metBefore.has(el)) {
      const layer = metBefore.get(el);
      if (layer) ns.layer = layer;
      return;
    }
    const z = !layered || cs.zIndex === "auto" ? st.layer?.z ?? 0 : parseInt(cs.zIndex, 10) || 0;
    /** @type {Layer | null} */
    const layer = layered ? { seq: ++cover.seq, z } : null;
    metBefore.set(el, layer);
    if (layer) ns.layer = layer;
    if ((ns.rc?.alpha ?? 1) < OPAQUE || el === st.win.document.body) return;
    // Asked only of a box that paints: pinOf climbs the positioned boxes above it (bench/walk_profile.py).
    const pinnedBox = () => !!st.rc?.at?.fixed || pinned(el, st.win);
    if (layer && cs.position !== "static" && cs.visibility === "visible") {
      const pseudo = pseudoCovers(el, st.win);
      const pin = pseudo.length ? pinnedBox() : false;
      for (const box of pseudo) file(cover, { el, box, win: st.win, seq: layer.seq, z, pinned: pin, through: true, pseudo: true });
    }
    // Most boxes paint nothing: a transparent background and no picture say so without paints' reads.
    if (cs.visibility !== "visible" || (!layer && cs.backgroundColor === "rgba(0, 0, 0, 0)" && cs.backgroundImage === "none"
      && !PICTURES.has(el.tagName) && ((/** @type {any} */ (cs)).backdropFilter ?? "none") === "none") || !paints(el, st.win)) return;
    const r = el.getBoundingClientRect();
    if (r.width < 8 || r.height < 8) return;
    file(cover, { el, box: { l: r.left, t: r.top, r: r.right, b: r.bottom }, win: st.win, seq: layer?.seq ?? ++cover.seq, z,
      pinned: pinnedBox(), through: cs.pointerEvents === "none" });
  };

  /** @param {Painter} p @param {TextMark} t whether the painter's box (where it can stand) holds both the text's points */
  const over = (p, t) => {
    if (p.win !== t.win) return false;
    const box = p.pinned ? reachOf(p, t.win) : p.box;
    return t.points.every(([x, y]) => x >= box.l && x <= box.r && y >= box.t && y <= box.b);
  };

  /** @param {Painter} p @param {TextMark} t whether the painter, over the text's points (over), is painted above the text */
  const paintsOver = (p, t) => {
    if (p.pseudo) {
      // a positioned element's ::before or ::after, over its own in-flow content unless painted under the text
      const tz = t.layer?.z ?? 0;
      if (p.z < 0 || p.z < tz || (p.z === tz && t.layer && t.layer.seq > p.seq)) return false;
    } else if (holds(p.el, t.el) || !lib.paintedOver(p.el, t.el, t.win, t.node)) return false;
    if (p.pinned && !coversForGood(p.el, t.parts[0], t.el, t.win)) return false;
    return true;
  };

  /**
   * Whether a box the walk already met covers this text where hit testing cannot tell (outside the viewport, or
   * a `pointer-events: none` box); the text is kept for coveredLater either way.
   * @param {Cover | undefined} cover
   * @param {Text} node
   * @param {Element} el
   * @param {Box[]} parts its visible boxes
   * @param {any} st its walk state
   */
  lib.coveredByPainters = (cover, node, el, parts, st) => {
    if (cover?.skip?.has(node)) return true;
    const points = (parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts).map((p) => [(p.l + p.r) / 2, (p.t + p.b) / 2]);
    if (coveredByPseudo(el, points, st.win)) return true;
    const walking = cover ?? lib.walkCover;
    /** @type {TextMark} */
    const mark = { node, el, win: st.win, points, layer: st.layer ?? null, seq: walking ? ++walking.seq : 0,
      parts, inView: null };
    if (!walking) return coveredInOrder(node, el, points, parts[0], st, !!inViewOf(mark));
    if (near(walking, mark).some((/** @type {Painter} */ p) => over(p, mark) && (p.through || !inViewOf(mark)) && paintsOver(p, mark))) return true;
    // Text the walk reads without walking it (a control's name from its content): the walk has not met the
    // boxes inside that control, so the document's layers are asked.
    if (!cover && !inViewOf(mark) && coveredInOrder(node, el, points, parts[0], st)) return true;
    if (cover) cover.texts.push(mark);
    return !cover && !!walking.skip?.has(node);
  };

  /**
   * Whether hit testing can judge the text: both its points in the viewport, and its element hit-testable. Asked
   * only where a covering box may be (most texts never are).
   * @param {TextMark} t
   */
  const inViewOf = (t) => {
    if (t.inView === null) {
      const { viewport } = lib.areasOf(t.win);
      t.inView = t.points.every(([x, y]) => x >= viewport.l && y >= viewport.t && x < viewport.r && y < viewport.b)
        && inPorts(t.el, t.points, t.win) && lib.hitTestable(t.el, t.win);
    }
    return t.inView;
  };

  /**
   * Whether the points lie in the scrollport of every box that scrolls the text: a text scrolled out of its
   * scroller's port is not at its points for hit testing to find (the painters judge it, at every scroll
   * position that shows it for a pinned one).
   * @param {Element} el @param {number[][]} points @param {Window} win
   */
  const inPorts = (el, points, win) => {
    const doc = win.document;
    for (let s = lib.scrollerAt(el, win); s && s !== doc.body && s !== doc.documentElement; s = lib.scrollerAbove(s, win)) {
      const r = s.getBoundingClientRect();
      const any = /** @type {any} */ (s);
      const [l, t] = [r.left + any.clientLeft, r.top + any.clientTop];
      if (!points.every(([x, y]) => x >= l && y >= t && x < l + any.clientWidth && y < t + any.clientHeight)) return false;
    }
    return true;
  };

  /** @param {Element} e @param {Window} win its opacity through every ancestor */
  const alphaThrough = (e, win) => {
    let alpha = 1;
    for (let n = /** @type {Element | null} */ (e); n && alpha > 0; n = n.parentElement) alpha *= parseFloat(lib.styleOf(n, win).opacity) || 0;
    return alpha;
  };

  /**
   * A reader without a walk (page-seen.js), where hit testing cannot answer: whether a box of the document that
   * paints opaque, over both sample points, is painted over the text by stacking order (page-paint-order.js).
   * @param {Node} node the text @param {Element} el @param {number[][]} points @param {Box} part @param {any} st
   * @param {boolean} [hitTested] the text is in the viewport: only boxes hit testing skips (inert, pointer-events:
   *   none) are asked, hit testing judged the others
   */
  const coveredInOrder = (node, el, points, part, st, hitTested = false) => lib.paintersOf(st.win).some((/** @type {{el: Element, box: Box}} */ p) => {
    const box = reachOf(p, st.win);
    return points.every(([x, y]) => x >= box.l && x <= box.r && y >= box.t && y <= box.b) && (!hitTested || !lib.hitTestable(p.el, st.win))
      && !holds(p.el, el) && lib.paintedOver(p.el, el, st.win, node) && alphaThrough(p.el, st.win) >= OPAQUE
      && (!pinned(p.el, st.win) || coversForGood(p.el, part, el, st.win));
  });

  /** @param {Cover} cover text nodes covered by a box the walk met after them @returns {Set<Node>} */
  lib.coveredLater = (cover) => {
    /** @type {Set<Node>} */
    const found = new Set();
    if (!cover.painters.length || !cover.texts.length) return found;
    const texts = [...cover.texts].sort((a, b) => a.points[0][1] - b.points[0][1]);
    for (const p of cover.painters) {
      const box = p.pinned ? reachOf(p, texts[0].win) : p.box;
      let lo = 0;
      let hi = texts.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (texts[mid].points[0][1] < box.t) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < texts.length && texts[i].points[0][1] <= box.b; i++) {
        const t = texts[i];
        if (t.seq < p.seq && over(p, t) && (p.through || !inViewOf(t)) && paintsOver(p, t)) found.add(t.node);
      }
    }
    return found;
  };
}
