/**
 * In-page: the `find` action's search over the current document (its open
 * and known closed shadow roots and same-process frames), without a walk of
 * the whole page: elements by role and name, and visible text. What is seen
 * (an element found, the text matched and quoted) is page-seen.js's judgement,
 * the walker's: raw text (textContent) only narrows what is asked about.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageContext } from "./page-context.js";
import { pageControls } from "./page-controls.js";
import { pageControlsFind } from "./page-controls-find.js";
import { pageFind } from "./page-find.js";
import { pageIconName } from "./page-icon-name.js";
import { pagePixels } from "./page-pixels.js";
import { pageRegistry } from "./page-registry.js";
import { pageSeen } from "./page-seen.js";
import { pageShadow } from "./page-shadow.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageSearch, { uses: [pageAria, pageContext, pageControls, pageControlsFind, pageFind, pageIconName, pagePixels, pageRegistry, pageSeen, pageShadow, pageVisibility] });

/**
 * Adds search and searchRoots to lib
 * (needs pageAria, pageContext, pageControls, pageControlsFind, pageFind, pageRegistry, pageSeen).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageSearch(lib) {
  const SNIPPET = 60;
  const MAX_HITS = 1000;
  const MAX_CLIMB = 3;
  const SKIP_TEXT = new Set(["SCRIPT", "STYLE", "NOSCRIPT", "TEMPLATE", "TITLE", "HEAD"]);
  /** Elements with a structural role a role or name search may ask for, besides the interactive ones. */
  const STRUCTURE = "[role],h1,h2,h3,h4,h5,h6,tr,td,th,li,img[alt],table,dialog,form,nav,main,article,section,aside,header,footer";

  /** @param {string} s */
  const norm = (s) => String(s).replace(/\s+/g, " ").trim().toLowerCase();
  /** @param {Element} el */
  const visible = (el) => !!lib.seenState(el) && !el.closest("[inert]");

  /** @param {any} el the frame's document, when it is readable from here (same process) */
  const frameDocument = (el) => {
    try {
      return el.contentDocument ?? null;
    } catch {
      return null;
    }
  };

  /**
   * The document, then every shadow root and same-process frame document under it. The top document's shadow
   * roots come from the library's own tracking once a walk has scanned it (page-shadow.js): a search of a large
   * page then does not visit every element just to find them.
   */
  const roots = () => {
    /** @type {(Document | ShadowRoot)[]} */
    const out = [document];
    const known = lib.shadowRoots?.();
    const scan = (/** @type {Document | ShadowRoot} */ root) => {
      for (const el of root.querySelectorAll("*")) {
        const shadow = lib.shadowOf(el);
        if (shadow) out.push(shadow);
      }
      for (const frame of root.querySelectorAll("iframe,frame")) {
        const doc = frameDocument(frame);
        if (doc) out.push(doc);
      }
    };
    if (!known) {
      for (let i = 0; i < out.length; i++) scan(out[i]);
      return out;
    }
    out.push(...known);
    for (let i = 0; i < out.length; i++) {
      const root = out[i];
      if (root !== document && root.nodeType === Node.DOCUMENT_NODE) {
        scan(root);
        continue;
      }
      for (const frame of root.querySelectorAll("iframe,frame")) {
        const doc = frameDocument(frame);
        if (doc) out.push(doc);
      }
    }
    return out;
  };

  /**
   * The nearest heading before an element (its ancestors' earlier siblings), for context.
   * @param {Element} el
   */
  const headingOf = (el) => {
    for (let node = /** @type {Element | null} */ (el), steps = 0; node && steps < 40; node = node.parentElement) {
      for (let sib = node.previousElementSibling; sib && steps < 40; sib = sib.previousElementSibling, steps++) {
        const h = /^H[1-6]$/.test(sib.tagName) ? sib : sib.querySelector?.("h1,h2,h3,h4,h5,h6");
        if (h) return lib.shownText(h, 200);
      }
    }
    return "";
  };

  /**
   * Whether an element's accessible name could contain `want`, from what names are made of (its text, labels
   * and naming attributes) without computing the name: the costly part of a search over every control.
   * @param {any} el
   * @param {string} want normalised
   */
  const mayName = (el, want) => {
    // Labelled form controls are named by their <label>s: reading `labels` here would make Chrome search the
    // whole tree scope per control, so they are left to nameOf, which indexes the labels once per search.
    if (el.hasAttribute("aria-labelledby") || /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) return true;
    if (el.tagName === "BUTTON" && (el.id || el.closest("label"))) return true; // a button a <label> may name
    // An icon-only control (no text, or an icon font's ligature) is named from its icon (page-icon-name.js).
    const own = (el.textContent || "").trim();
    if (!own || lib.ligatureWords(own)) return true;
    const parts = [el.textContent, el.getAttribute("aria-label"), el.getAttribute("title"), el.getAttribute("alt"),
      el.getAttribute("aria-placeholder")];
    // Without whitespace: a name puts spaces between blocks that textContent runs together ("Foo<div>Bar</div>").
    return norm(parts.filter(Boolean).join(" ")).replace(/\s/g, "").includes(want.replace(/\s/g, ""));
  };

  /**
   * A window of the element's text around the first occurrence of `want`.
   * @param {Element} el
   * @param {string} want normalised
   */
  const snippet = (el, want) => {
    const text = lib.shownText(el);
    const at = text.toLowerCase().indexOf(want);
    if (at < 0) return lib.cap(text, SNIPPET * 2);
    const from = Math.max(0, at - SNIPPET);
    const to = Math.min(text.length, at + want.length + SNIPPET);
    return `${from > 0 ? "…" : ""}${text.slice(from, to)}${to < text.length ? "…" : ""}`;
  };

  /**
   * Script controls (page-controls-find.js) a query may ask for: all of a script role, those whose name holds the
   * words, or (a text search) those named so by an attribute (their text is found with the other text below).
   * @param {(Document | ShadowRoot)[]} all
   * @param {string | undefined} role
   * @param {string} words normalised, "" for none
   * @param {boolean} attributesOnly
   * @param {Map<Element, any>} memo
   * @returns {{el: Element, role: string, name: string}[]}
   */
  const scriptHits = (all, role, words, attributesOnly, memo) => {
    if (role && !lib.SCRIPT_ROLES.has(role)) return [];
    const found = words ? lib.scriptNamed(all, words, memo, { text: !attributesOnly })
      : all.flatMap((root) => lib.scriptControlsIn(root, memo));
    return role ? found.filter((/** @type {{role: string}} */ c) => c.role === role) : found;
  };

  /** The document and the shadow roots and same-process frames under it (page-find.js searches them too). */
  lib.searchRoots = () => roots();

  /**
   * @param {{text?: string, role?: string, name?: string, limit: number}} query
   * @returns {{doc: string, total: number, found: {id: number, role: string, name: string, text?: string, context: string}[]}}
   */
  lib.search = (query) => lib.indexingLabels(() => search(query));

  /** @param {{text?: string, role?: string, name?: string, limit: number}} query */
  const search = ({ text, role, name, limit }) => {
    const want = text ? norm(text) : "";
    const wantName = name ? norm(name) : "";
    /** @type {Map<Element, {el: Element, role: string, name: string, text?: string}>} */
    const hits = new Map();
    const all = roots();
    /** @param {Element} el @param {string} r @param {string} n @param {string} [t] */
    const add = (el, r, n, t) => {
      if (!hits.has(el) && hits.size < MAX_HITS) hits.set(el, { el, role: r, name: n, ...(t ? { text: t } : {}) });
    };
    // Elements: by role and name; for `text`, controls named by an attribute (icon buttons): a name made of
    // the control's own text or its <label> is found with the text below.
    /** With role or name asked, `text` must show in the element or its name. @param {Element} el @param {string} n */
    const showsText = (el, n) => !want || !(role || wantName) || norm(n).includes(want) || norm(lib.shownText(el)).includes(want);
    const memo = new Map();
    for (const c of scriptHits(all, role, wantName || (role ? "" : want), !wantName && !role, memo)) {
      if (visible(c.el) && showsText(c.el, c.name)) add(c.el, c.role, c.name);
    }
    const selector = role || wantName ? `${lib.INTERACTIVE_SELECTOR},${STRUCTURE}`
      : `:is(${lib.INTERACTIVE_SELECTOR}):is([aria-label],[aria-labelledby],[title],[placeholder],[alt])`;
    for (const root of all) {
      for (const el of root.querySelectorAll(selector)) {
        if (want && !role && !wantName && !mayName(el, want)) continue;
        if (wantName && !mayName(el, wantName)) continue; // the name (judged below) is made of seen parts of these
        const r = lib.roleOf(el);
        if (role && r !== role) continue;
        if (!role && !lib.isInteractiveRole(r) && !wantName) continue;
        const n = lib.nameOf(el, r);
        if (wantName && !norm(n).includes(wantName)) continue;
        if (want && !wantName && !role && !norm(n).includes(want)) continue;
        if (visible(el) && showsText(el, n)) add(el, r, n);
      }
    }
    // Text: the smallest element (within a few levels of a text node) whose text contains it.
    if (want && !role && !wantName) {
      /** @type {Set<Element>} */
      const tried = new Set();
      // Text split over nodes (`Hello <b>world</b>`) is looked for from the node holding its first word.
      const first = new RegExp(want.split(" ")[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
      for (const root of all) {
        const walker = (root.ownerDocument ?? /** @type {Document} */ (root)).createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node && hits.size < MAX_HITS; node = walker.nextNode()) {
          let el = node.parentElement;
          if (!el || SKIP_TEXT.has(el.tagName)) continue;
          if (!first.test(/** @type {Text} */ (node).data)) continue;
          for (let climb = 0; el && climb <= MAX_CLIMB; climb++, el = el.parentElement) {
            if (tried.has(el)) break;
            tried.add(el);
            if (!norm(el.textContent ?? "").includes(want)) continue;
            if (!visible(el) || !norm(lib.shownText(el)).includes(want)) break;
            // The control extract lists around it (page-controls.js), unless a label nearer to it names a field.
            const around = lib.controlAround(el, memo);
            const label = el.closest("label");
            const field = /** @type {any} */ (label)?.control;
            if (around && !(field && around.el.contains(label))) {
              add(around.el, around.role, around.name, snippet(el, want));
            } else {
              const target = field ?? el;
              const r = lib.roleOf(target);
              add(target, r, lib.nameOf(target, r), snippet(el, want));
            }
            break;
          }
        }
      }
    }
    // A container reached from an unrelated text node also holds the smaller match: keep the smaller one.
    const textHits = [...hits.values()].filter((h) => h.text !== undefined);
    for (const h of textHits) {
      if (textHits.some((o) => o !== h && h.el.contains(o.el))) hits.delete(h.el);
    }
    const ordered = [...hits.values()].sort((a, b) => {
      const pos = a.el.compareDocumentPosition(b.el);
      return pos & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : pos & Node.DOCUMENT_POSITION_PRECEDING ? 1 : 0;
    });
    const kept = ordered.slice(0, limit).map((h) => ({
      ...h, ...lib.rowAndItem(h.el, memo), head: headingOf(h.el),
    }));
    const contexts = lib.contextsFor(kept);
    const deferred = lib.pixelDeferred(); // page-pixels.js: texts over a picture out of view, not searched yet
    return {
      doc: lib.doc,
      total: hits.size,
      ...(Object.keys(deferred).length ? { deferred } : {}),
      found: kept.map((h, i) => ({
        id: lib.idOf(h.el), role: h.role, name: lib.shownName(h.el, h.name, lib.seenState(h.el))[0],
        ...(h.text && h.text !== h.name ? { text: h.text } : {}),
        context: contexts[i] || (h.head ? `under: ${lib.cap(h.head, 40)}` : ""),
      })),
    };
  };
}
