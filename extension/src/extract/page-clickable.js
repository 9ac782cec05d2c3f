/**
 * In-page: elements a person can operate because script listens on them, not
 * because their markup says so (a `<span>` link, a `<div>` inbox row, an icon
 * span, a slider handle, an autocomplete suggestion).
 *
 * Signals, strongest first:
 * - a click/mousedown/pointerdown/keydown… listener on the element itself
 *   (found by the extension with DOMDebugger.getEventListeners over the whole
 *   document, which sees the page's own world; see listeners.js), an
 *   `onclick` attribute, `tabindex >= 0`, `draggable=true`, or a framework's
 *   event attribute (Alpine `@click`, htmx `hx-post`, `ng-click`, `jsaction` …);
 * - `cursor: pointer` that does not come from the parent (a pointer "root");
 * - being an item of a delegating container: a container with a listener (or
 *   a pointer) that is too big to be one control makes its repeated children
 *   (`li`s of a `ul`, rows of the same class) the controls.
 *
 * Without flooding: a candidate that only wraps one listed control (same
 * text) is not listed, and inside a listed candidate only strong signals
 * count (the inherited pointer of its children does not).
 *
 * A listener is not enough: a wrapper that holds a page's content (a body-level div whose click closes a menu,
 * an article in it) is no control (wrapsContent) — it covers much of the viewport and holds content or
 * controls, or it holds both headings/paragraphs and controls without showing a pointer. Its content is read
 * as content and the controls in it are listed on their own.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageMath } from "./page-math.js";

definePagePart(pageClickable, { uses: [pageAria, pageMath] });

/**
 * Adds documentNode, listenSync, listenAdd, listenReached, listenPending, isListened, listenedElements and scriptControl
 * to lib (needs pageAria).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageClickable(lib) {
  /** A candidate with more descendant elements than this is a container, not one control. */
  const MAX_DESCENDANTS = 30;
  /** …or with more text than this. */
  const MAX_TEXT = 300;
  /** Event attributes of frameworks that bind listeners by markup (Angular, Vue, Alpine, Livewire, Phoenix, htmx,
   * Google's jsaction, Bootstrap toggles, jQuery UI handlers, Stimulus actions). */
  const EVENT_ATTR = new RegExp(`^(?:${["ng-click", "data-ng-click", "v-on:click", "@click(?:\\..*)?", "x-on:click(?:\\..*)?",
    "wire:click(?:\\..*)?", "phx-click", "hx-(?:get|post|put|patch|delete)", "jsaction", "data-(?:bs-)?toggle",
    "data-handler", "data-action"].join("|")})$`);
  const NOT_ITEMS = "ul,ol,table,[role=tree],[role=group]";
  /** Mapped nodes kept beyond twice those listened now before the collected ones are dropped (a page that churns). */
  const PRUNE_SLACK = 1000;
  const LIST_TAGS = new Set(["UL", "OL", "MENU", "TBODY", "TABLE"]);
  const LIST_ROLES = new Set(["list", "listbox", "menu", "tree", "grid", "table", "rowgroup"]);

  /** Content that makes a listened element a page region rather than one control. */
  const CONTENT = "h1,h2,h3,h4,h5,h6,[role=heading],p,article,section,main,table,ul,ol,dl,blockquote,form,pre";
  /** Controls inside it that a person operates on their own. */
  const INNER_CONTROLS = "a[href],button,input,select,textarea,[role=button],[role=link],[role=tab],[role=menuitem],"
    + "[role=checkbox],[contenteditable=''],[contenteditable=true]";
  /** A listened element covering this share of the viewport (or taller than it) is a region, not a control. */
  const REGION_SHARE = 0.4;

  /** @type {Map<number, WeakRef<Element>>} listened node (backendNodeId) → element, for the life of the document */
  const byNodeId = new Map();
  /** @type {Set<number>} listened nodes that are no element (resolved to none) */
  const notElements = new Set();
  /** @type {Set<Element>} elements with a listener now */
  let listened = new Set();
  /** @type {WeakSet<Element>} ancestors of listened elements */
  let aboveListened = new WeakSet();
  /** Listened nodes reported now but not mapped yet (the extension maps them a chunk at a time). */
  let pending = 0;
  /** @type {Element | null} the last mapped listened element before the first one not mapped yet */
  let frontier = null;

  const markAncestors = () => {
    aboveListened = new WeakSet();
    for (const el of listened) {
      for (let p = el.parentElement; p && !aboveListened.has(p); p = p.parentElement) aboveListened.add(p);
    }
  };

  /**
   * The listened nodes now (backendNodeIds in document order); answers those this library cannot map to
   * an element (yet, or any more: a collected wrapper), for the extension to resolve and hand over with listenAdd,
   * and whether a mapped element comes before the first of them (else a walk would meet them at once).
   * @param {number[]} ids
   * @returns {{unknown: number[], mapped: boolean}}
   */
  lib.listenSync = (ids) => {
    listened = new Set();
    frontier = null;
    /** @type {number[]} */
    const unknown = [];
    for (const id of ids) {
      const el = byNodeId.get(id)?.deref();
      if (el) {
        listened.add(el);
        if (!unknown.length) frontier = el;
      } else if (!notElements.has(id)) unknown.push(id);
    }
    pending = unknown.length;
    if (byNodeId.size > 2 * ids.length + PRUNE_SLACK) {
      for (const [id, ref] of byNodeId) if (!ref.deref()) byNodeId.delete(id);
    }
    markAncestors();
    return { unknown, mapped: !!frontier };
  };

  /**
   * Elements for ids listenSync did not know (an id that resolved to no element is remembered as none).
   * @param {number[]} ids the next ones in the reported order
   * @param {number} left how many reported ids are still not mapped after these
   * @param {...(Element | null)} els one per id
   */
  lib.listenAdd = (ids, left, ...els) => {
    ids.forEach((id, i) => {
      const el = els[i];
      if (el && el.nodeType === 1) {
        byNodeId.set(id, new WeakRef(el));
        listened.add(el);
        frontier = el;
      } else notElements.add(id);
    });
    pending = left;
    markAncestors();
    return true;
  };

  /**
   * Whether a walk that stopped detailed work at `cut` (null: it walked everything) may have passed listened
   * elements not mapped yet. Those come after the frontier in the reported (document) order, so a walk cut
   * before the frontier cannot have met them; anything else (no frontier, a cut in another tree) may have.
   * @param {Node | null} cut
   */
  lib.listenReached = (cut) => {
    if (!pending) return false;
    if (!cut || !frontier || !frontier.isConnected) return true;
    const pos = frontier.compareDocumentPosition(cut);
    return !(pos & Node.DOCUMENT_POSITION_PRECEDING) || !!(pos & Node.DOCUMENT_POSITION_DISCONNECTED);
  };

  /** How many listened nodes reported now are not mapped yet (counted as left out by a budget-cut walk). */
  lib.listenPending = () => pending;

  /** The document, for the extension to ask for its listeners. */
  lib.documentNode = () => document;

  /** @param {Element} el */
  lib.isListened = (el) => listened.has(el);

  /** The elements with an input listener now (those mapped). */
  lib.listenedElements = () => listened;

  /** @param {Element} el */
  const strongSignal = (el) => {
    if (listened.has(el) || el.hasAttribute("onclick") || el.getAttribute("draggable") === "true") return true;
    const tabindex = el.getAttribute("tabindex");
    if (tabindex !== null && Number(tabindex) >= 0) return true;
    for (const attr of el.attributes) if (EVENT_ATTR.test(attr.name)) return true;
    return false;
  };

  /**
   * Whether a listened (or onclick) element wraps a page's content rather than being one control: it holds
   * content or controls and covers a large part of the viewport (REGION_SHARE, or is taller than it), or it
   * holds both content (headings, paragraphs, lists) and controls and shows no pointer. A card that shows a
   * pointer, or an accordion header holding only text, stays a control.
   * @param {Element} el
   * @param {CSSStyleDeclaration} [cs]
   */
  lib.wrapsContent = (el, cs) => {
    if (!el.firstElementChild) return false;
    const content = !!el.querySelector(CONTENT);
    const inner = !!el.querySelector(INNER_CONTROLS);
    if (!content && !inner) return false;
    const view = el.ownerDocument.defaultView;
    if (view) {
      const box = el.getBoundingClientRect();
      const area = view.innerWidth * view.innerHeight;
      if (area && (box.width * box.height >= area * REGION_SHARE || box.height > view.innerHeight)) return true;
    }
    return content && inner && (cs ?? view?.getComputedStyle(el))?.cursor !== "pointer";
  };

  /**
   * Whether an element is a control by its markup or by a strong signal.
   * @param {Element} el
   */
  const isControl = (el) => lib.isInteractiveRole(lib.roleOf(el)) || strongSignal(el);

  /**
   * The label a script control gets, by what it is.
   * @param {Element} el
   * @param {string} role its ARIA role (generic for most)
   * @param {CSSStyleDeclaration} cs
   */
  const labelOf = (el, role, cs) => {
    if (role === "row" || el.tagName === "TR") return "row";
    if (role === "listitem" || el.tagName === "LI") return "item";
    if (role === "cell" || role === "gridcell" || role === "img" || role === "columnheader") return role;
    if (el.getAttribute("draggable") === "true") return "draggable";
    if (!cs.display.startsWith("inline") && sameSiblings(el) >= 2) return "row";
    return "clickable";
  };

  /** @param {Element} el how many siblings share its tag and class */
  const sameSiblings = (el) => {
    const parent = el.parentElement;
    if (!parent) return 0;
    let n = 0;
    const cls = el.getAttribute("class");
    for (const sib of parent.children) {
      if (sib !== el && sib.tagName === el.tagName && sib.getAttribute("class") === cls && ++n >= 2) break;
    }
    return n;
  };

  /**
   * The largest group of children sharing tag and class.
   * @param {Element} el
   * @returns {Element[]}
   */
  const largestGroup = (el) => {
    /** @type {Map<string, Element[]>} */
    const groups = new Map();
    for (const kid of el.children) {
      const key = `${kid.tagName} ${kid.getAttribute("class") ?? ""}`;
      const group = groups.get(key);
      if (group) group.push(kid);
      else groups.set(key, [kid]);
    }
    let best = /** @type {Element[]} */ ([]);
    for (const group of groups.values()) if (group.length > best.length) best = group;
    return best;
  };

  /**
   * Whether a listened (or pointer) element is a container that delegates to
   * its repeated children rather than one control: a list, or children that
   * show their own pointer; any element too big to be one control. A small
   * row whose cells repeat stays one control.
   * @param {Element} el
   * @param {Element[]} group its largest group of like children
   * @param {CSSStyleDeclaration} cs
   * @param {boolean} big
   */
  const delegates = (el, group, cs, big) => {
    if (big) return true;
    if (group.length < 2) return false;
    if (LIST_TAGS.has(el.tagName) || LIST_ROLES.has(el.getAttribute("role") ?? "")) return true;
    const view = el.ownerDocument.defaultView;
    return cs.cursor !== "pointer" && view?.getComputedStyle(group[0]).cursor === "pointer";
  };

  /**
   * What the walker should do with a non-semantic element:
   * - `{role, token, hint}`: list it with this role-like label; `token`: its
   *   visible text makes a whole inline token (nothing inside to list), else
   *   the walker puts a bare marker and walks inside;
   * - `{items}`: a container whose repeated children are the controls;
   * - null: nothing (also for the wrapper of a single listed control).
   * @param {Element} el
   * @param {string} role from roleOf
   * @param {CSSStyleDeclaration} cs
   * @param {{cursor?: string, inClick?: boolean, items?: Set<Element> | null}} st the walk's state at the parent
   * @returns {{role: string, token: boolean, hint: string} | {items: Set<Element>} | null}
   */
  lib.scriptControl = (el, role, cs, st) => {
    const tag = el.tagName;
    if (tag === "BODY" || tag === "HTML" || (tag === "LABEL" && /** @type {any} */ (el).control)) return null;
    const strong = strongSignal(el);
    const pointerRoot = cs.cursor === "pointer" && st.cursor !== "pointer";
    const item = !!st.items?.has(el);
    if (!strong && !((pointerRoot || item) && !st.inClick)) return null;
    const descendants = el.getElementsByTagName("*");
    const text = lib.clean(/** @type {HTMLElement} */ (el).textContent || "");
    const big = descendants.length > MAX_DESCENDANTS || text.length > MAX_TEXT;
    if (listened.has(el) || (pointerRoot && !strong)) {
      const group = largestGroup(el);
      if (delegates(el, group, cs, big)) {
        const items = group.length >= 2 && !group.some((kid) => kid.querySelector(NOT_ITEMS));
        return items ? { items: new Set(group) } : null;
      }
    }
    if (big && el.getAttribute("draggable") !== "true") return null;
    if (!item && lib.wrapsContent(el, cs)) return null;
    if (lib.isFormula(el)) return null; // page-math.js: a math library's focusable wrapper is read as text
    /** @type {Element[]} */
    const inner = [];
    for (const d of descendants) if (isControl(d)) inner.push(d);
    if (inner.length === 1 && text === lib.clean(inner[0].textContent || "")) return null;
    if (item && !strong && !pointerRoot && inner.length) return null;
    const hint = text || el.getAttribute("aria-label") || el.getAttribute("title") ? "" : classHint(el);
    return { role: labelOf(el, role, cs), token: !inner.length && !aboveListened.has(el) && text.length <= 100, hint };
  };

  /**
   * A short hint from the class (icon spans, slider handles have no text): `class=ui-slider-handle`.
   * @param {Element} el
   */
  const classHint = (el) => {
    const words = (el.getAttribute("class") || "").trim().split(/\s+/);
    const cls = words.filter((c) => c && c.length < 40).slice(0, 3).join(" ");
    if (cls) return `class=${JSON.stringify(cls)}`;
    return el.id ? `id=${JSON.stringify(el.id)}` : "";
  };
}
