/**
 * In-page: text the in-page judgement cannot decide, handed to the rendering itself (issue 18). Page code cannot
 * read what a `<canvas>`, a `<video>` frame, an `<embed>`/`<object>`, or an image or CSS background from another
 * origin paints (the pixels are not the page's to read), so text over or under such a picture may be white on a
 * white drawing, or drawn over opaque, and page code cannot tell. Such a text is asked of the pixels: the service
 * worker captures its boxes as painted, and again with the text's glyphs made transparent (a registered highlight
 * over it, styled by a stylesheet adopted for the call: no DOM mutation), and compares (extract/pixel-judge.js).
 * Text whose glyphs change nothing a person could tell apart is hidden. Only such texts pay for it: a page with
 * no picture whose pixels are unreadable asks nothing. A box whose backdrop-filter is an SVG filter (url(): a
 * flood paints over what is behind it, a displacement "glass" keeps it readable) is judged the same way: the
 * texts its box meets are asked of the pixels.
 *
 * - `pixelAsk(node, parts, win, rc, undecided)`: the verdict for a text the in-page judgement found shown, or "": when
 *   its boxes meet an unreadable picture, or the in-page judgement cannot tell (`undecided`: a popover and a modal
 *   dialog's opaque backdrop, whose order in the top layer no API gives), the call's verdict for it (given by the
 *   service worker: `pixelCall`) decides;
 *   without one it is kept and asked (its boxes in the top document's CSS px, and its inks: every colour its
 *   glyphs paint — fill, stroke, shadows — through its filters, with its alpha times its effective opacity, and
 *   its blend mode; pixel-measure.js judges by them when the picture moves between the captures).
 * - `pixelCall(verdicts)` / `pixelAsked()`: the verdicts of one call (per text id, with the boxes they were made
 *   for: a text that moved since is asked afresh), and the questions it left (cleared when read).
 * - `pixelHold(verdicts)`: verdicts for the page functions of an input action that follow (a click describes what
 *   it reached as it acts, and cannot act twice), for HOLD_MS.
 * - `pixelPending()`: how many texts the call has left to the pixels so far.
 * - `pixelMask(ids)`: paints the asked texts' glyphs transparent (ids), or takes the mask away (null).
 * - `pixelDeferred()`: the characters this call left out unjudged because their boxes lie out of view (nothing is
 *   captured beyond the viewport: pixel-judge.js), by the side they lie on; judged once scrolled into view.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageBackdrop } from "./page-backdrop.js";
import { pageColour } from "./page-colour.js";
import { pagePicture } from "./page-picture.js";
import { pageRender } from "./page-render.js";
import { pageScan } from "./page-scan.js";
import { pageTextInks } from "./page-text-inks.js";

definePagePart(pagePixels, { uses: [pageBackdrop, pageColour, pagePicture, pageRender, pageScan, pageTextInks] });

/**
 * Adds pixelAsk, pixelCall, pixelAsked, pixelDeferred and pixelMask to lib (needs renderedScan, pictureReadable, factsOf,
 * styleOf, colourOf, tinted).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pagePixels(lib) {
  /** The mask's highlight name: a new one each time it is painted, so no rule of the page's names it beforehand. */
  let MASK = "bua-pixel-mask";
  const CLEAR = "rgba(0, 0, 0, 0)";
  /** At most this many texts are asked of the pixels per call; the rest are counted (`left`) and asked in the
   * caller's next round, or, once its rounds are spent, left out (run-in-page.js, pixel-reads.js). */
  const MAX_ASKS = 48;
  /** Why a text the pixels had no round left for is left out. */
  const PAST_BUDGET = "not judged: past the pixel budget";
  /** @param {string} side @returns {string} why a text over a picture out of view is left out until it is in view */
  const OUT_OF_VIEW = (side) => side === "uncaptured" ? "not judged: the browser did not capture its picture in time"
    : `not judged: over a picture ${side} the viewport, judged once scrolled into view`;
  /** @type {Map<number, {side: string, chars: number}>} this call's texts left out as out of view */
  let outOfView = new Map();
  /** @type {WeakMap<Text, number>} */
  const ids = new WeakMap();
  /** @type {Map<number, WeakRef<Text>>} */
  const nodes = new Map();
  let nextId = 0;
  /** @type {Map<number, {key: string, hidden: boolean, far?: string}>} this call's verdicts */
  let verdicts = new Map();
  /** @type {Map<number, {id: number, rects: number[][], chars: number, local: number, inks: number[][], blend?: string}>} this call's questions */
  let asks = new Map();
  /** @type {Set<number>} this call's texts past MAX_ASKS, not asked */
  let left = new Set();
  /** Whether this call leaves out the texts it has no verdict for (the caller's last round). */
  let restHidden = false;

  /** @param {Text} node */
  const idOf = (node) => {
    let id = ids.get(node);
    if (id === undefined) {
      ids.set(node, (id = ++nextId));
      nodes.set(id, new WeakRef(node));
      if (nodes.size > 5000) for (const [k, ref] of nodes) if (!ref.deref()) nodes.delete(k);
    }
    return id;
  };

  /**
   * The boxes of the document's pictures whose pixels page code cannot read, in this window's viewport px.
   * @param {Window} win @returns {{l: number, t: number, r: number, b: number}[]}
   */
  const unreadable = (win) => {
    const facts = lib.factsOf(win);
    if (!facts.unreadable) {
      const { els, styles } = lib.renderedScan(win);
      /** @type {{l: number, t: number, r: number, b: number}[]} */
      const out = [];
      for (let i = 0; i < els.length; i++) {
        // An SVG filter as backdrop-filter (a flood, a colour matrix, a displacement) turns what is behind its box
        // in ways style cannot tell: the texts it lies over are judged as over an unreadable picture.
        const backdrop = /** @type {any} */ (styles[i]).backdropFilter ?? "none";
        if (lib.pictureReadable(els[i], styles[i], win) && (backdrop === "none" || !lib.backdropOf(backdrop).url)) continue;
        const b = els[i].getBoundingClientRect();
        if (b.width >= 8 && b.height >= 8) out.push({ l: b.left, t: b.top, r: b.right, b: b.bottom });
      }
      facts.unreadable = out;
    }
    return facts.unreadable;
  };

  /**
   * Where this window's viewport stands: in the top document (CSS px from its origin, as a screenshot's clip is
   * given), or, below a frame of another origin (whose <iframe> page code cannot see), in that frame's viewport
   * (local: 1; the extension places the frame in the tab, pixel-judge.js).
   * @param {Window} win @returns {[number, number, number]}
   */
  const offsetOf = (win) => {
    let [x, y] = [0, 0];
    let w = win;
    for (; w !== w.parent; w = /** @type {Window} */ (w.parent)) {
      const owner = w.frameElement;
      if (!owner) return [x, y, 1];
      const b = owner.getBoundingClientRect();
      [x, y] = [x + b.left + owner.clientLeft, y + b.top + owner.clientTop];
    }
    return [x + w.scrollX, y + w.scrollY, 0];
  };

  /**
   * Every colour a text's glyphs paint ([r, g, b, alpha]: its fill, its stroke, its shadows — page-text-inks.js —
   * through its filters, each alpha times its effective opacity), and the blend mode they are painted with.
   * @param {Text} node @param {any} rc its render context (page-render.js) @param {Window} win
   * @returns {{inks: number[][], blend?: string}}
   */
  const inksOf = (node, rc, win) => {
    const el = node.parentElement;
    if (!el) return { inks: [] };
    const cs = lib.styleOf(el, win);
    const fill = lib.textFill(cs, el);
    const { stroke, shadows } = lib.textOutlines(cs, el);
    /** @type {[number[] | null, number][]} */
    const paints = [fill, ...(stroke ? [stroke] : []), ...shadows.map((/** @type {string} */ s) => /** @type {[number[] | null, number]} */ ([lib.shadowParts(s).colour, 1]))];
    const inks = paints.flatMap(([ink, own]) => {
      if (!ink) return [];
      const c = lib.tinted(ink, rc?.tint);
      return [[c[0], c[1], c[2], c[3] * own * (rc?.alpha ?? 1)]];
    });
    return rc?.blend ? { inks, blend: rc.blend } : { inks };
  };

  /**
   * @param {Text} node @param {{l: number, t: number, r: number, b: number}[]} parts its visible boxes
   * @param {Window} win @param {any} [rc] its render context (page-render.js), for its ink
   * @param {boolean} [undecided] the in-page judgement cannot tell whatever pictures it meets (page-top-layer.js
   *   topLayerUnsure: which of two top-layer elements paints over the other): asked all the same
   * @returns {string} "covered" or "text coloured like its background" when the pixels say so
   */
  lib.pixelAsk = (node, parts, win, rc, undecided = false) => {
    const pics = undecided ? [] : unreadable(win);
    if (!undecided && (!pics.length || !parts.some((p) => pics.some((q) => q.l < p.r && q.r > p.l && q.t < p.b && q.b > p.t)))) return "";
    const at = offsetOf(win);
    const rects = parts.map((p) => [p.l + at[0], p.t + at[1], p.r - p.l, p.b - p.t].map((v) => Math.round(v * 4) / 4));
    const id = idOf(node);
    const known = verdicts.get(id) ?? (performance.now() < heldUntil ? held.get(id) : undefined);
    if (known && sameBoxes(known.key, rects)) {
      if (!known.far) return known.hidden ? "unreadable on its picture" : "";
      outOfView.set(id, { side: known.far, chars: node.data.trim().length });
      return OUT_OF_VIEW(known.far);
    }
    if (restHidden) return PAST_BUDGET;
    if (asks.has(id) || asks.size < MAX_ASKS) {
      asks.set(id, { id, rects, chars: node.data.replace(/\s+/g, "").length, local: at[2], ...inksOf(node, rc, win) });
    }
    else left.add(id);
    return "";
  };

  /** Boxes that moved less than this (CSS px: a scroll's rounding) are the boxes a verdict was made for. */
  const SAME_PX = 1.5;
  /** @param {string} key the boxes a verdict was made for (JSON) @param {number[][]} rects the text's boxes now */
  const sameBoxes = (key, rects) => {
    const then = JSON.parse(key);
    return then.length === rects.length && rects.every((r, i) => r.every((v, k) => Math.abs(v - then[i][k]) <= SAME_PX));
  };

  /**
   * @param {{id: number, key: string, hidden: boolean, far?: string}[] | {verdicts: {id: number, key: string, hidden: boolean, far?: string}[], rest: boolean} | null} given
   *   the verdicts of the call about to run; rest: the caller has no round left, a text without a verdict is left out
   */
  lib.pixelCall = (given) => {
    const list = Array.isArray(given) ? given : given?.verdicts ?? [];
    restHidden = !Array.isArray(given) && !!given?.rest;
    verdicts = new Map(list.map((v) => [v.id, v]));
    asks = new Map();
    left = new Set();
    outOfView = new Map();
  };

  /** @returns {Record<string, number>} the characters this call left out as out of view, by side */
  lib.pixelDeferred = () => {
    /** @type {Record<string, number>} */
    const out = {};
    for (const { side, chars } of outOfView.values()) out[side] = (out[side] ?? 0) + chars;
    return out;
  };

  /** How long verdicts held for an input action last (ms): it reads its target's text as it acts. */
  const HOLD_MS = 3000;
  /** @type {Map<number, {key: string, hidden: boolean, far?: string}>} */
  let held = new Map();
  let heldUntil = 0;
  /** @param {{id: number, key: string, hidden: boolean, far?: string}[]} given verdicts for the page functions that follow */
  lib.pixelHold = (given) => {
    held = new Map(given.map((v) => [v.id, v]));
    heldUntil = performance.now() + HOLD_MS;
  };

  /** @returns {{asks: {id: number, rects: number[][], chars: number, local: number, inks: number[][], blend?: string}[], left: number}} the call's questions and how many
   * texts waited past them (its verdicts dropped) */
  lib.pixelAsked = () => {
    const out = { asks: [...asks.values()], left: left.size };
    asks = new Map();
    left = new Set();
    verdicts = new Map();
    restHidden = false;
    outOfView = new Map();
    return out;
  };

  /** @returns {number} how many texts this call has left to the pixels so far (a read that would change how the page
   * paints, a selection, waits until they are judged: actions/select-text.js) */
  lib.pixelPending = () => asks.size + left.size;

  /** @type {WeakSet<CSSStyleSheet>} */
  const ours = new WeakSet();
  /** @type {Set<Document | ShadowRoot>} */
  const adopted = new Set();

  /** @type {Text[]} the texts the mask paints now */
  let masked = [];

  /**
   * The texts the mask does not paint clear (a page rule for its highlight, or a `#id::selection` one that beats the
   * mask's, !important): the bare capture would show their glyphs, and the pixels would read them as shown. Read from
   * the computed style of the highlight and, for selected text, of the selection, on each text's element.
   * @returns {number[]}
   */
  const undone = () => masked.filter((node) => {
    const el = node.parentElement;
    const win = node.ownerDocument.defaultView;
    if (!el || !win) return false;
    const clear = (/** @type {CSSStyleDeclaration} */ cs) => cs.color === CLEAR && cs.webkitTextFillColor === CLEAR
      && (cs.textShadow === "none" || cs.textShadow === "");
    if (!clear(win.getComputedStyle(el, `::highlight(${MASK})`))) return true;
    const selection = win.getSelection();
    return !!selection && selection.rangeCount > 0 && selection.containsNode(node, true) && !clear(win.getComputedStyle(el, "::selection"));
  }).map((node) => /** @type {number} */ (ids.get(node)));

  /**
   * @param {number[] | null} which the ids of the texts to paint transparent, or null to take the mask away
   * @returns {number[]} the ids of the texts the mask painted, or was to paint, and did not paint clear (undone): as
   *   it is put on, and as it is taken away after the bare capture (a page script may restyle in between)
   */
  lib.pixelMask = (which) => {
    const before = undone();
    masked = [];
    for (const root of adopted) root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => !ours.has(s));
    adopted.clear();
    for (const w of maskedWindows) /** @type {any} */ (w).CSS.highlights.delete(MASK);
    maskedWindows.clear();
    if (!which) return before;
    MASK = `bua-pixel-mask-${Math.random().toString(36).slice(2, 10)}`;
    /** @type {Map<Window, Range[]>} */
    const byWin = new Map();
    for (const id of which) {
      const node = nodes.get(id)?.deref();
      const win = node?.ownerDocument.defaultView;
      if (!node || !win) continue;
      const range = new win.Range();
      range.selectNodeContents(node);
      masked.push(node);
      if (!byWin.has(win)) byWin.set(win, []);
      /** @type {Range[]} */ (byWin.get(win)).push(range);
      const root = /** @type {Document | ShadowRoot} */ (node.getRootNode());
      if (!adopted.has(root)) {
        root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheetFor(win)];
        adopted.add(root);
      }
    }
    for (const [win, ranges] of byWin) {
      /** @type {any} */ (win).CSS.highlights.set(MASK, new (/** @type {any} */ (win).Highlight)(...ranges));
      maskedWindows.add(win);
    }
    return undone();
  };
  /** @type {Set<Window>} */
  const maskedWindows = new Set();
  /** @type {WeakMap<Window, CSSStyleSheet>} */
  const sheets = new WeakMap();
  /** @param {Window} win a stylesheet of that window's (a sheet is adopted only by roots of its own document) */
  const sheetFor = (win) => {
    let own = sheets.get(win);
    if (!own) {
      own = new (/** @type {any} */ (win).CSSStyleSheet)();
      sheets.set(win, /** @type {CSSStyleSheet} */ (own));
      ours.add(/** @type {CSSStyleSheet} */ (own));
    }
    // A selection paints its text above any highlight: selected glyphs go transparent too, for the capture without
    // the texts (the background a selection paints stays, in both captures), or selected text would look unchanged
    // by the mask, so hidden. Only the asked texts' boxes are compared. The highlight's name is this mask's own.
    /** @type {CSSStyleSheet} */ (own).replaceSync(`::highlight(${MASK}) { color: transparent !important; `
      + "-webkit-text-fill-color: transparent !important; -webkit-text-stroke-color: transparent !important; "
      + "text-shadow: none !important; text-decoration-color: transparent !important }\n"
      + "::selection { color: transparent !important; -webkit-text-fill-color: transparent !important; "
      + "-webkit-text-stroke-color: transparent !important; text-shadow: none !important }");
    return /** @type {CSSStyleSheet} */ (own);
  };
}
