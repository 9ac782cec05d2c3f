/**
 * In-page walker: one pass over the flat tree of a document (open and known
 * closed shadow roots, slots, same-process iframes) that yields
 *
 * - `blocks`: the page's structure for markdown.js (paragraphs, headings,
 *   lists, tables, quotes, dialogs, OOPIF placeholders), with interactive
 *   elements inline as runs `{e, x}` (index into els, visible content text);
 *   elements inside stripped regions (navigation, footer, cookie banner,
 *   overlay) appear only as position markers `{e, s: 1}`;
 * - `els`: every visible, non-inert interactive element as
 *   [id, role, name, states, context, region?, regionNo?] in the order of
 *   the blocks (region: the label of the left-out region it stands in;
 *   regionNo: which one, counted through the walk);
 * - `omitted`: what was only counted once the estimated output passed the
 *   budget (elements, table rows, characters), so the note can be honest.
 *
 * An open modal dialog is walked first; the page behind it is then inert (its
 * text is kept, its elements are not listed). Result is returned as a JSON
 * string (cheaper to transfer than a protocol object tree).
 *
 * Block = {p: Run[]} | {h: level, c: Run[]} | {l: 0|1, i: Block[][]} |
 *   {t: [rowIndex, ...cells: Run[]][], hd: 0|1, sel?: string} | {pre: string} |
 *   {q: Block[]} | {d: name, m: 0|1, c: Block[]} | {f: frameKey} | {note: string} |
 *   {ft: text, more: number, sel: string} (a page footer's text, page-reading.js)
 * Run = string | {e: number, x?: string, s?: 1}
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageBlocks } from "./page-blocks.js";
import { pageClickable } from "./page-clickable.js";
import { pageContext } from "./page-context.js";
import { pageControls } from "./page-controls.js";
import { pageCover } from "./page-cover.js";
import { pageFind } from "./page-find.js";
import { pageIconName } from "./page-icon-name.js";
import { pageIndex } from "./page-index.js";
import { pageMath } from "./page-math.js";
import { pageReading } from "./page-reading.js";
import { pageRegistry } from "./page-registry.js";
import { pagePixels } from "./page-pixels.js";
import { pageRender } from "./page-render.js";
import { pageRoot } from "./page-root.js";
import { pageSeen } from "./page-seen.js";
import { pageSvg } from "./page-svg.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageWalker, { uses: [pageAria, pageBlocks, pageClickable, pageContext, pageControls, pageCover, pageFind, pageIconName, pageIndex, pageMath, pagePixels, pageReading, pageRegistry, pageRender, pageRoot, pageSeen, pageSvg, pageVisibility] });

/**
 * Adds walk to lib (needs pageAria, pageBlocks, pageContext, pageControls, pageFind, pageIndex, pageRegistry, pageShadow).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageWalker(lib) {
  const SKIP = lib.SKIP_TAGS; // page-controls.js decides by the same rules without a walk
  const DESCEND = lib.DESCEND_ROLES;
  const CONTENT_TOKEN = new Set(["button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option",
    "treeitem"]);
  const TOGGLES = new Set(["checkbox", "radio", "switch"]);
  const TABLE_SEL_MIN_ROWS = 20;
  /** Longest text of an inline token `[text](e4)`: a prose link keeps its words (its name is cut at 80). */
  const INLINE_TEXT = 300;
  const HTML_NS = "http://www.w3.org/1999/xhtml";
  /** Skipped elements that still paint over what is under them (page-cover.js). */
  const PICTURES = new Set(["IMG", "VIDEO", "CANVAS", "svg"]);
  const MATHML_NS = "http://www.w3.org/1998/Math/MathML";

  /**
   * @param {{limit: number, selector?: string, frameKeys?: string[]}} opts
   * @param {...Element} frameEls iframe elements of child sessions, keyed by opts.frameKeys
   * @returns {string} JSON
   */
  lib.walk = (opts, ...frameEls) => lib.indexingLabels(() => {
    const walked = (/** @type {any} */ cover) => {
      lib.walkCover = cover; // readers the walk asks (names, contexts) judge covering by the same boxes
      lib.seenForget(); // page-seen.js: the states a walk notes hold its cover
      try {
        return walk(opts, cover, ...frameEls);
      } finally {
        lib.walkCover = null;
      }
    };
    const cover = lib.coverBegin(null);
    const out = walked(cover);
    const late = lib.coveredLater(cover); // page-cover.js: a box met after the text it paints over
    return late.size ? walked(lib.coverBegin(late)) : out;
  });

  /**
   * @param {{limit: number, selector?: string, frameKeys?: string[]}} opts
   * @param {any} cover what paints over text (page-cover.js)
   * @param {...Element} frameEls
   * @returns {string} JSON
   */
  const walk = (opts, cover, ...frameEls) => {
    const frames = new Map(frameEls.map((el, i) => [el, opts.frameKeys?.[i] ?? String(i)]));
    const W = {
      /** @type {any[]} */ els: [], size: 0, stopAt: opts.limit * 1.15 + 500, counting: false,
      textChars: 0, hidden: 0, head: "", regions: 0, modal: /** @type {Element | null} */ (null), cut: /** @type {Node | null} */ (null),
    };
    const { sink, flush, flatRuns, plain } = lib.blocks;
    /** @param {{runs: any[]}} s @param {string} t */
    const addText = (s, t) => {
      if (lib.blocks.addText(s, t)) {
        W.size += t.length;
        W.textChars += t.length;
      }
    };

    /**
     * Stop detailed work: everything from this node on (in document order)
     * is only counted, natively, once the walk is over (see omittedFrom).
     * @param {Node} node
     */
    const stop = (node) => {
      W.counting = true;
      W.cut = node;
    };

    /**
     * @param {Element} el
     * @param {string} role
     * @param {any} st
     * @param {string} x the text its inline token shows ("" for none)
     * @param {{hint: string} | null} [script] a script control (named by its content, with a class hint)
     */
    const addElement = (el, role, st, x, script = null) => {
      const [name, via] = lib.shownName(el, seenName(el, script ? "button" : role, st), st);
      const own = lib.statesOf(el, role, name).filter((/** @type {string} */ x) => !st.hideText || !x.startsWith("value="));
      // A class hint says nothing more once the icon named the control (page-icon-name.js).
      const hint = script?.hint && !(name && lib.iconNamed.has(el)) ? [script.hint] : [];
      const states = [...own, ...hint, ...via].join(" ");
      const group = st.strip ? st.group : null;
      W.els.push({ el, role, name, states, row: st.row, li: st.li, head: W.head, region: st.region, group });
      // What the index will really spend on it (page-index.js), and its inline token where the markdown shows it.
      W.size += lib.indexCost(role, name, states, x, !!st.strip) + (st.strip ? 0 : x.length + 6);
      return W.els.length - 1;
    };

    /**
     * An element's accessible name, with a name taken from its content cut to the content that shows
     * (page-visibility.js seenText: a hidden span inside a link names nothing).
     * @param {Element} el
     * @param {string} role
     * @param {any} st the element's walk state
     */
    const seenName = (el, role, st) => {
      const name = lib.nameOf(el, role);
      if (!name || !el.firstElementChild) return name;
      const content = lib.clean(lib.contentText(el, 0));
      if (!content.startsWith(name.replace(/…$/, ""))) return name;
      return lib.cap(lib.clean(lib.seenText(el, st)), name.endsWith("…") ? name.length : Math.max(name.length, 80));
    };

    /**
     * The visible text an element shows inline (`[text](e4)`), "" for none.
     * @param {Element} el
     * @param {string} role
     * @param {any} st the element's walk state
     */
    const tokenText = (el, role, st) => {
      if (DESCEND.has(role)) return "";
      if (el.tagName === "INPUT") return role === "button" ? lib.nameOf(el, role) : "";
      if (!CONTENT_TOKEN.has(role) && !(TOGGLES.has(role) && el.hasAttribute("role"))) return "";
      // Its painted words, and a sentence of its icons' alt or aria-label only where it paints no word (a picture
      // link named by its alt); the index carries such a name, capped and marked (page-visibility.js shownName).
      const painted = lib.clean(lib.seenText(el, st, true));
      return lib.cap(painted || lib.clean(lib.seenText(el, st)), INLINE_TEXT);
    };

    /**
     * An inline token of an element laid out as text (display: inline, a link in a sentence) is marked `g`, the
     * sides its own text has no white space at (1: its start, 2: its end): there the markdown puts no space
     * between it and text the DOM glues to it (`[MacBook](e7)s`, markdown.js).
     * @param {{e: number, x: string, g?: number}} run
     * @param {CSSStyleDeclaration} cs
     * @param {Element} el
     */
    const glued = (run, cs, el) => {
      if (cs.display !== "inline") return run;
      const text = el.textContent ?? "";
      const g = (/^\s/.test(text) ? 0 : 1) | (/\s$/.test(text) ? 0 : 2);
      if (g) run.g = g;
      return run;
    };

    /**
     * What the token of a control named from its icon shows: nothing (`[e4]`) when its text is the icon font's
     * ligature (`format_bold`, drawn as a glyph; page-icon-name.js), which the index names as words.
     * @param {Element} el @param {string} x
     */
    const iconText = (el, x) => (x && lib.iconNamed.has(el) && lib.ligatureWords(x) ? "" : x);

    /** @param {Node} parent @param {any} s @param {any} st */
    const walkKids = (parent, s, st) => {
      for (const kid of lib.kids(parent)) walkNode(kid, s, st);
    };

    /** @param {Node} node @param {any} s @param {any} st */
    const walkNode = (node, s, st) => {
      if (W.counting) return;
      if (node.nodeType === 3) {
        if (st.invisible || st.hideText || lib.textSeen(node, st)) return void (W.hidden += lib.hiddenLength(node));
        const data = lib.shownData(node, st.rc, st.win); // page-render.js: a clipped line's tail blanked
        const t = st.pre ? data : data.replace(/\s+/g, " ");
        if (!t) return;
        if (st.strip) W.textChars += t.length;
        else addText(s, t);
        return;
      }
      if (node.nodeType === 1) walkElement(/** @type {Element} */ (node), s, st);
    };

    /** @param {Element} el @param {any} s @param {any} st */
    const walkElement = (el, s, st) => {
      if ((SKIP.has(el.tagName) && !lib.mayShow(el)) || el === W.modal) {
        if (PICTURES.has(el.tagName)) lib.notePainter(st.cover, el, lib.styleOf(el, st.win), { rc: st.rc }, st);
        if (el.tagName === "svg" && el !== W.modal) svgControls(el, s, st);
        return;
      }
      if (W.size > W.stopAt) return stop(el);
      const cs = lib.styleOf(el, st.win);
      if (cs.display === "none") return;
      const formula = el.getAttribute("aria-hidden") === "true" ? lib.formulaBeside(el, st.win) : null; // page-math.js
      if (formula === "") return;
      const unseen = lib.hiddenBy(el, cs, st); // page-visibility.js: a control stays listed, its text does not
      if (unseen && !lib.isInteractiveRole(lib.roleOf(el))) return void (W.hidden += lib.hiddenLength(el));
      if (el.tagName === "IMG") lib.notePainter(st.cover, el, cs, { rc: st.rc }, st);
      if (formula || (el.localName === "math" && el.namespaceURI === MATHML_NS) || el.tagName === "IMG") {
        return replaced(el, cs, s, st, formula ?? (el.tagName === "IMG" ? lib.imageText(el) : lib.mathText(el)));
      }
      const role = lib.roleOf(el);
      const ns = { ...st, invisible: cs.visibility !== "visible", cursor: cs.cursor, items: null };
      lib.textVisibility(el, cs, ns, st, unseen, role);
      lib.notePainter(st.cover, el, cs, ns, st);
      lib.seenNote(el, ns, st, cs); // page-seen.js: the readers it asks judge it no second time
      if (el.hasAttribute("inert")) ns.inert = true;
      if (role === "row") ns.row = el;
      if (!st.strip && !st.scoped) {
        const reason = lib.stripReason(el, role, cs);
        if (reason) {
          ns.strip = ns.region = reason;
          ns.group = [lib.regionLabel(el, role, reason), ++W.regions];
        }
      }
      const block = !cs.display.startsWith("inline") && cs.display !== "contents";
      if (lib.isInteractiveRole(role) && !ns.invisible) {
        if (block) flush(s);
        const x = ns.hideText ? "" : tokenText(el, role, ns);
        if (ns.inert) {
          if (!ns.strip && x) addText(s, x);
        } else {
          const e = addElement(el, role, ns, x);
          s.runs.push(ns.strip ? { e, s: 1 } : glued({ e, x: iconText(el, x) }, cs, el));
        }
        if (block) flush(s);
        if (!DESCEND.has(role)) return;
      } else if (!ns.invisible && el.namespaceURI === HTML_NS) {
        const script = lib.scriptControl(el, role, cs, st);
        if (script?.items) ns.items = script.items;
        else if (script) return scriptControl(el, script, block, s, ns);
      }
      if (lib.skipsContent(el, cs)) return;
      structure(el, role, block, s, ns);
      if (ns.region === "footer" && !st.strip) footer(el, s, ns);
    };

    /**
     * The state inside an element the walk passes without walking it as content (a table's row group, a row, the
     * modal dialog), judged as walkElement judges any element; null when nothing in it can be seen.
     * @param {Element} el @param {CSSStyleDeclaration} cs @param {any} st the parent's walk state
     */
    const container = (el, cs, st) => {
      if (cs.display === "none" || lib.hiddenBy(el, cs, st)) return null;
      const ns = { ...st, invisible: cs.visibility !== "visible", cursor: cs.cursor, items: null };
      lib.textVisibility(el, cs, ns, st, "", lib.roleOf(el));
      lib.notePainter(st.cover, el, cs, ns, st);
      lib.seenNote(el, ns, st, cs);
      return ns;
    };

    /**
     * A page footer's text as one compact block where it stands (page-reading.js footerBlock); its links are
     * on the index's footer line.
     * @param {Element} el @param {any} s @param {any} st
     */
    const footer = (el, s, st) => {
      if (st.invisible || st.hideText || st.inert) return;
      const b = lib.footerBlock(el, st);
      if (!b) return;
      flush(s);
      s.blocks.push(b);
      W.size += b.ft.length + 40;
    };

    /**
     * What a formula (page-math.js) or an image (page-reading.js) shows, as text: inline, or (display block)
     * a paragraph of its own (a formula as `$$…$$`).
     * @param {Element} el
     * @param {CSSStyleDeclaration} cs
     * @param {any} s
     * @param {any} st
     * @param {string} text
     */
    const replaced = (el, cs, s, st, text) => {
      if (st.invisible || st.hideText || cs.visibility !== "visible" || !text) return;
      const block = el.getAttribute("display") === "block" || cs.display === "block"
        || /display/.test(el.getAttribute("class") ?? "");
      if (block) flush(s);
      if (st.strip) W.textChars += text.length;
      else addText(s, block ? text.replace(/^\$(.*)\$$/s, "$$$$$1$$$$") : text);
      if (block) flush(s);
    };

    /**
     * The controls drawn in an SVG (page-svg.js: a chart's slices, a diagram's nodes), listed as script controls
     * are; the markdown token shows the text the drawing shows of them.
     * @param {Element} svg
     * @param {any} s
     * @param {any} st
     */
    const svgControls = (svg, s, st) => {
      if (st.invisible || st.inert) return;
      for (const { el, role } of lib.svgControls(svg)) {
        const cs = lib.styleOf(el, st.win);
        if (cs.display === "none" || cs.visibility !== "visible") continue;
        const shown = st.hideText ? "" : lib.clean(el.textContent || "");
        const x = shown && lib.svgLabel(el) === shown ? lib.cap(shown, INLINE_TEXT) : "";
        const e = addElement(el, role, st, x, { hint: "" });
        s.runs.push(st.strip ? { e, s: 1 } : { e, x });
      }
    };

    /**
     * An element listed because script listens on it (page-clickable.js): a
     * whole token `[text](e5)` when nothing inside needs listing, else a bare
     * marker `[e5]` before its content, walked with only strong signals
     * counting inside it.
     * @param {Element} el
     * @param {{role: string, token: boolean, hint: string}} script
     * @param {boolean} block
     * @param {any} s
     * @param {any} st
     */
    const scriptControl = (el, script, block, s, st) => {
      if (block) flush(s);
      const x = script.token && !st.hideText ? lib.cap(lib.clean(lib.seenText(el, st)), INLINE_TEXT) : "";
      if (st.inert) {
        if (!st.strip && x) addText(s, x);
      } else {
        const e = addElement(el, script.role, st, x, script);
        s.runs.push(st.strip ? { e, s: 1 } : glued({ e, x: iconText(el, x) }, st.win.getComputedStyle(el), el));
      }
      if (!script.token) {
        const inside = { ...st, inClick: true };
        if (script.role === "row") inside.row = el;
        else if (script.role === "item") inside.li = el;
        walkKids(el, s, inside);
      }
      if (block) flush(s);
    };

    /**
     * @param {Element} el
     * @param {string} role
     * @param {boolean} block
     * @param {any} s
     * @param {any} st
     */
    const structure = (el, role, block, s, st) => {
      const tag = el.tagName;
      if (tag === "IFRAME" || tag === "FRAME") return frame(el, s, st);
      if (tag === "BR") return void addText(s, "\n");
      if (tag === "DETAILS" && !(/** @type {any} */ (el).open)) {
        flush(s);
        const summary = [...el.children].find((c) => c.tagName === "SUMMARY");
        if (summary) walkElement(summary, s, st);
        return flush(s);
      }
      if (st.strip || !block) return walkKids(el, s, st);
      flush(s);
      if (role === "heading") {
        const hs = sink();
        walkKids(el, hs, st);
        flush(hs);
        const runs = flatRuns(hs.blocks); // a heading holding blocks (a div, a list) is still one heading line
        const level = Number(el.getAttribute("aria-level")) || Number(tag.slice(1)) || 2;
        if (plain(runs)) s.blocks.push({ h: Math.min(6, level), c: runs });
        W.head = plain(runs);
      } else if (tag === "UL" || tag === "OL" || role === "list") {
        list(el, tag === "OL" ? 1 : 0, s, st);
      } else if (tag === "TABLE" && !["presentation", "none"].includes(role) && !lib.isLayoutTable(el)) {
        table(/** @type {HTMLTableElement} */ (el), s, st);
      } else if (tag === "PRE") {
        const ps = sink(); // walked like any text (page-visibility.js judges each node), white space kept
        walkKids(el, ps, { ...st, pre: true });
        flush(ps);
        const text = flatRuns(ps.blocks).map((/** @type {any} */ r) => (typeof r === "string" ? r : r.x ?? "")).join("").replace(/\s+$/, "");
        if (text.trim()) s.blocks.push({ pre: text });
      } else if (tag === "BLOCKQUOTE") {
        const qs = sink();
        walkKids(el, qs, st);
        flush(qs);
        if (qs.blocks.length) s.blocks.push({ q: qs.blocks });
      } else if (role === "dialog" || role === "alertdialog") {
        const ds = sink();
        walkKids(el, ds, { ...st, region: `dialog ${lib.nameOf(el, role)}`.trim() });
        flush(ds);
        s.blocks.push({ d: lib.nameOf(el, role), m: 0, c: ds.blocks });
      } else {
        walkKids(el, s, st);
      }
      flush(s);
    };

    /** @param {Element} el @param {0|1} ordered @param {any} s @param {any} st */
    const list = (el, ordered, s, st) => {
      /** @type {any[][]} */
      const items = [];
      /** text and inline elements standing directly in the list, without an item: kept as one item */
      let stray = sink();
      const endStray = () => {
        flush(stray);
        if (stray.blocks.length) items.push(stray.blocks);
        stray = sink();
      };
      for (const kid of lib.kids(el)) {
        if (kid.nodeType !== 1) {
          walkNode(kid, stray, st);
          continue;
        }
        const display = lib.styleOf(kid, st.win).display;
        if (kid.tagName !== "LI" && (display.startsWith("inline") || display === "contents")) {
          walkNode(kid, stray, st);
          continue;
        }
        endStray();
        const is = sink();
        walkNode(kid, is, { ...st, li: kid });
        flush(is);
        if (is.blocks.length) items.push(is.blocks);
      }
      endStray();
      if (items.length) s.blocks.push({ l: ordered, i: items });
    };

    /** @type {WeakMap<Element, number>} 1-based position of table rows among their siblings */
    const rowIndexes = new WeakMap();
    /** @param {Element} row */
    const rowIndex = (row) => {
      if (!rowIndexes.has(row) && row.parentElement) {
        let n = 0;
        for (const sibling of row.parentElement.children) rowIndexes.set(sibling, ++n);
      }
      return rowIndexes.get(row) ?? 1;
    };

    /**
     * The state a table's rows are judged in: the table's own, or their row group's (thead, tbody, tfoot: its
     * opacity, clipping and colours count as any element's); a scoped extract's rows (`fake`) start from their row
     * group as the document renders it (page-seen.js). null when nothing in the group can be seen.
     * @param {Element | null} group the row's parent
     * @param {any} el the table (or the rows a selector chose)
     * @param {any} st the table's state
     * @param {Map<Element, any>} known states of the groups met
     */
    const rowsState = (group, el, st, known) => {
      if (!group || group === el) return st;
      if (!known.has(group)) {
        if (!el.tagName) {
          const above = lib.stateAbove(group, st);
          known.set(group, above.gone ? null : { ...above, seenOf: group });
        } else {
          known.set(group, container(group, lib.styleOf(group, st.win), st));
        }
      }
      return known.get(group);
    };

    /** @param {HTMLTableElement} el @param {any} s @param {any} st */
    const table = (el, s, st) => {
      /** @type {any[]} */
      const rows = [];
      let hd = 0;
      /** @type {Map<Element, any>} */
      const groups = new Map();
      const all = [...el.rows];
      const delegating = lib.isListened(el) || [...(el.tBodies ?? [])].some(lib.isListened);
      if (el.caption) walkNode(el.caption, s, st); // the table's title: a paragraph before its rows
      for (let r = 0; r < all.length; r++) {
        const row = all[r];
        if (W.size > W.stopAt) {
          stop(row);
          break;
        }
        const rowStyle = lib.styleOf(row, st.win);
        if (rowStyle.display === "none") continue;
        const gs = rowsState(row.parentElement, el, st, groups);
        const rs = gs && container(row, rowStyle, gs);
        if (!rs) {
          W.hidden += lib.hiddenLength(row);
          continue;
        }
        rs.row = row;
        const lead = rowControl(row, rowStyle, delegating, st.cursor, rs);
        const cells = [...row.cells].map((cell, c) => {
          const cs = sink();
          if (c === 0 && lead) cs.runs.push(lead);
          walkNode(cell, cs, rs);
          flush(cs);
          return flatRuns(cs.blocks);
        });
        if (r === 0 && (row.parentElement?.tagName === "THEAD" || [...row.cells].every((c) => c.tagName === "TH"))) hd = 1;
        rows.push([rowIndex(row), ...cells]);
      }
      if (!rows.length) return;
      /** @type {any} */
      const t = { t: rows, hd };
      if (all.length >= TABLE_SEL_MIN_ROWS) t.sel = lib.cssPath(all[all.length - 1].parentElement);
      s.blocks.push(t);
    };

    /**
     * A table row that script makes clickable: listed, its marker leads the
     * first cell, and its cells are walked as the inside of a listed control.
     * @param {Element} row
     * @param {CSSStyleDeclaration} cs
     * @param {boolean} delegating the table or its body listens: rows are its items
     * @param {string} cursor the table's cursor
     * @param {any} rs the rows' walk state (updated)
     * @returns {any} the marker run, or null
     */
    const rowControl = (row, cs, delegating, cursor, rs) => {
      if (rs.inert || cs.visibility !== "visible") return null;
      const script = lib.scriptControl(row, lib.roleOf(row), cs, { ...rs, cursor, items: delegating ? new Set([row]) : null });
      if (!script || script.items) return null;
      rs.inClick = true;
      const e = addElement(row, script.role, rs, "", script);
      return rs.strip ? { e, s: 1 } : { e, x: "" };
    };

    /** @param {Element} el @param {any} s @param {any} st */
    const frame = (el, s, st) => {
      flush(s);
      if (st.invisible || st.hideText || !lib.frameSeen(el, st)) return; // page-reading.js: a frame nobody sees is neither read nor noted
      const key = frames.get(el);
      if (key !== undefined) return void s.blocks.push({ f: key });
      /** @type {Document | null} */
      let doc = null;
      try {
        doc = /** @type {any} */ (el).contentDocument;
      } catch {
        doc = null;
      }
      if (doc?.body && doc.defaultView) {
        const rc = lib.rootContext(doc, frameContext(st.rc)); // page-root.js: the frame's root and body paint it all
        if (rc.hidden) W.hidden += lib.hiddenLength(doc.body);
        else walkKids(doc.body, s, { ...st, win: doc.defaultView, bg: undefined, rc, seenOf: doc.body });
        flush(s);
      } else if (!st.strip) {
        s.blocks.push({ note: lib.frameNote(el) });
      }
    };

    /**
     * A same-process frame's document is laid out in its own viewport: only the opacity carries into it.
     * @param {any} rc the frame element's render context (page-render.js)
     */
    const frameContext = (rc) => (rc ? { alpha: rc.alpha, blur: rc.blur, at: { clip: { l: -Infinity, t: -Infinity, r: Infinity,
      b: Infinity }, freeX: false, freeY: false, fixed: false }, abs: null, hidden: "" } : undefined);

    const top = sink();
    /** seenOf: the element whose state (page-seen.js) the walk's state stands for */
    const base = { win: window, scoped: !!opts.selector, cover, seenOf: document.body };
    if (opts.selector) {
      if (!scoped(opts.selector, top, base)) return JSON.stringify({ notFound: true });
    } else {
      W.modal = lib.findModal();
      if (W.modal) {
        const ms = sink();
        const name = lib.nameOf(W.modal, lib.roleOf(W.modal));
        // In the top layer: its ancestors' opacity and clipping do not reach it, its own do.
        const inside = container(W.modal, lib.styleOf(W.modal, window), base);
        if (inside) walkKids(W.modal, ms, { ...inside, region: `dialog ${name}`.trim() });
        else W.hidden += lib.hiddenLength(W.modal);
        flush(ms);
        top.blocks.push({ d: name, m: 1, c: ms.blocks });
      }
      const rc = lib.rootContext(document, undefined); // page-root.js: the root and body paint it all
      if (rc.hidden) W.hidden += lib.hiddenLength(document.body ?? document.documentElement);
      else walkKids(document.body ?? document.documentElement, top, { ...base, rc, inert: !!W.modal });
    }
    flush(top);

    /**
     * @param {string} selector
     * @param {any} s
     * @param {any} st
     */
    function scoped(selector, s, st) {
      /** @type {Element[]} */
      let nodes = [...document.querySelectorAll(selector)];
      if (!nodes.length) {
        const one = lib.query(selector);
        if (one instanceof Element) nodes = [one];
      }
      if (!nodes.length) return false;
      const tableOf = nodes[0].closest("table");
      if (nodes.every((n) => n.tagName === "TR" && n.closest("table") === tableOf) && tableOf) {
        const head = tableOf.tHead?.rows[0];
        const fake = /** @type {any} */ ({ rows: head && !nodes.includes(head) ? [head, ...nodes] : nodes });
        table(fake, s, st);
        const t = s.blocks[s.blocks.length - 1];
        if (t?.t) t.sel = lib.cssPath(nodes[nodes.length - 1].parentElement);
      } else {
        for (const node of nodes) {
          // Judged in what its ancestors make of it (page-visibility.js): their opacity, clipping and colours.
          const above = node.parentElement ? lib.stateAbove(node.parentElement, st) : st;
          if (above.gone) W.hidden += lib.hiddenLength(node);
          else walkElement(node, s, { ...above, inert: !!node.closest("[inert]"), seenOf: node.parentElement });
        }
      }
      return true;
    }

    const contexts = lib.contextsFor(W.els);
    const els = W.els.map((e, i) => [lib.idOf(e.el), e.role, e.name, e.states, contexts[i], ...(e.group ?? [])]);
    const omitted = W.cut ? lib.omittedFrom(W.cut) : null;
    /** @type {Record<string, unknown>} */
    const out = { doc: lib.doc, url: location.href, title: document.title, blocks: top.blocks, els, omitted, modal: !!W.modal };
    if (!opts.selector && !top.blocks.length && !els.length) {
      const reason = lib.blankReason();
      out.blank = reason
        ? `The page shows nothing: ${reason}. It may still be loading or waiting for a script; wait and extract again.`
        : "The page has no text or controls that extract can read: it may show only images, a canvas or SVG "
          + "(a screenshot shows them).";
    }
    out.hidden = W.hidden;
    if (lib.listenReached(W.cut)) out.listenReached = true;
    if (!opts.selector && !W.counting && W.textChars < 2000) { // page-reading.js: only text a person sees
      const text = lib.fallbackText(base, opts.limit);
      if (text.length > 2 * W.textChars + 200) out.text = text;
    }
    const deferred = lib.pixelDeferred(); // page-pixels.js: texts over a picture out of view, judged once in view
    if (Object.keys(deferred).length) out.deferred = deferred;
    return JSON.stringify(out);
  };
}
