/**
 * In-page: whether extract lists an element as a control, and as what, asked of any element without walking the
 * document: for `find` and for an element_stale error's candidates (page-find.js, page-search.js), and for what a
 * budget-cut extract counts as left out (page-controls-find.js finds the elements to ask about).
 *
 * The walker (page-walker.js) decides as it goes down the tree: a semantic control is listed and nothing inside
 * it is (listboxes, menus and trees excepted); any other element asks page-clickable.js's scriptControl with the
 * state the walk has at its parent (the parent's cursor, whether a listed control is around it, the items of a
 * delegating parent). Here that state is rebuilt from the element's ancestors, each decided once per pass
 * (`memo`), with the same rules: skipped tags, display:none, nothing seen (page-visibility.js's hiddenBy, asked
 * only of a script control's ancestors: it is the costly part), data-table rows (judged against their table, as
 * the walker's table reading does), shadow roots and slots, same-process frames. Names are made only for the
 * controls a caller asks about.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";
import { pageAria } from "./page-aria.js";
import { pageClickable } from "./page-clickable.js";
import { pageMath } from "./page-math.js";
import { pageReading } from "./page-reading.js";
import { pageRender } from "./page-render.js";
import { pageSvg } from "./page-svg.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageControls, { uses: [pageAria, pageClickable, pageMath, pageReading, pageRender, pageShadow, pageSvg, pageVisibility] });

/** The role-like labels a script control gets (page-clickable.js): the extension asks listeners only for these. */
export const SCRIPT_ROLES = ["clickable", "row", "item", "cell", "gridcell", "img", "columnheader", "draggable"];

