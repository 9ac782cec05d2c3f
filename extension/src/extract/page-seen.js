/**
 * In-page: the one way any reader of page text outside the walker gets it — the text a person sees (issue 18).
 *
 * Extract's walker judges each element as it walks (page-visibility.js: `hiddenBy`, `textVisibility`). Every
 * other reader — find, select_text, wait_for, accessible names (page-aria.js's contentText), the element
 * descriptions quoted in results and errors (page/functions.js's describeElement), type's and fill's values —
 * starts from some node instead, so this module gives the walker's judgement for any node: the walk's state at
 * an element is made from its flat-tree parent's state exactly as the walker makes it, up to the document's root
 * (a same-process frame's document goes on from its <iframe>). No reader reads textContent or innerText for
 * text it returns; they ask:
 *
 * - `seenState(el)`: the walk's state at the element (its children's starting point), or null when nothing of
 *   it or in it can be seen (display:none, aria-hidden, hiddenBy, an unrendered light child of a shadow host,
 *   the inside of a closed <details> or of content-visibility:hidden);
 * - `textShows(node)`: whether a text node shows; `seenData(node)`: what of its text shows;
 * - `seenRuns(root, visit)`: the text a subtree shows, run by run, in flat-tree order;
 * - `shownText(root, max)`: the same as one string, whitespace collapsed;
 * - `seenLabel(el)`: what a description quotes for an element (`button#send "Send"`).
 *
 * States are kept for the rest of the current task of the page's event loop (a microtask clears them): one call
 * from the extension judges each element once, and the next call sees the page as it is then.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageControls } from "./page-controls.js";
import { pageReading } from "./page-reading.js";
import { pageRender } from "./page-render.js";
import { pageRoot } from "./page-root.js";
import { pageShadow } from "./page-shadow.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageSeen, { uses: [pageAria, pageControls, pageReading, pageRender, pageRoot, pageShadow, pageVisibility] });

/**
 * Adds seenState, seenNote, seenForget, textShows, seenData, seenRuns, shownText, seenLabel and seenReady to lib
 * (needs pageAria, pageControls, pageReading, pageVisibility).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageSeen(lib) {
  /** Elements whose text children are never shown. */
  const NO_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "HEAD", "title", "desc", "metadata"]);
  const FIELDS = new Set(["INPUT", "TEXTAREA", "SELECT"]);
  const NAME_ATTRS = ["aria-label", "placeholder", "title", "alt"]; // not a field's name=: it is never painted
  const MAX_LABEL = 40;

  /** @type {WeakMap<Element, any> | null} */
  let states = null;
  const memo = () => {
    if (!states) {
      states = new WeakMap();
      queueMicrotask(() => {
        states = null;
      });
    }
    return states;
  };

  /**
   * The state a document's root starts from: the base, or (a same-process frame) the state inside its <iframe>.
   * @param {Document} doc
   */
  const start = (doc) => {
    const win = /** @type {Window} */ (doc.defaultView);
    if (!win) return null;
    let frame = null;
    try {
      frame = win.frameElement;
    } catch {
      frame = null;
    }
    /** @param {any} st the state at the document's root, judged through its root and body (page-root.js) */
    const rooted = (st) => {
      const rc = lib.rootContext(doc, st.rc);
      return rc.hidden ? null : { ...st, rc };
    };
    if (!frame) return rooted({ win });
    const outer = lib.seenState(frame);
    if (!outer || outer.invisible || outer.hideText || !lib.frameSeen(frame, outer)) return null;
    return rooted({ ...outer, win, bg: undefined, rc: frameContext(outer.rc), closed: false });
  };

  const UNCLIPPED = { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity };
  /**
   * A same-process frame's document is laid out in its own viewport: only the opacity carries into it (as
   * page-walker.js's frame() goes on into it).
   * @param {any} rc the frame element's render context (page-render.js)
   */
  const frameContext = (rc) => (rc ? { alpha: rc.alpha, blur: rc.blur,
    at: { clip: UNCLIPPED, freeX: false, freeY: false, fixed: false }, abs: null, hidden: "" } : undefined);

  /**
   * Whether a node is drawn from where it stands: a light child of a shadow host is drawn only through a slot.
   * @param {Node} node
   */
  const unslotted = (node) => {
    const p = /** @type {any} */ (node.parentNode);
    return !!p && p.nodeType === 1 && !lib.slotOf(node) && !!lib.shadowOf(p);
  };

  /**
   * The walk's state at `el`, made from its parent's state `st` as page-walker.js's walkElement makes it.
   * @param {Element} el
   * @param {Element} parent
   * @param {any} st
   */
  const judge = (el, parent, st) => {
    if (st.closed && !(parent.tagName === "DETAILS" && el.tagName === "SUMMARY" && parent.querySelector(":scope > summary") === el)) return null;
    const cs = lib.styleOf(el, st.win);
    if (cs.display === "none" || el.getAttribute("aria-hidden") === "true") return null;
    const role = lib.roleOf(el);
    const unseen = lib.hiddenBy(el, cs, st);
    if (unseen && !lib.isInteractiveRole(role)) return null;
    const ns = { ...st, invisible: cs.visibility !== "visible", closed: false };
    lib.textVisibility(el, cs, ns, st, unseen, role);
    ns.closed = lib.skipsContent(el, cs) || (el.tagName === "DETAILS" && !(/** @type {any} */ (el).open));
    ns.block = !cs.display.startsWith("inline") && cs.display !== "contents";
    return ns;
  };

  /**
   * @param {Element} el
   * @returns {any} the walk's state at the element, or null when nothing in it can be seen
   */
  lib.seenState = (el) => {
    const known = memo();
    if (known.has(el)) return known.get(el);
    let st = null;
    const doc = el.ownerDocument;
    if (el.isConnected) {
      if (el === doc.documentElement) st = start(doc);
      else {
        const parent = lib.flatParent(el);
        const up = parent && !unslotted(el) && (el === doc.body || parent !== doc.documentElement) ? lib.seenState(parent) : null;
        if (up) st = el === doc.body ? { ...up, block: true } : judge(el, parent, up);
      }
    }
    known.set(el, st);
    return st;
  };

  /**
   * The walker's state at an element it judged (page-walker.js, as judge makes it), kept as the element's state for
   * the rest of the call when the parent's state it was made from is the parent's state here too (`st.seenOf`):
   * the readers a walk asks (names, contexts, tokens) then judge no element a second time. An element judge never
   * shows (aria-hidden) is left to judge. Sets ns.seenOf.
   * @param {Element} el
   * @param {any} ns the walker's state at el
   * @param {any} st the parent's state it was made from
   * @param {CSSStyleDeclaration} cs el's style
   */
  lib.seenNote = (el, ns, st, cs) => {
    if (!st.seenOf || st.seenOf !== lib.flatParent(el) || el.getAttribute("aria-hidden") === "true") return;
    // closed and block are read from seen states only: the walker's own states may carry a parent's.
    ns.seenOf = el;
    ns.closed = lib.skipsContent(el, cs) || (el.tagName === "DETAILS" && !(/** @type {any} */ (el).open));
    ns.block = !cs.display.startsWith("inline") && cs.display !== "contents";
    // Without the walk's cover: the walk notes what paints over a text only as it meets it, and it does not walk a
    // control's content, so a reader asking now (a contenteditable's value) is judged against the layers in order.
    memo().set(el, ns.cover === undefined ? ns : { ...ns, cover: undefined });
  };

  /** Forget the states of this call (a walk starting again: page-walker.js). */
  lib.seenForget = () => {
    states = null;
  };

  /** The library is installed (run-in-page.js's libraryContextOf asks before page functions run). */
  lib.seenReady = () => true;

  /** @param {any} st a state: its own text shows */
  const shows = (st) => !!st && !st.invisible && !st.hideText && !st.closed;

  /**
   * Whether a text node in an element whose text shows can be read where it is painted, as the walker asks
   * page-visibility.js per text node (its boxes, what is painted over them), when that judgement is there.
   * @param {Text} node
   * @param {any} st its element's state
   */
  const readable = (node, st) => typeof lib.textSeen !== "function" || !lib.textSeen(node, st);

  /** @param {Node} node a text node @returns {boolean} */
  lib.textShows = (node) => {
    if (unslotted(node)) return false;
    const parent = lib.flatParent(node);
    if (!parent || NO_TEXT.has(parent.tagName)) return false;
    const st = lib.seenState(parent);
    return shows(st) && readable(/** @type {Text} */ (node), st);
  };

  /**
   * What a text node shows: "" when it does not, else its text with the words outside what can show blanked
   * (page-render.js shownData).
   * @param {Node} node @returns {string}
   */
  lib.seenData = (node) => {
    if (!lib.textShows(node)) return "";
    const st = lib.seenState(/** @type {Element} */ (lib.flatParent(node)));
    return lib.shownData(node, st.rc, st.win);
  };

  /**
   * Visit the text a subtree shows, in flat-tree order: text nodes, a visible image's alt text, a line break;
   * " " marks the edges of block elements. Stops when `visit` returns true.
   * @param {Node} root an element or a text node
   * @param {(text: string, node: Text | null) => boolean | void} visit node: the text node it comes from
   */
  lib.seenRuns = (root, visit) => {
    if (root.nodeType === 3) return void (lib.textShows(root) && visit(lib.seenData(root), /** @type {Text} */ (root)));
    if (root.nodeType !== 1) return;
    const top = lib.seenState(/** @type {Element} */ (root));
    if (top) walk(/** @type {Element} */ (root), top, visit);
  };

  /**
   * @param {Element} el
   * @param {any} st its state
   * @param {(text: string, node: Text | null) => boolean | void} visit
   * @returns {boolean} stopped
   */
  const walk = (el, st, visit) => {
    if (el.tagName === "IMG") {
      const alt = (el.getAttribute("alt") ?? "").trim();
      return !!alt && shows(st) && !!visit(alt, null);
    }
    if (el.tagName === "BR") return shows(st) && !!visit("\n", null);
    if (NO_TEXT.has(el.tagName) || FIELDS.has(el.tagName)) return false;
    const known = memo();
    for (const kid of lib.kids(el)) {
      if (kid.nodeType === 3) {
        if (shows(st) && readable(/** @type {Text} */ (kid), st) && visit(lib.shownData(kid, st.rc, st.win), /** @type {Text} */ (kid))) return true;
        continue;
      }
      if (kid.nodeType !== 1) continue;
      const child = /** @type {Element} */ (kid);
      let ks = known.get(child);
      if (ks === undefined) known.set(child, (ks = judge(child, el, st)));
      if (!ks) continue;
      if (ks.block && visit(" ", null)) return true;
      if (walk(child, ks, visit)) return true;
      if (ks.block && visit(" ", null)) return true;
    }
    return false;
  };

  /**
   * The text a subtree shows, whitespace collapsed ("" when none shows).
   * @param {Node} root
   * @param {number} [max] stop after about this many characters
   * @returns {string}
   */
  lib.shownText = (root, max = 100_000) => {
    let out = "";
    lib.seenRuns(root, (/** @type {string} */ text) => (out += text).length > max);
    return out.replace(/\s+/g, " ").trim();
  };

  /**
   * What a description quotes for an element: the text it shows, else a control's listed name (its visible label,
   * its value where it shows, its aria-label: shownName's rule), else (a control a person sees) its placeholder or
   * another naming attribute, capped; "" for an element nobody sees.
   * @param {Element} el
   * @returns {string}
   */
  lib.seenLabel = (el) => {
    const st = lib.seenState(el);
    if (!st) return "";
    let text = FIELDS.has(el.tagName) ? "" : lib.shownText(el, MAX_LABEL * 2);
    const role = lib.roleOf(el);
    // A control is quoted by the name the index lists it with (page-visibility.js shownName: only what is seen).
    if (!text && lib.isInteractiveRole(role)) text = lib.clean(lib.shownName(el, lib.nameOf(el, role), st)[0]);
    if (!text && !st.invisible && !st.hideText) {
      for (const attr of NAME_ATTRS) {
        if (attr === "placeholder" && !lib.placeholderShows(el)) continue;
        text = (el.getAttribute(attr) ?? "").replace(/\s+/g, " ").trim();
        if (text) break;
      }
    }
    return text.length > MAX_LABEL ? `${text.slice(0, MAX_LABEL - 1)}…` : text;
  };
}
