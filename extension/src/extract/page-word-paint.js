/**
 * In-page: the words of one text node that paint nothing a person can read while the rest of it does (issue 18).
 * The judgement of a whole text node (page-visibility.js) keeps a node most of which shows; two things can
 * still blank a part of it, and every reader gets the node's text with that part blanked (page-render.js
 * shownData, as a clipped line's tail is):
 *
 * - a web font whose faces cover some characters only (`unicode-range`), drawing no ink for them while the rest
 *   falls back to a font that draws (page-ink.js inklessWords);
 * - a registered highlight over part of the node (page-text-paint.js highlightParts) whose colour does not stand
 *   out from the background under it (its own background colour, over the ancestors' backgrounds and the page's
 *   canvas): contrast under 1.2, as for any text.
 *
 * - `unseenWords(node, data, win)`: `data` (the node's text as shown so far) with those characters blanked (same
 *   length: offsets still map to the node). Costs one lookup per node unless the page brings a web font or
 *   registers a highlight.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageInk } from "./page-ink.js";
import { pageRender } from "./page-render.js";
import { pageTextPaint } from "./page-text-paint.js";

definePagePart(pageWordPaint, { uses: [pageColour, pageInk, pageRender, pageTextPaint] });

/**
 * Adds unseenWords to lib (needs pageRender's factsOf and styleOf, pageColour, pageInk, pageTextPaint).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageWordPaint(lib) {
  const MIN_CONTRAST = 1.2;

  /**
   * The colour behind an element's text: the ancestors' background colours composited over the page's canvas
   * (a picture behind is not read here: a highlight over one is kept).
   * @param {Element} el @param {Window} win @returns {number[] | null}
   */
  const backgroundOf = (el, win) => {
    /** @type {number[][]} */
    const layers = [];
    for (let n = /** @type {Element | null} */ (el); n; n = n.parentElement ?? /** @type {any} */ (n.parentNode)?.host ?? null) {
      const cs = lib.styleOf(n, win);
      if (cs.backgroundImage !== "none") return null;
      const c = lib.colourOf(cs.backgroundColor);
      if (c && c[3] > 0) layers.push(c);
      if (c && c[3] >= 1) break;
    }
    let under = layers.length && layers[layers.length - 1][3] >= 1 ? layers.pop() : lib.canvasOf(win)[0];
    for (const c of layers.reverse()) under = lib.composite(c, under);
    return under ?? null;
  };

  /**
   * @param {CSSStyleDeclaration} style a highlight's computed style @param {Element} el @param {Window} win
   * whether text painted in it does not stand out from what is under it
   */
  const paintHides = (style, el, win) => {
    const fill = /** @type {any} */ (style).webkitTextFillColor;
    const ink = lib.colourOf(fill && fill !== style.color ? fill : style.color);
    const under = backgroundOf(el, win);
    if (!ink || !under) return false;
    const own = lib.colourOf(style.backgroundColor);
    const behind = own && own[3] > 0 ? lib.composite(own, under) : under;
    return lib.contrast(lib.composite(ink, behind), behind) < MIN_CONTRAST;
  };

  /** @param {Text} node @param {string} data @param {Window} win @returns {string} */
  lib.unseenWords = (node, data, win) => {
    const el = node.parentElement;
    if (!el || !data.trim()) return data;
    const spans = lib.inklessWords(data, lib.styleOf(el, win), win);
    for (const part of lib.highlightParts(node, win)) {
      if (paintHides(part.style, el, win)) spans.push([part.start, part.end]);
    }
    if (!spans.length) return data;
    const chars = [...data.split("")];
    for (const [start, end] of spans) for (let i = start; i < end && i < chars.length; i++) chars[i] = " ";
    return chars.join("");
  };
}
