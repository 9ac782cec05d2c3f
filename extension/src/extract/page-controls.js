/**
 * In-page: whether extract lists an element as a control, and as what, asked of one element or of a whole
 * document without walking it: for `find` and for an element_stale error's candidates (page-find.js,
 * page-search.js), and for what a budget-cut extract counts as left out.
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

/** The role-like labels a script control gets (page-clickable.js): the extension asks listeners only for these. */
export const SCRIPT_ROLES = ["clickable", "row", "item", "cell", "gridcell", "img", "columnheader", "draggable"];

/**
 * Adds SKIP_TAGS, DESCEND_ROLES, SCRIPT_ROLES, controlAround, rowAndItem, scriptControlsIn, scriptCountAfter,
 * firstAfter and scriptNamed to lib (needs pageAria, pageClickable, pageMath, pageReading,
 * pageVisibility).
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
  const MATHML_NS = "http://www.w3.org/1998/Math/MathML";
  /** Elements whose attributes may make a control's name (besides its text). */
  const NAMING = "[aria-label],[aria-labelledby],[title],img[alt]";
  /** Markup that may make a script control, for counting without deciding every element (framework attributes
   * with modifiers, `@click.prevent`, cannot be selected: counted only when a listener or pointer shows them). */
  const MARKED = "[onclick],[tabindex],[draggable=true],[style*=cursor],[hx-get],[hx-post],[ng-click],[jsaction]," +
    "[data-toggle],[data-bs-toggle],[data-action],[phx-click]";

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

  /** @param {string} s */
  const norm = (s) => String(s).replace(/\s+/g, " ").trim().toLowerCase();

  /**
   * The parent in the flat tree the walker follows: a slotted node's slot, a shadow root's host.
   * @param {Node} node
   * @returns {Element | null}
   */
  const parentOf = (node) => {
    const slot = /** @type {any} */ (node).assignedSlot;
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
    const cs = row.ownerDocument.defaultView?.getComputedStyle(row);
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
    const table = dataTableOf(el, memo);
    if (table) return rowEntry(el, table, memo);
    const up = above(el, memo);
    const tag = el.tagName;
    const win = el.ownerDocument.defaultView;
    if (up.blocked || !win || (lib.SKIP_TAGS.has(tag) && !lib.mayShow(el))) return NOTHING;
    const cs = win.getComputedStyle(el);
    if (cs.display === "none") return NOTHING;
    if (el.getAttribute("aria-hidden") === "true" && lib.formulaBeside(el, win) !== null) return NOTHING; // page-math.js
    if (tag === "IMG" || (el.localName === "math" && el.namespaceURI === MATHML_NS)) return NOTHING; // read as text
    const role = lib.roleOf(el);
    /** @type {Below} */
    const below = { cursor: cs.cursor, inClick: up.inClick, items: null, blocked: cs.contentVisibility === "hidden" };
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
        e.unseen = !!lib.hiddenBy(a, win.getComputedStyle(a), { win });
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
   * The control extract lists at or around a node: the nearest listed ancestor, {el, role, name, script} (script:
   * a script control), or null.
   * @param {Node} node
   * @param {Memo} memo one per pass (a search, a count): the page must not change during it
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

  /**
   * Every script control of a document or shadow root, in document order.
   * @param {Document | ShadowRoot} root
   * @param {Memo} memo
   * @returns {Control[]}
   */
  lib.scriptControlsIn = (root, memo) => {
    /** @type {Control[]} */
    const out = [];
    for (const el of root.querySelectorAll("*")) {
      const e = entry(el, memo);
      if (e.listed?.script) out.push({ el, role: e.listed.role, name: nameOf(el, e) });
    }
    return out;
  };

  /**
   * How many script controls of a document follow `cut` (what a budget-cut walk left out), not counting those
   * `skip` matches (counted already). Only elements that may be one are decided: listened ones, those marked up
   * for it (MARKED), those a stylesheet of the page gives a pointer, and the children of listened and pointer
   * elements (a delegating container's items).
   * @param {Document} doc
   * @param {Node} cut
   * @param {string} skip a selector
   */
  lib.scriptCountAfter = (doc, cut, skip) => {
    /** @type {Set<Element>} */
    const maybe = new Set();
    /** @param {Iterable<Element>} els */
    const consider = (els) => {
      for (const el of els) {
        if (el.ownerDocument !== doc || maybe.has(el)) continue;
        if (el !== cut && !(cut.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
        maybe.add(el);
      }
    };
    const pointers = [...doc.querySelectorAll(MARKED), ...pointerStyled(doc)];
    const listened = [...lib.listenedElements()];
    consider(listened);
    consider(pointers);
    for (const container of [...listened, ...pointers]) if (container.childElementCount >= 2) consider(container.children);
    const memo = new Map();
    let n = 0;
    for (const el of maybe) if (entry(el, memo).listed?.script && !el.matches(skip)) n++;
    return n;
  };

  /**
   * Elements that the page's readable stylesheets give `cursor: pointer` (rules of sheets from other origins
   * cannot be read; such controls are still listed by a walk, which reads computed styles).
   * @param {Document} doc
   * @returns {Element[]}
   */
  const pointerStyled = (doc) => {
    /** @type {string[]} */
    const selectors = [];
    /** @param {CSSRuleList} rules */
    const scan = (rules) => {
      for (const rule of rules) {
        const r = /** @type {any} */ (rule);
        if (r.selectorText && r.style?.cursor === "pointer") selectors.push(r.selectorText);
        if (r.cssRules) scan(r.cssRules);
      }
    };
    for (const sheet of doc.styleSheets) {
      try {
        scan(sheet.cssRules);
      } catch {
        // another origin's sheet
      }
    }
    return selectors.flatMap((selector) => {
      try {
        return [...doc.querySelectorAll(selector)];
      } catch {
        return [];
      }
    });
  };

  /**
   * The index of the first element of a document-ordered list at or after `cut` (binary search).
   * @param {ArrayLike<Node>} list
   * @param {Node} cut
   */
  lib.firstAfter = (list, cut) => {
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid] === cut || cut.compareDocumentPosition(list[mid]) & Node.DOCUMENT_POSITION_FOLLOWING) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  /**
   * Script controls whose name contains `want`, found from what names are made of (text nodes holding its first
   * word, and naming attributes) climbing to the controls around them, without deciding every element.
   * @param {(Document | ShadowRoot)[]} roots
   * @param {string} want
   * @param {Memo} memo
   * @param {{text?: boolean}} [opts] text: false looks only at naming attributes
   * @returns {Control[]} in document order
   */
  lib.scriptNamed = (roots, want, memo, { text = true } = {}) => {
    const wanted = norm(want);
    const first = wanted.split(" ")[0];
    /** @type {Set<Element>} */
    const climbed = new Set();
    /** @type {Control[]} */
    const out = [];
    /** @param {Element | null} from */
    const climb = (from) => {
      for (let el = from; el && !climbed.has(el); el = parentOf(el)) {
        climbed.add(el);
        const e = entry(el, memo);
        if (e.listed?.script && norm(nameOf(el, e)).includes(wanted)) out.push({ el, role: e.listed.role, name: nameOf(el, e) });
      }
    };
    for (const root of roots) {
      if (text) {
        const walker = (root.ownerDocument ?? /** @type {Document} */ (root)).createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (/** @type {Text} */ (node).data.toLowerCase().includes(first)) climb(/** @type {any} */ (node).assignedSlot ?? node.parentElement);
        }
      }
      for (const el of root.querySelectorAll(NAMING)) climb(el);
    }
    return out.sort((a, b) => (a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  };
}
