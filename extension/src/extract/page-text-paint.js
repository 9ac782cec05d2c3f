/**
 * In-page: colours text is painted with that its element's computed style does not give (issue 18): a block's
 * `::first-line`, and the CSS Custom Highlight API's `::highlight(name)` over ranges a script registered. The
 * visibility judgement (page-visibility.js) judges the text in these styles as well as in its element's own.
 *
 * - `firstLineStyle(el, cs, win)`: the computed `::first-line` style of a block container whose first line is
 *   painted in other colours than the element (a rule for it exists in a style sheet of its tree, or a sheet
 *   cannot be read), or null. Sheets are read once each (kept across calls, read again when their rule count
 *   changes), so a page without such a rule costs one lookup per element.
 * - `inFirstLine(node)`: whether a text node lies wholly on its element's first line.
 * - `highlightsOver(node, win)`: the computed `::highlight(name)` styles of the registered highlights whose ranges
 *   hold all of a text node (none when the page registers no highlight), and the `::selection` style where the
 *   page's selection holds it.
 * - `highlightParts(node, win)`: the parts of a text node a highlight paints that are not all of it, with its style
 *   (page-word-paint.js blanks the words of a part painted in colours that do not show).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageRender } from "./page-render.js";

definePagePart(pageTextPaint, { uses: [pageColour, pageRender] });

/**
 * Adds firstLineStyle, inFirstLine and highlightsOver to lib (needs pageRender's factsOf and textBoxes).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageTextPaint(lib) {
  const FIRST_LINE = /::?first-line/i;
  /** @type {WeakMap<CSSStyleSheet, {rules: number, has: boolean}>} whether a sheet styles ::first-line */
  const sheets = new WeakMap();
  const PAINT = ["color", "webkitTextFillColor", "webkitTextStrokeColor", "webkitTextStrokeWidth", "textShadow", "backgroundClip"];

  /** @param {CSSRuleList} rules @returns {boolean} */
  const rulesStyleFirstLine = (rules) => {
    for (const rule of rules) {
      const any = /** @type {any} */ (rule);
      if (typeof any.selectorText === "string" && FIRST_LINE.test(any.selectorText)) return true;
      if (any.cssRules && rulesStyleFirstLine(any.cssRules)) return true;
    }
    return false;
  };

  /** @param {CSSStyleSheet} sheet whether it may style ::first-line (a sheet that cannot be read may) */
  const sheetStylesFirstLine = (sheet) => {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch {
      return true;
    }
    const known = sheets.get(sheet);
    if (known && known.rules === rules.length) return known.has;
    const has = rulesStyleFirstLine(rules);
    sheets.set(sheet, { rules: rules.length, has });
    return has;
  };

  /** @param {Element} el @param {Window} win whether a style sheet of its tree may style ::first-line (once per tree and call) */
  const treeStylesFirstLine = (el, win) => {
    const root = /** @type {any} */ (el.getRootNode());
    const known = (lib.factsOf(win).firstLineTrees ??= new WeakMap());
    let has = known.get(root);
    if (has === undefined) {
      has = [...(root.styleSheets ?? []), ...(root.adoptedStyleSheets ?? [])].some(sheetStylesFirstLine);
      known.set(root, has);
    }
    return has;
  };

  /** @param {Element} el @param {CSSStyleDeclaration} cs @param {Window} win @returns {CSSStyleDeclaration | null} */
  lib.firstLineStyle = (el, cs, win) => {
    if (cs.display.startsWith("inline") && cs.display !== "inline-block") return null;
    if (!treeStylesFirstLine(el, win)) return null;
    const line = win.getComputedStyle(el, "::first-line");
    const any = /** @type {any} */ (line);
    const own = /** @type {any} */ (cs);
    return PAINT.some((p) => any[p] !== own[p]) ? line : null;
  };

  /** @param {Text} node whether all its boxes lie on its element's first line */
  lib.inFirstLine = (node) => {
    const el = node.parentElement;
    const boxes = lib.textBoxes(node);
    if (!el || !boxes.length) return false;
    const first = el.getClientRects()[0];
    return !!first && boxes.every((/** @type {DOMRect} */ b) => Math.abs(b.top - boxes[0].top) < 1 && b.top < first.top + (boxes[0].height || 1) * 1.5);
  };

  /** @param {any} range a highlight's range @param {Range} whole a text node's contents @param {Window} win */
  const holdsWhole = (range, whole, win) => {
    if (!(range instanceof /** @type {any} */ (win).Range)) return false; // a StaticRange: not compared here
    try {
      return range.compareBoundaryPoints(0, whole) <= 0 && range.compareBoundaryPoints(2, whole) >= 0; // START_TO_START, END_TO_END
    } catch {
      return false; // another tree's range
    }
  };

  /**
   * @typedef {{start: number, end: number, style: CSSStyleDeclaration}} HighlightPart
   * @typedef {{over: CSSStyleDeclaration[], parts: HighlightPart[]}} Highlights
   */
  /** @type {Highlights} */
  const NONE = { over: [], parts: [] };

  /** @param {CSSStyleDeclaration} pseudo @param {CSSStyleDeclaration} own whether a pseudo-element paints the text otherwise */
  const restyles = (pseudo, own) => pseudo.color !== own.color || pseudo.webkitTextFillColor !== own.webkitTextFillColor
    || (lib.colourOf(pseudo.backgroundColor)?.[3] ?? 1) > 0 || pseudo.textShadow !== own.textShadow;

  /** @param {Window} win @returns {Range[] | null} the ranges the window's selection holds now, null for none (once per call) */
  const selectionOf = (win) => {
    const facts = lib.factsOf(win);
    if (facts.selection === undefined) {
      const sel = win.getSelection();
      facts.selection = sel && sel.rangeCount && !sel.isCollapsed ? Array.from({ length: sel.rangeCount }, (_, i) => sel.getRangeAt(i)) : null;
    }
    return facts.selection;
  };

  /**
   * The registered highlights over a text node, read once per node per call: the styles of those that hold all
   * of it (one per highlight), and the parts, as [start, end) offsets in the node, of those that do not (a
   * StaticRange too).
   * @param {Text} node @param {Window} win @returns {Highlights}
   */
  const highlightsOf = (node, win) => {
    const registry = /** @type {any} */ (win).CSS?.highlights;
    const parent = node.parentElement;
    const selected = selectionOf(win);
    if ((!registry || !registry.size) && !selected) return NONE;
    if (!parent) return NONE;
    const known = (lib.factsOf(win).highlights ??= new WeakMap());
    const had = known.get(node);
    if (had) return had;
    /** @type {Highlights} */
    const found = { over: [], parts: [] };
    const doc = /** @type {Document} */ (node.ownerDocument);
    const whole = doc.createRange();
    whole.selectNodeContents(node);
    // The page's selection paints its text in the ::selection style, above every highlight (a selection kept
    // white on white hides what it selects): judged as one more highlight.
    const painters = [...(registry ?? [])].map(([name, highlight]) => [`::highlight(${name})`, highlight]);
    // With no ::selection style of the page's, the selection keeps the text's colours (the browser's own highlight
    // paints behind them): nothing to judge.
    if (selected && restyles(win.getComputedStyle(parent, "::selection"), lib.styleOf(parent, win))) painters.push(["::selection", selected]);
    for (const [pseudo, highlight] of painters) {
      const style = () => win.getComputedStyle(parent, pseudo);
      let holds = false;
      for (const range of highlight) {
        if (holdsWhole(range, whole, win)) {
          holds = true;
          continue;
        }
        let part;
        try {
          part = doc.createRange();
          part.setStart(range.startContainer, range.startOffset);
          part.setEnd(range.endContainer, range.endOffset);
        } catch {
          continue; // a static range whose offsets no longer fit
        }
        if (!part.intersectsNode(node)) continue;
        const start = part.startContainer === node ? part.startOffset : 0;
        const end = part.endContainer === node ? part.endOffset : node.data.length;
        if (end > start) found.parts.push({ start, end, style: style() });
      }
      if (holds) found.over.push(style());
    }
    known.set(node, found);
    return found;
  };

  /**
   * The parts of a text node registered highlights paint that do not hold all of it, with the highlight's
   * computed style (none when the page registers no highlight).
   * @param {Text} node @param {Window} win @returns {HighlightPart[]}
   */
  lib.highlightParts = (node, win) => highlightsOf(node, win).parts;

  /** @param {Text} node @param {Window} win @returns {CSSStyleDeclaration[]} the styles of the highlights that hold all of it */
  lib.highlightsOver = (node, win) => highlightsOf(node, win).over;
}