/**
 * Adds SKIP_TAGS, DESCEND_ROLES, SCRIPT_ROLES, listedAs, controlOf, flatParent, controlAround and rowAndItem to lib
 * (needs pageAria, pageClickable, pageMath, pageReading, pageVisibility).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageControls(lib) {
  /** Tags the walker never enters (pictures may still show as text: lib.mayShow). */
  lib.SKIP_TAGS = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "HEAD", "TITLE", "META", "LINK", "svg",
    "IMG", "HR", "CANVAS", "VIDEO", "AUDIO", "OBJECT", "EMBED"]);
  /** Semantic controls whose insides are listed too. */
  lib.DESCEND_ROLES = new Set(["listbox", "menu", "tree"]);
  lib.SCRIPT_ROLES = new Set(["clickable", "row", "item", "cell", "gridcell", "img", "columnheader", "draggable"]);
  const HTML_NS = "http://www.w3.org/1999/xhtml";
  const SVG_NS = "http://www.w3.org/2000/svg";
  const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

  /**
   * @typedef {{cursor?: string, inClick: boolean, items: Set<Element> | null, blocked: boolean}} Below
   *   the walk's state at an element's children; blocked: nothing inside is listed
   * @typedef {{role: string, script: boolean}} Listed
   * @typedef {{listed: Listed | null, below: Below, data?: "maybe" | "data" | "", name?: string, unseen?: boolean}} Entry
   *   data: a table the walker may read as data ("maybe" until a row asks: then "data", its rows are read as rows,
   *   or "" for a layout table); name, unseen: made when asked
   * @typedef {Map<Element, Entry>} Memo
   * @typedef {{el: Element, role: string, name: string}} Control
   */

  /** @type {Below} */
  const OPEN = { cursor: undefined, inClick: false, items: null, blocked: false };
  /** @type {Entry} */
  const NOTHING = Object.freeze({ listed: null, below: { ...OPEN, blocked: true }, unseen: true });


  /**
   * The parent in the flat tree the walker follows: a slotted node's slot, a shadow root's host.
   * @param {Node} node
   * @returns {Element | null}
   */
  const parentOf = (node) => {
    const slot = lib.slotOf(node);
    if (slot) return slot;
    const p = node.parentNode;
    if (!p) return null;
    if (p.nodeType === 11) return /** @type {ShadowRoot} */ (p).host ?? null;
    return p.nodeType === 1 ? /** @type {Element} */ (p) : null;
  };

  /**
   * The walk's state at an element's parent: a document's body starts the walk (a same-process frame's
   * document goes on from its <iframe>).
   * @param {Element} el
   * @param {Memo} memo
   * @returns {Below}
   */
  const above = (el, memo) => {
    const p = parentOf(el);
    const doc = el.ownerDocument;
    if (!p || el === doc.body || el === doc.documentElement) return NOTHING.below;
    if (p === doc.body || (p === doc.documentElement && !doc.body)) {
      const frame = doc === document ? null : doc.defaultView?.frameElement;
      return frame ? entry(frame, memo).below : OPEN;
    }
    if (p === doc.documentElement) return NOTHING.below;
    return entry(p, memo).below;
  };

  /**
   * The table a <tr> is a row of when the walker reads that table as data (page-walker.js's table()).
   * @param {Element} el
   * @param {Memo} memo
   * @returns {HTMLTableElement | null}
   */
  const dataTableOf = (el, memo) => {
    if (el.tagName !== "TR") return null;
    const p = el.parentElement;
    const table = p?.tagName === "TABLE" ? p : /^T(BODY|HEAD|FOOT)$/.test(p?.tagName ?? "") ? p?.parentElement : null;
    if (table?.tagName !== "TABLE") return null;
    const e = entry(table, memo);
    if (e.data === "maybe") e.data = !lib.isLayoutTable(/** @type {HTMLTableElement} */ (table)) ? "data" : ""; // asked once
    return e.data === "data" ? /** @type {HTMLTableElement} */ (table) : null;
  };

  /**
   * A data table's row: listed when script makes it clickable (the walker's rowControl); its cells are then
   * walked as the inside of a listed control.
   * @param {Element} row
   * @param {HTMLTableElement} table
   * @param {Memo} memo
   * @returns {Entry}
   */
  const rowEntry = (row, table, memo) => {
    const up = entry(table, memo).below;
    const win = row.ownerDocument.defaultView;
    const cs = win ? lib.styleOf(row, win) : null;
    if (up.blocked || !cs || cs.display === "none") return NOTHING;
    /** @type {Below} */
    const below = { cursor: cs.cursor, inClick: up.inClick, items: null, blocked: false };
    if (cs.visibility !== "visible") return { listed: null, below };
    const delegating = lib.isListened(table) || [...(table.tBodies ?? [])].some(lib.isListened);
    const script = lib.scriptControl(row, lib.roleOf(row), cs, { ...up, items: delegating ? new Set([row]) : null });
    if (!script || script.items || unseenAbove(row, memo)) return { listed: null, below };
    below.inClick = true;
    return { listed: { role: script.role, script: true }, below };
  };

  /**
   * What the walker makes of an element, from its parent's state.
   * @param {Element} el
   * @param {Memo} memo
   * @returns {Entry}
   */
  const decide = (el, memo) => {
    if (el.namespaceURI === SVG_NS) return drawnEntry(el, memo); // the drawing itself too (page-svg.js)
    const table = dataTableOf(el, memo);
    if (table) return rowEntry(el, table, memo);
    const up = above(el, memo);
    const tag = el.tagName;
    const win = el.ownerDocument.defaultView;
    if (up.blocked || !win || (lib.SKIP_TAGS.has(tag) && !lib.mayShow(el))) return NOTHING;
    const cs = lib.styleOf(el, win);
    if (cs.display === "none") return NOTHING;
    if (el.getAttribute("aria-hidden") === "true" && lib.formulaBeside(el, win) !== null) return NOTHING; // page-math.js
    if (tag === "IMG" || (el.localName === "math" && el.namespaceURI === MATHML_NS)) return NOTHING; // read as text
    const role = lib.roleOf(el);
    /** @type {Below} */
    const below = { cursor: cs.cursor, inClick: up.inClick, items: null, blocked: lib.skipsContent(el, cs) };
    const data = tag === "TABLE" && !["presentation", "none"].includes(role) ? "maybe" : "";
    if (cs.visibility !== "visible") return { listed: null, below, data };
    if (lib.isInteractiveRole(role)) { // listed even when nothing of it shows (page-visibility.js)
      if (!lib.DESCEND_ROLES.has(role)) below.blocked = true;
      return { listed: { role, script: false }, below, unseen: false };
    }
    if (el.namespaceURI !== HTML_NS) return { listed: null, below, data };
    const script = lib.scriptControl(el, role, cs, up);
    if (script?.items) below.items = script.items;
    if (!script || script.items) return { listed: null, below, data };
    if (lib.hiddenBy(el, cs, { win }) || unseenAbove(el, memo)) return NOTHING;
    if (script.token) below.blocked = true;
    else below.inClick = true;
    return { listed: { role: script.role, script: true }, below, unseen: false };
  };

  /** @type {WeakMap<Memo, Map<Element, Map<Element, string>>>} per pass: each drawing's controls and roles */
  const drawings = new WeakMap();

  /**
   * An element inside an SVG drawing: listed as the walker lists it (page-svg.js) when the drawing is walked
   * to, else nothing.
   * @param {Element} el
   * @param {Memo} memo
   * @returns {Entry}
   */
  const drawnEntry = (el, memo) => {
    const svg = el.closest("svg");
    if (!svg || above(svg, memo).blocked) return NOTHING;
    let pass = drawings.get(memo);
    if (!pass) drawings.set(memo, (pass = new Map()));
    let controls = pass.get(svg);
    if (!controls) pass.set(svg, (controls = new Map(lib.svgControls(svg).map((/** @type {any} */ c) => [c.el, c.role]))));
    const role = controls.get(el);
    const win = el.ownerDocument.defaultView;
    const cs = win ? lib.styleOf(el, win) : null;
    if (!role || !cs || cs.display === "none" || cs.visibility !== "visible") return NOTHING;
    return { listed: { role, script: true }, below: NOTHING.below, unseen: false };
  };

  /**
   * Whether an ancestor shows nothing (the walker leaves out all that is in it): asked of a script control's
   * ancestors only, once each.
   * @param {Element} el
   * @param {Memo} memo
   */
  const unseenAbove = (el, memo) => {
    for (let a = parentOf(el); a && a !== a.ownerDocument.body; a = parentOf(a)) {
      const e = entry(a, memo);
      if (e.unseen === undefined) {
        const win = /** @type {Window} */ (a.ownerDocument.defaultView);
        e.unseen = !!lib.hiddenBy(a, lib.styleOf(a, win), { win });
      }
      if (e.unseen) return true;
    }
    return false;
  };

  /**
   * @param {Element} el
   * @param {Memo} memo
   * @returns {Entry}
   */
  const entry = (el, memo) => {
    let e = memo.get(el);
    if (!e) {
      e = decide(el, memo);
      memo.set(el, e);
    }
    return e;
  };

  /**
   * A listed element's name as extract shows it (page-walker.js's addElement: a script control is named like
   * a button, by its content).
   * @param {Element} el
   * @param {Entry} e
   */
  const nameOf = (el, e) => {
    const listed = /** @type {Listed} */ (e.listed);
    if (e.name === undefined) {
      e.name = listed.script ? lib.shownName(el, lib.nameOf(el, "button"), {})[0] : lib.nameOf(el, listed.role);
    }
    return /** @type {string} */ (e.name);
  };

  /**
   * @param {Element} el
   * @param {Memo} memo
   * @returns {Control & {script: boolean} | null}
   */
  const control = (el, memo) => {
    const e = entry(el, memo);
    return e.listed ? { el, role: e.listed.role, name: nameOf(el, e), script: e.listed.script } : null;
  };

  /**
   * How extract lists an element: its role and whether it is a script control, or null (no name made).
   * @param {Element} el
   * @param {Memo} memo one per pass (a search, a count): the page must not change during it
   * @returns {Listed | null}
   */
  lib.listedAs = (el, memo) => entry(el, memo).listed;

  /** The same with the name extract gives it ({el, role, name, script}). */
  lib.controlOf = control;

  /** The parent in the flat tree the walker follows. */
  lib.flatParent = parentOf;

  /**
   * The control extract lists at or around a node: the nearest listed ancestor, {el, role, name, script} (script:
   * a script control), or null.
   * @param {Node} node
   * @param {Memo} memo
   */
  lib.controlAround = (node, memo) => {
    for (let el = node.nodeType === 1 ? /** @type {Element} */ (node) : parentOf(node); el; el = parentOf(el)) {
      if (entry(el, memo).listed) return control(el, memo);
    }
    return null;
  };

  /**
   * The row and list item an element stands in, for its context as extract gives it: the nearest table or ARIA
   * row (itself included) or listed script row around it; the nearest <li> or listed script item.
   * @param {Element} el
   * @param {Memo} memo
   * @returns {{row: Element | null, li: Element | null}}
   */
  lib.rowAndItem = (el, memo) => {
    /** @type {Element | null} */
    let row = null;
    /** @type {Element | null} */
    let li = null;
    for (let a = /** @type {Element | null} */ (el); a && !(row && li); a = parentOf(a)) {
      const listed = a === el ? null : entry(a, memo).listed;
      const as = listed?.script ? listed.role : "";
      if (!row && (a.tagName === "TR" || a.getAttribute("role") === "row" || as === "row")) row = a;
      if (!li && (a.tagName === "LI" || as === "item")) li = a;
    }
    return { row, li };
  };
}
