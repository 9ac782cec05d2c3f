/**
 * In-page: where a sticky box would stand unshifted (its static position), read from layout (issue 18;
 * page-sticky.js asks where the engine's view timeline cannot say: page-sticky-engine.js). Layout reports the
 * shifted box only (offsetTop and getBoundingClientRect include the shift), so the static start is worked out from
 * what the shift leaves alone:
 *
 * - in block flow, the next or previous in-flow sibling and the margin between them, or the parent's content edge;
 *   a table cell from its row;
 * - a flex item of a single-line flex container from the container's content box, the other items' margin boxes
 *   (their order, `gap`, `justify-content`) along the main axis, and `align-self` across it (CSS Flexbox §9.5, §8.3):
 *   a sticky shift moves no other item, so the flex algorithm placed every item where it would be unshifted;
 * - a grid item from its grid's resolved tracks (`grid-template-rows`/`-columns` resolve to the used track sizes),
 *   `gap` and `align-content`: its explicit line when it names one, else every line it could start (or end) at,
 *   by `align-self`/`justify-self`.
 *
 * `staticStarts(pin, win, axis)` returns the candidate starts (viewport coordinates now) — one where layout gives
 * it exactly, several where only a set is known (a grid item placed automatically) — or null where layout gives
 * none (a multi-line flex container, baseline alignment, inline boxes). page-sticky.js keeps the candidates that
 * reproduce where the box stands now, and judges a text hidden only when it is covered for every one left.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pageStickyStatic, { uses: [pageRender] });

/**
 * Adds staticStarts and boxParent to lib (needs pageRender's styleOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageStickyStatic(lib) {
  /** More candidates than this are judged by their least and greatest (page-sticky.js: a covering that holds at
   * both holds between them). */
  const MANY = 16;
  /** @param {string} v */
  const px = (v) => parseFloat(v) || 0;
  /** @param {string} v a gap, `normal` being none */
  const gapOf = (v) => (v === "normal" ? 0 : px(v));
  const START = /^(normal|stretch|start|flex-start|self-start)$/;
  const END = /^(end|flex-end|self-end)$/;

  /** @param {Element} e @param {Window} win its parent box (past display: contents) */
  const boxParent = (e, win) => {
    let p = e.parentElement;
    while (p && lib.styleOf(p, win).display === "contents") p = p.parentElement;
    return p;
  };
  lib.boxParent = boxParent;

  /** @param {CSSStyleDeclaration} cs whether the box sits in the normal flow among its siblings */
  const inFlow = (cs) => cs.display !== "none" && cs.display !== "contents" && !/absolute|fixed/.test(cs.position) && cs.float === "none";
  /** @param {number} a @param {number} b two adjoining vertical margins collapsed into one */
  const collapse = (a, b) => Math.max(a, b, 0) + Math.min(a, b, 0);

  /**
   * The content box of an element along one axis, viewport coordinates now.
   * @param {Element} el @param {Window} win @param {"x" | "y"} axis @returns {[number, number]}
   */
  const contentOf = (el, win, axis) => {
    const r = el.getBoundingClientRect();
    const cs = lib.styleOf(el, win);
    return axis === "y" ? [r.top + px(cs.borderTopWidth) + px(cs.paddingTop), r.bottom - px(cs.borderBottomWidth) - px(cs.paddingBottom)]
      : [r.left + px(cs.borderLeftWidth) + px(cs.paddingLeft), r.right - px(cs.borderRightWidth) - px(cs.paddingRight)];
  };

  /**
   * @param {Element} pin @param {Window} win @param {"x" | "y"} axis
   * @returns {number[] | null} the starts its border box can have unshifted, viewport coordinates now
   */
  lib.staticStarts = (pin, win, axis) => {
    const parent = boxParent(pin, win);
    if (!parent) return null;
    const pcs = lib.styleOf(parent, win);
    if (pcs.writingMode !== "horizontal-tb") return null;
    let out = null;
    if (/flex$/.test(pcs.display)) out = flexStart(pin, parent, win, axis);
    else if (/grid$/.test(pcs.display)) out = gridStarts(pin, parent, win, axis);
    else {
      const one = flowStart(pin, parent, win, axis);
      out = one === null ? null : [one];
    }
    if (!out || out.length <= MANY) return out;
    return [Math.min(...out), Math.max(...out)];
  };

  /**
   * In block flow (or a table cell): from the sibling boxes the shift does not move; null where there are none.
   * @param {Element} pin @param {Element} parent @param {Window} win @param {"x" | "y"} axis @returns {number | null}
   */
  const flowStart = (pin, parent, win, axis) => {
    const cs = lib.styleOf(pin, win);
    const pcs = lib.styleOf(parent, win);
    const pr = parent.getBoundingClientRect();
    if (cs.display === "table-cell") {
      if (axis === "y") return pr.top;
      const prev = pin.previousElementSibling;
      return prev && lib.styleOf(prev, win).position === "static" ? prev.getBoundingClientRect().right : null;
    }
    if (!/^(block|flow-root|list-item)$/.test(pcs.display) || !/^(block|flow-root|list-item|table|flex|grid)$/.test(cs.display)) return null;
    if (axis === "x") {
      const [l, r] = contentOf(parent, win, "x");
      return pcs.direction === "rtl" ? r - px(cs.marginRight) - pin.getBoundingClientRect().width : l + px(cs.marginLeft);
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
   * The items of a flex or grid container in order-modified document order; null when text makes anonymous items
   * or a transform moves an item's box off where layout placed it.
   * @param {Element} parent @param {Window} win @returns {Element[] | null}
   */
  const itemsOf = (parent, win) => {
    /** @type {[Element, number, number][]} */
    const items = [];
    let i = 0;
    for (const n of parent.childNodes) {
      if (n.nodeType === Node.TEXT_NODE && /\S/.test(n.textContent ?? "")) return null;
      if (n.nodeType !== Node.ELEMENT_NODE) continue;
      const el = /** @type {Element} */ (n);
      const cs = lib.styleOf(el, win);
      if (cs.display === "contents") return null;
      if (cs.display === "none" || /absolute|fixed/.test(cs.position)) continue;
      if (cs.transform !== "none" || cs.translate !== "none" || cs.scale !== "none" || cs.rotate !== "none") return null;
      items.push([el, parseInt(cs.order, 10) || 0, i++]);
    }
    return items.sort((a, b) => a[1] - b[1] || a[2] - b[2]).map(([el]) => el);
  };

  /**
   * A flex item's start in a single-line flex container (CSS Flexbox §9.5 main-axis alignment, §8.3 cross-axis).
   * @param {Element} pin @param {Element} parent @param {Window} win @param {"x" | "y"} axis @returns {number[] | null}
   */
  const flexStart = (pin, parent, win, axis) => {
    const pcs = lib.styleOf(parent, win);
    if (pcs.flexWrap !== "nowrap") return null;
    const items = itemsOf(parent, win);
    if (!items || !items.includes(pin)) return null;
    const row = /^row/.test(pcs.flexDirection);
    const cs = lib.styleOf(pin, win);
    const [m0, m1] = axis === "y" ? [px(cs.marginTop), px(cs.marginBottom)] : [px(cs.marginLeft), px(cs.marginRight)];
    const size = axis === "y" ? pin.getBoundingClientRect().height : pin.getBoundingClientRect().width;
    const [c0, c1] = contentOf(parent, win, axis);
    if ((axis === "x") !== row) {
      // Across the line: a single line spans the container's content box.
      const align = cs.alignSelf === "auto" ? pcs.alignItems : cs.alignSelf;
      if (START.test(align)) return [c0 + m0];
      if (END.test(align)) return [c1 - m1 - size];
      if (align === "center") return [c0 + (c1 - c0 - (size + m0 + m1)) / 2 + m0];
      return null;
    }
    /** @param {Element} el its margin box along the main axis */
    const outer = (el) => {
      const ecs = lib.styleOf(el, win);
      const r = el.getBoundingClientRect();
      return axis === "y" ? r.height + px(ecs.marginTop) + px(ecs.marginBottom) : r.width + px(ecs.marginLeft) + px(ecs.marginRight);
    };
    const gap = gapOf(row ? pcs.columnGap : pcs.rowGap);
    const sizes = items.map(outer);
    const free = c1 - c0 - sizes.reduce((a, b) => a + b, 0) - gap * (items.length - 1);
    const n = items.length;
    // Reversed: the main start is the far edge (row-reverse, column-reverse, a right-to-left row).
    const reversed = /reverse$/.test(pcs.flexDirection) !== (row && pcs.direction === "rtl");
    const j = pcs.justifyContent;
    let lead = 0;
    let between = 0;
    if (j === "space-between" && free > 0 && n > 1) between = free / (n - 1);
    else if (j === "space-around" || j === "space-evenly") {
      if (free > 0) [between, lead] = j === "space-around" ? [free / n, free / n / 2] : [free / (n + 1), free / (n + 1)];
      else lead = free / 2;
    } else if (j === "center") lead = free / 2;
    else if (END.test(j) || j === (reversed ? "left" : "right")) lead = free;
    else if (!(START.test(j) || j === "space-between" || j === (reversed ? "right" : "left"))) return null;
    const i = items.indexOf(pin);
    const before = lead + sizes.slice(0, i).reduce((a, b) => a + b, 0) + (gap + between) * i;
    // The margin facing the main start: the start-side margin, or the end side's when reversed.
    return [reversed ? c1 - before - m1 - size : c0 + before + m0];
  };

  /**
   * A grid item's candidate starts: from its explicit line, or from every line when it is placed automatically.
   * @param {Element} pin @param {Element} parent @param {Window} win @param {"x" | "y"} axis @returns {number[] | null}
   */
  const gridStarts = (pin, parent, win, axis) => {
    const pcs = lib.styleOf(parent, win);
    const cs = lib.styleOf(pin, win);
    /** @type {string[]} */
    const tracks = String(axis === "y" ? pcs.gridTemplateRows : pcs.gridTemplateColumns).split(/\s+/);
    if (!tracks.length || !tracks.every((t) => /^-?[\d.]+px$/.test(t))) return null;
    const sizes = tracks.map((t) => px(t));
    const gap = gapOf(axis === "y" ? pcs.rowGap : pcs.columnGap);
    const [c0, c1] = contentOf(parent, win, axis);
    if (axis === "x" && pcs.direction === "rtl") return null;
    const content = axis === "y" ? pcs.alignContent : pcs.justifyContent;
    const free = c1 - c0 - sizes.reduce((a, b) => a + b, 0) - gap * (sizes.length - 1);
    const lead = START.test(content) ? 0 : END.test(content) ? free : content === "center" ? free / 2 : NaN;
    if (Number.isNaN(lead)) return null;
    /** @type {number[]} lines[k]: where grid line k + 1 stands (the start of track k + 1) */
    const lines = [c0 + lead];
    for (const [k, t] of sizes.entries()) lines.push(lines[k] + t + (k + 1 < sizes.length ? gap : 0));
    /** @type {number[]} ends[k]: where a track ending at grid line k + 1 ends (before the gap after it) */
    const ends = lines.map((l, k) => (k > 0 && k < sizes.length ? l - gap : l));
    const [m0, m1] = axis === "y" ? [px(cs.marginTop), px(cs.marginBottom)] : [px(cs.marginLeft), px(cs.marginRight)];
    const size = axis === "y" ? pin.getBoundingClientRect().height : pin.getBoundingClientRect().width;
    const align = axis === "y" ? (cs.alignSelf === "auto" ? pcs.alignItems : cs.alignSelf)
      : (cs.justifySelf === "auto" ? pcs.justifyItems : cs.justifySelf);
    const [startLine, endLine] = axis === "y" ? [cs.gridRowStart, cs.gridRowEnd] : [cs.gridColumnStart, cs.gridColumnEnd];
    const start = /^\d+$/.test(startLine) ? parseInt(startLine, 10) : 0;
    const end = /^\d+$/.test(endLine) ? parseInt(endLine, 10) : 0;
    if (START.test(align) || align === "legacy") {
      if (start > 0) return start < lines.length ? [lines[start - 1] + m0] : null;
      return lines.slice(0, -1).map((l) => l + m0);
    }
    if (END.test(align)) {
      if (end > 1) return end <= ends.length ? [ends[end - 1] - m1 - size] : null;
      return ends.slice(1).map((l) => l - m1 - size);
    }
    return null;
  };
}
