/**
 * In-page: text the person cannot see never reaches the model (issues 11, 18). The judgement is made from the
 * rendering (page-render.js: boxes after transforms and zoom, clipping by every overflow-clipping ancestor at its
 * scroll position, the document's scrollable area, effective opacity through ancestors, filters and masks, colours
 * as the browser resolves them; page-cover.js: what is painted over the text), not from a list of CSS tricks.
 * The walker asks, per element and per text node:
 *
 * - `hiddenBy(el, cs, st)`: the element and everything in it is invisible: effective opacity (ancestors, filter,
 *   mask) of nothing; a clipping box (overflow, `clip`, `contain: paint`) that cannot show one legible glyph, or
 *   lies outside everything it can show in; clipped to nothing by an empty clip-path (a shape that cuts the text
 *   away elsewhere is found by hit testing, page-cover.js); a moved box off everything it can
 *   show in. Returns the reason, or "".
 * - `textVisibility(el, cs, ns, st, unseen, role)`: whether the element's own text shows by its colour: transparent
 *   (the text colour's alpha times the effective opacity), or coloured like what is behind it (contrast under 1.2
 *   against every colour its backgrounds paint there: colours, translucent ones composited, gradient stops, over
 *   the document's canvas in its used colour scheme), unless a stroke or shadow shows it. Where a picture shows
 *   behind the text it is judged against the picture's colours (page-picture.js samples them), and kept where
 *   they cannot be read. A control's whole text is judged too: its name from a font under 4 px or a large
 *   negative text-indent. Sets ns.hideText (its children decide afresh from their own style), ns.bg (the colours its
 *   children sit on), ns.rc (the render context its children are judged in) and ns.fontPx.
 * - `textSeen(node, st)`: whether a text node (in an element whose colour shows) can be read where it is painted:
 *   its boxes hold a legible glyph inside what can show (lib.boxesShow), its font draws ink for its characters
 *   (lib.inkless, page-ink.js), the top layer does not hide it (lib.topLayerHides, page-top-layer.js: an opaque
 *   ::backdrop, a view transition's snapshots), and something opaque is not painted over it (lib.coveredBy; an
 *   outline or box shadow: lib.decorationCovers, page-decor.js); under a backdrop-filter box, its colours and its
 *   background's as that box's colour functions turn them (lib.backdropBehind); over or under a picture whose pixels page code cannot read (a
 *   canvas, a video, another origin's image), what the rendering shows decides (lib.pixelAsk, page-pixels.js).
 *   Returns the reason, or "".
 * - `seenText(el, st)`: the text of a subtree that shows (a link's or button's visible content), judged as above.
 * - `stateAbove(el, base)`: the walk state an element's content is judged in (page-seen.js seenState), for a
 *   reader that starts at the element instead of walking from the root.
 * - `hiddenLength(node)`: how many characters an invisible subtree held (counted in the result's hidden_chars).
 * - `optionListed(option)`: whether a <select>'s list shows an option (not hidden, itself or by its optgroup).
 * - `placeholderShows(el)`: whether a field's placeholder can be read (its ::placeholder colour over the field);
 *   a name or state from a placeholder nobody can read is not given.
 * - `shownName(el, name, st)`: an accessible name that comes from an attribute (aria-label, title, alt,
 *   placeholder) rather than visible text is capped at 80 characters and, when it reads like a sentence (over 30
 *   characters or 4 words: an icon's label does not), marked with the state `attr-name`; a control that stays
 *   listed although nothing of it shows (an opacity-0 file input over a styled label) has its name capped at 40 and
 *   the state `invisible`, and none of its text in the markdown.
 *
 * Comments, <template> and <noscript> are never walked (page-walker.js's SKIP).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageBlend } from "./page-blend.js";
import { pageColour } from "./page-colour.js";
import { pageControls } from "./page-controls.js";
import { pageCover } from "./page-cover.js";
import { pageDecor } from "./page-decor.js";
import { pageDetailsContent } from "./page-details-content.js";
import { pageFrameCover } from "./page-frame-cover.js";
import { pageInk } from "./page-ink.js";
import { pageIsolation } from "./page-isolation.js";
import { pagePaintOrder } from "./page-paint-order.js";
import { pagePicture } from "./page-picture.js";
import { pagePixels } from "./page-pixels.js";
import { pageRender } from "./page-render.js";
import { pageSeen } from "./page-seen.js";
import { pageSvg } from "./page-svg.js";
import { pageTextInks } from "./page-text-inks.js";
import { pageTextPaint } from "./page-text-paint.js";
import { pageTopLayer } from "./page-top-layer.js";
import { pageWalker } from "./page-walker.js";

definePagePart(pageVisibility, { uses: [pageAria, pageBlend, pageColour, pageControls, pageCover, pageDecor, pageDetailsContent, pageFrameCover, pageInk, pageIsolation, pagePaintOrder, pagePicture, pagePixels, pageRender, pageSeen, pageSvg, pageTextInks, pageTextPaint, pageTopLayer, pageWalker] });

/**
 * Adds hiddenBy, textVisibility, textSeen, seenText, stateAbove, optionListed, placeholderShows, hiddenLength and
 * shownName to lib (needs pageRender, pageCover).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageVisibility(lib) {
  const MIN_FONT_PX = 4;
  const MIN_CONTRAST = 1.2;
  const MIN_TEXT_ALPHA = 0.1;
  /** A text stroke this wide, times the font size, covers the glyphs' fill (stems are ~0.1–0.2 em). */
  const STROKE_COVERS = 0.25;
  const MAX_ATTR_NAME = 80;
  const MAX_HIDDEN_NAME = 40;
  const SAME_COLOUR = "text coloured like its background";

  /** @param {string} path a computed `clip-path` value */
  const clipPathIsEmpty = (path) => {
    if (path === "none" || path.startsWith("url(")) return false;
    const inset = /^inset\(([^)]*)\)/.exec(path);
    if (inset) {
      const v = inset[1].split(/\s+round\s+/)[0].trim().split(/\s+/).map((x) => (x.endsWith("%") ? parseFloat(x) : NaN));
      const [t, r = t, b = t, l = r] = v;
      return t + b >= 100 || l + r >= 100;
    }
    if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(path)) return true;
    const poly = /^polygon\(([^)]*)\)/.exec(path);
    if (poly) return new Set(poly[1].split(",").map((p) => p.trim().replace(/^(nonzero|evenodd)\s*/, ""))).size <= 1;
    return false;
  };

  /**
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {{win: Window, rc?: any}} st the parent's walk state
   * @returns {string} why nothing of it can be seen, or ""
   */
  lib.hiddenBy = (el, cs, st) => {
    const rc = lib.renderContext(el, cs, st);
    if (rc.hidden) return rc.hidden;
    if (lib.svgUnrendered(el)) return "not rendered"; // page-svg.js: inside <defs>, <symbol> and the like
    if (cs.display === "contents") return ""; // no box: its clip-path, position and transform apply to nothing
    const clipPath = cs.clipPath;
    if (clipPath !== "none" && clipPathIsEmpty(clipPath)) return "clipped";
    if ((cs.position !== "static" || cs.transform !== "none") && lib.boxOff(el, rc, st.win)) return "off-screen";
    return "";
  };

  /**
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {any} ns the element's walk state (gets hideText, bg, rc and fontPx)
   * @param {any} st the parent's walk state
   * @param {string} [unseen] hiddenBy's reason for a control that stays listed: none of its text shows
   * @param {string} [role] the element's role: a control's whole text (its name) is judged even when it holds no
   *   text of its own; any other element's only when it does (its children judge theirs from their own style)
   */
  lib.textVisibility = (el, cs, ns, st, unseen = "", role = "") => {
    const rc = lib.renderContext(el, cs, st);
    ns.rc = rc;
    const control = lib.isInteractiveRole(role);
    // Read where it decides only: a blurred or transformed text's legibility (page-render.js boxesShow) and a
    // control's name.
    const fontPx = rc.blur > 0 || rc.squash !== undefined || control ? parseFloat(cs.fontSize) : undefined;
    ns.fontPx = fontPx;
    const contentBox = st.rc?.content && !lib.isDetailsSummary(el) ? st.rc.content : null; // a <details>' content box
    const above = backgroundOf(st);
    const under = contentBox ? lib.paintsOf(contentBox.style, above, parseFloat(contentBox.style.opacity) || 0, contentBox.tint) : above;
    // A box-less element (display: contents) paints no background: its children stand on its parent's.
    const bg = cs.display === "contents" ? under : lib.paintsOf(cs, under, parseFloat(cs.opacity) || 0, rc.tint);
    ns.bg = bg;
    ns.picture = bg ? null : /url\(/.test(cs.backgroundImage) && cs.display !== "contents" ? el : st.picture ?? null; // the background image behind its text
    ns.unseen = unseen || st.unseen || "";
    ns.hideText = ns.unseen;
    if (ns.hideText) return;
    const own = ownText(el);
    if (!own && !control) return;
    if (control && !own && (fontPx ?? 16) < MIN_FONT_PX) ns.hideText = "tiny font";
    else if (control && parseFloat(cs.textIndent) <= -999) ns.hideText = "off-screen text";
    else {
      /** @type {DOMRect | null} */
      let first = null;
      const box = () => (first ??= own ? lib.textBoxes(own)[0] ?? el.getBoundingClientRect() : el.getBoundingClientRect());
      /** @type {Paint} */
      const paint = { el, rc, font: () => fontPx ?? parseFloat(cs.fontSize), box, win: st.win };
      if (cs.backgroundClip === "text" || /** @type {any} */ (cs).webkitBackgroundClip === "text") {
        ns.hideText = clippedBackgroundHides(cs, paint, under);
        return;
      }
      const verdict = firstLineVerdict(el, cs, own, paint, bg, colourHides(cs, paint, bg));
      // A picture behind the text (a box's background image, an image under it) is sampled (page-picture.js).
      const pic = verdict === SAME_COLOUR || (!verdict && (ns.picture || lib.picturesOver(box, st.win)))
        ? (bg ? null : ns.picture) ?? lib.pictureBehind(el, box(), st.win) : null;
      ns.hideText = pic ? onPicture(cs, paint, pic, box(), under, st.win) : verdict;
    }
  };

  /**
   * Why text of this style does not show over the part of a picture behind it: SAME_COLOUR when its colours
   * are read and none stands out from the text, else "" (colours that cannot be read keep the text).
   * @param {CSSStyleDeclaration} cs @param {Paint} paint @param {Element} pic @param {DOMRect} rect
   * @param {number[][] | null} under what the picture's parent shows @param {Window} win
   */
  const onPicture = (cs, paint, pic, rect, under, win) => {
    const samples = lib.pictureSamples(pic, rect, win);
    if (!samples) return "";
    const base = (under ?? lib.canvasOf(win) ?? [[255, 255, 255, 1]])[0];
    return colourHides(cs, paint, samples.map((/** @type {number[]} */ c) => lib.composite(c, base))) === SAME_COLOUR ? SAME_COLOUR : "";
  };

  /**
   * Why text whose glyphs are painted with its own background (background-clip: text) does not show: the text's
   * colour and every colour its background paints (its colour, its gradients' stops) hide against what is under
   * the element. A picture in the background keeps the text (its colours are not read here).
   * @param {CSSStyleDeclaration} cs @param {Paint} paint @param {number[][] | null} under
   */
  const clippedBackgroundHides = (cs, paint, under) => {
    const fill = colourHides(cs, paint, under);
    if (!fill) return "";
    const image = cs.backgroundImage;
    const stops = image === "none" ? [] : lib.gradientColours(image);
    if (!stops) return "";
    const inks = [lib.colourOf(cs.backgroundColor), ...stops].filter(Boolean);
    return inks.every((ink) => inkHides(ink, paint, under)) ? fill : "";
  };

  /**
   * The verdict on a block's own text with its ::first-line colours (page-text-paint.js): text wholly on the first
   * line is judged in the first line's colours (text running past it keeps its element's verdict).
   * @param {Element} el @param {CSSStyleDeclaration} cs @param {Text | null} own @param {Paint} paint
   * @param {number[][] | null} bg @param {string} verdict the verdict from the element's own colours
   */
  const firstLineVerdict = (el, cs, own, paint, bg, verdict) => {
    const line = own ? lib.firstLineStyle(el, cs, paint.win) : null;
    if (!line || !own) return verdict;
    const onLine = colourHides(line, paint, bg);
    return !verdict === !onLine || !lib.inFirstLine(own) ? verdict : onLine;
  };

  /** @param {Element} el its first text node of its own that is not only white space, or null */
  const ownText = (el) => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && /\S/.test(/** @type {Text} */ (n).data)) return /** @type {Text} */ (n);
    }
    return null;
  };

  /**
   * @typedef {{el: Element, rc: any, font: () => number, box: () => DOMRect, win: Window, behind?: (c: number[]) => number[]}} Paint
   *   how an element's text is painted: its render context (effective opacity, filters' tint, blend mode, where it
   *   can show), its font size, its first text box; behind: what the backdrop-filter boxes over it do to its inks
   *   (page-cover.js backdropBehind), its backgrounds turned alike by the caller
   */

  /**
   * Why ink of this colour does not show over these backgrounds, or "": the ink goes through the filters its
   * element's paint goes through, and is blended with what is under it by its blend mode.
   * @param {number[] | null} ink
   * @param {Paint} paint
   * @param {number[][] | null} bg
   * @param {number} [own] the ink's own opacity factor (an SVG fill-opacity)
   */
  const inkHides = (ink, paint, bg, own = 1) => {
    if (!ink) return "";
    const { alpha, tint, blend } = paint.rc;
    const c = paint.behind ? paint.behind(lib.tinted(ink, tint)) : lib.tinted(ink, tint);
    const a = alpha * own;
    if (c[3] * a <= MIN_TEXT_ALPHA) return "transparent text";
    if (!bg) return "";
    if (blend && !lib.blendOverClear(paint.rc.blender, paint.box(), paint.win)) return bg.every((b) => lib.contrast(lib.composite(lib.blended(blend, b, c), b, a), b) < MIN_CONTRAST) ? SAME_COLOUR : "";
    // Most text of a page is one colour on one background: the contrast is worked out once per pair (colourOf
    // gives one array per colour, tinted gives it back when no filter tints it; a background's array is shared by
    // everything standing on it).
    let byInk = contrasts.get(bg);
    if (!byInk) contrasts.set(bg, (byInk = new Map()));
    let byAlpha = byInk.get(c);
    if (!byAlpha) byInk.set(c, (byAlpha = new Map()));
    let why = byAlpha.get(a);
    if (why === undefined) {
      why = bg.every((b) => lib.contrast(lib.composite(c, b, a), b) < MIN_CONTRAST) ? SAME_COLOUR : "";
      byAlpha.set(a, why);
    }
    return why;
  };
  /** @type {WeakMap<number[][], Map<number[], Map<number, string>>>} inkHides' verdicts, by background, ink and opacity */
  const contrasts = new WeakMap();

  /**
   * Whether a text shadow draws the glyphs legibly where a person can see them: not blurred past reading, and
   * moved by its offset to a place that still shows.
   * @param {string} shadow one computed shadow (`rgb(0, 0, 0) 2px 2px 0px`) @param {Paint} paint @param {number[][] | null} bg
   */
  const shadowShows = (shadow, paint, bg) => {
    const { colour, at: [dx, dy, blur] } = lib.shadowParts(shadow); // page-text-inks.js
    if (!colour || inkHides(colour, paint, bg)) return false;
    if (blur >= paint.font() * 0.5) return false;
    return dx === 0 && dy === 0 ? true : lib.showsAt(paint.box(), dx, dy, paint.rc, paint.win);
  };

  /**
   * Why the text of an element with this style does not show by its colour: its fill (an SVG text's `fill`), and
   * a stroke or a text shadow that could show it instead (page-text-inks.js). "" when it shows.
   * @param {CSSStyleDeclaration} cs
   * @param {Paint} paint
   * @param {number[][] | null} bg
   */
  const colourHides = (cs, paint, bg) => {
    const fill = lib.textFill(cs, paint.el);
    const hides = inkHides(fill[0], paint, bg, fill[1]);
    // A stroke a quarter of the font size wide or more, painted over the fill (paint-order's default), covers
    // every stem of the glyphs: what shows is the stroke alone. Other inks are read only when they can matter.
    const wide = parseFloat(paint.el.namespaceURI === "http://www.w3.org/2000/svg" ? cs.strokeWidth : /** @type {any} */ (cs).webkitTextStrokeWidth)
      >= paint.font() * STROKE_COVERS && !/^stroke/.test(cs.paintOrder);
    if (!hides && !wide) return "";
    const { stroke, shadows } = lib.textOutlines(cs, paint.el);
    const strokeHides = stroke ? inkHides(stroke[0], paint, bg, stroke[1]) : null;
    const shadowShown = shadows.some((/** @type {string} */ s) => shadowShows(s, paint, bg));
    if (!hides) return strokeHides && !shadowShown ? strokeHides : "";
    if (strokeHides === "" || shadowShown) return "";
    // a filter's drop-shadow() draws glyphs that have ink: it shows text coloured like its background (page-render.js)
    return hides === SAME_COLOUR && !!paint.rc.shadows?.some((/** @type {string} */ s) => shadowShows(s, paint, bg)) ? "" : hides;
  };

  /**
   * @param {Text} node
   * @param {any} st the walk state of the element it stands in
   * @returns {string} why it cannot be read where it is painted, or ""
   */
  lib.textSeen = (node, st) => {
    // One verdict per text node and walk state: a control's text is asked again for its name, token and context.
    const known = (lib.factsOf(st.win).verdicts ??= new WeakMap());
    const last = known.get(node);
    if (last && last.rc === st.rc && last.fontPx === st.fontPx && last.layer === st.layer && last.walk === lib.walkCover
      && (last.cover === st.cover || (!st.cover && last.cover === lib.walkCover))) return last.why;
    const why = textJudged(node, st);
    known.set(node, { rc: st.rc, fontPx: st.fontPx, layer: st.layer, cover: st.cover, walk: lib.walkCover, why });
    return why;
  };

  /** @param {Text} node @param {any} st @returns {string} textSeen's verdict, made afresh */
  const textJudged = (node, st) => {
    const chars = node.data.trim().length; // spaces advance too
    if (!chars) return "";
    // Text that stands in an open <details> itself is painted in its ::details-content box (page-details-content.js).
    if (st.rc?.content && node.parentElement?.tagName === "DETAILS") {
      st = { ...st, rc: st.rc.content };
      if (st.rc.hidden) return st.rc.hidden;
    }
    if (st.rc?.skips) return "not rendered"; // content-visibility: hidden, a closed <details> (page-render.js)
    const rects = lib.paintedBoxes(node, st.rc, st.win);
    const why = lib.boxesShow(rects, chars, st.rc, st.win, st.fontPx ?? 16);
    if (why) return why;
    const el = node.parentElement;
    if (el && lib.inkless(node, lib.styleOf(el, st.win), st.win)) return "glyphs without ink"; // page-ink.js
    if (el && highlightHides(node, el, st)) return SAME_COLOUR;
    const parts = lib.shownParts(rects, st.rc, st.win);
    if (!el || !parts.length) return "";
    const layered = lib.topLayerHides(el, parts, st.win); // page-top-layer.js: a backdrop, a view transition's snapshots
    if (layered) return layered;
    // One hit test per text node and call: a control's text is asked again for its name and token.
    const known = (lib.factsOf(st.win).covered ??= new WeakMap());
    let hit = known.get(node);
    if (!hit || hit.rc !== st.rc) known.set(node, (hit = { rc: st.rc, why: lib.coveredBy(el, parts, st.rc, st.win, node) }));
    return hit.why || (lib.coveredByPainters(st.cover, node, el, parts, st) || lib.belowAncestor(el, parts, st.win)
      || lib.decorationCovers(el, parts, st.win, node) // page-decor.js: outlines, box shadows, borders
      || lib.frameCovered(parts, st.win) ? "covered" : "") // page-frame-cover.js: the parent page over a frame
      || backdropHides(node, el, parts, st) // a backdrop-filter box over it turns its colours and its background's
      || lib.pixelAsk(node, parts, st.win, st.rc); // page-pixels.js: over a picture page code cannot read, the pixels decide
  };

  /** @param {any} st a walk state @returns {number[][] | null} the colours painted behind its text (the canvas by default) */
  const backgroundOf = (st) => (st.bg === undefined ? lib.canvasOf(st.win) : st.bg);
  /**
   * How a text node is painted in its element's walk state, for colourHides.
   * @param {Text} node @param {Element} el @param {any} st @param {CSSStyleDeclaration} cs el's style @returns {Paint}
   */
  const textPaint = (node, el, st, cs) => ({ el, rc: st.rc ?? { alpha: 1 }, font: () => parseFloat(cs.fontSize),
    box: () => lib.textBoxes(node)[0] ?? el.getBoundingClientRect(), win: st.win });

  /**
   * Why a text does not show under the backdrop-filter boxes painted over it, or "": its inks and the backgrounds
   * they stand on, both turned by the boxes' colour functions (page-cover.js backdropBehind), judged as any text's
   * colours are (colourHides). Nothing is read for a text no such box covers.
   * @param {Text} node @param {Element} el @param {{l: number, t: number, r: number, b: number}[]} parts @param {any} st
   */
  const backdropHides = (node, el, parts, st) => {
    const behind = lib.backdropBehind(el, parts, st.win, node);
    if (!behind) return "";
    const bg = backgroundOf(st);
    if (!bg) return ""; // a picture behind: its colours are not known here
    const cs = lib.styleOf(el, st.win);
    return colourHides(cs, { ...textPaint(node, el, st, cs), behind }, bg.map(behind));
  };

  /**
   * Whether a registered highlight over all of the text paints it in colours that do not show (page-text-paint.js).
   * @param {Text} node @param {Element} el @param {any} st
   */
  const highlightHides = (node, el, st) => {
    const styles = lib.highlightsOver(node, st.win);
    if (!styles.length) return false;
    const paint = textPaint(node, el, st, lib.styleOf(el, st.win));
    const bg = backgroundOf(st);
    // A highlight (or the selection) paints its own background under the glyphs it colours.
    return styles.some((/** @type {CSSStyleDeclaration} */ h) => {
      const own = lib.colourOf(h.backgroundColor);
      const under = !own || own[3] <= 0 ? bg : bg ? bg.map((/** @type {number[]} */ c) => lib.composite(own, c)) : own[3] >= 1 ? [own] : null;
      return !!colourHides(h, paint, under);
    });
  };

  /**
   * The text of a subtree that shows (as contentText reads it: aria-label and alt of descendants included).
   * @param {Element} el
   * @param {any} st the element's own walk state
   * @param {boolean} [painted] a sentence in a descendant's alt or aria-label left out (told): what a control's
   *   painted words are next to its icons
   */
  lib.seenText = (el, st, painted = false) => {
    let out = "";
    /** @param {Node} node @param {any} s */
    const visit = (node, s) => {
      if (out.length > 400) return;
      if (node.nodeType === 3) {
        if (!s.invisible && !s.hideText && !lib.textSeen(node, s)) out += lib.shownData(/** @type {Text} */ (node), s.rc, s.win);
        return;
      }
      if (node.nodeType !== 1) return;
      const e = /** @type {Element} */ (node);
      if (lib.SKIP_TAGS.has(e.tagName) && e.tagName !== "IMG") return;
      const cs = lib.styleOf(e, s.win);
      if (cs.display === "none" || e.getAttribute("aria-hidden") === "true" || lib.hiddenBy(e, cs, s)) return;
      const ns = { ...s, invisible: cs.visibility !== "visible" };
      lib.textVisibility(e, cs, ns, s);
      lib.notePainter(s.cover, e, cs, ns, s); // the walk does not walk a control's content: what paints in it is noted here
      // An aria-label on a role that prohibits naming stands only for an element showing no text (an icon).
      const own = e.getAttribute("aria-label");
      const label = own && lib.namingProhibited(e) && lib.seenText(e, ns).trim() ? null : own;
      if (label?.trim() || e.tagName === "IMG") {
        // Nobody sees these words painted: with `painted`, a sentence of them is left out (told).
        const words = label?.trim() ? ` ${label} ` : e.getAttribute("alt") ?? "";
        if (!ns.invisible) out += painted ? told(words) : words;
        return;
      }
      const block = !cs.display.startsWith("inline");
      if (block) out += " ";
      for (const kid of lib.kids(e)) visit(kid, ns);
      if (block) out += " ";
    };
    for (const kid of lib.kids(el)) visit(kid, st);
    return out;
  };

  /**
   * An icon's label ("Star", "Open chat") is what attributes are for; a sentence in one is not shown to anybody.
   * @param {string} name
   */
  const sentenceLike = (name) => name.length > 30 || name.split(" ").length > 4;
  /**
   * An attribute's words inside a text a person reads (an icon's alt or aria-label): a word or two is the icon's
   * name; a sentence of them is left out of the painted text, and the control's name in the index carries it,
   * capped and marked `attr-name` (shownName).
   * @param {string} text @returns {string}
   */
  const told = (text) => (sentenceLike(text.replace(/\s+/g, " ").trim()) ? " " : text);

  /**
   * The walk state an element's content is judged in, for a reader that starts at the element instead of walking
   * from the root (a scoped extract): page-seen.js's seenState, the one state every reader builds down the flat
   * tree (opacity, clipping, colours, backgrounds of its ancestors; a same-process frame's document from its
   * <iframe>), with the walk's own fields (win, scoped, cover) from `base`. `gone` is set when nothing in the
   * element can be seen (an ancestor hides it, a closed <details> or content-visibility: hidden holds it).
   * @param {Element} el
   * @param {any} base the walk's base state
   * @returns {any} the state to pass to textSeen, seenText, hiddenBy and textVisibility for el's content
   */
  lib.stateAbove = (el, base) => {
    const st = lib.seenState(el);
    if (!st || st.closed) return { ...base, gone: true, hideText: "hidden by an ancestor" };
    return { ...st, scoped: base.scoped, cover: base.cover };
  };

  /**
   * Whether a <select>'s list shows an option: not hidden, nor display: none, nor in an <optgroup> that is.
   * @param {Element} option
   */
  lib.optionListed = (option) => {
    const win = /** @type {Window} */ (option.ownerDocument.defaultView);
    for (let n = /** @type {Element | null} */ (option); n && n.tagName !== "SELECT"; n = n.parentElement) {
      if (/** @type {HTMLElement} */ (n).hidden || lib.styleOf(n, win).display === "none") return false;
    }
    return true;
  };

  /**
   * Whether a field's placeholder can be read: the field is empty and its ::placeholder colour shows over the
   * field (judged as any text's colour; a placeholder coloured like its field names nothing a person sees).
   * @param {Element} el
   */
  lib.placeholderShows = (el) => {
    const field = /** @type {any} */ (el);
    if (!el.getAttribute("placeholder") || (typeof field.value === "string" && field.value !== "")) return !!el.getAttribute("placeholder");
    const st = lib.seenState(el);
    if (!st || st.invisible) return false;
    const win = /** @type {Window} */ (el.ownerDocument.defaultView);
    const pcs = win.getComputedStyle(el, "::placeholder");
    const box = () => el.getBoundingClientRect();
    return !colourHides(pcs, { el, rc: st.rc ?? { alpha: 1 }, font: () => parseFloat(pcs.fontSize) || 16, box, win },
      st.bg === undefined ? lib.canvasOf(win) : st.bg);
  };

  /** @param {Node} node */
  lib.hiddenLength = (node) => (node.textContent ?? "").replace(/\s+/g, " ").trim().length;

  /**
   * @param {Element} el
   * @param {string} name the accessible name
   * @param {{hideText?: string}} [st] the element's walk state: a control whose text cannot be seen
   * @returns {[string, string[]]} the name to show, and the states to add
   */
  lib.shownName = (el, name, st) => {
    if (st?.hideText) return [name.length > MAX_HIDDEN_NAME ? `${name.slice(0, MAX_HIDDEN_NAME)}…` : name, ["invisible"]];
    if (!name) return [name, []];
    // The parts nameOf took from attributes (page-aria.js unseenPartsOf: the control's aria-label or title, an
    // icon's alt inside it) that the control's own text does not also show; one that reads like a sentence caps
    // the whole name and marks it, whatever visible words stand beside it.
    const text = el.textContent ?? "";
    const told = lib.unseenPartsOf(el).filter((/** @type {string} */ part) => !text.includes(part) && name.includes(part.slice(0, 16)));
    if (!told.some(sentenceLike)) return [name, []];
    return [name.length > MAX_ATTR_NAME ? `${name.slice(0, MAX_ATTR_NAME)}…` : name, ["attr-name"]];
  };
}
