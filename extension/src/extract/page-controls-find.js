/**
 * In-page: finding the script controls of a document (page-controls.js decides each element as the walker would):
 * all of them, those whose name holds some words (from the text and attributes names are made of, without
 * deciding every element), and how many follow the point where a budget-cut walk stopped.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";
import { pageClickable } from "./page-clickable.js";
import { pageControls } from "./page-controls.js";

definePagePart(pageControlsFind, { uses: [pageClickable, pageControls, pageShadow] });

/**
 * Adds scriptControlsIn, scriptCountAfter, firstAfter and scriptNamed to lib (needs pageClickable, pageControls).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageControlsFind(lib) {
  /** Elements whose attributes may make a control's name (besides its text). */
  const NAMING = "[aria-label],[aria-labelledby],[title],img[alt]";
  /** Markup that may make a script control, for counting without deciding every element (framework attributes
   * with modifiers, `@click.prevent`, cannot be selected: counted only when a listener or pointer shows them). */
  const MARKED = "[onclick],[tabindex],[draggable=true],[style*=cursor],[hx-get],[hx-post],[ng-click],[jsaction]," +
    "[data-toggle],[data-bs-toggle],[data-action],[phx-click]";

  /**
   * @typedef {Map<Element, any>} Memo page-controls.js's decisions of one pass
   * @typedef {{el: Element, role: string, name: string}} Control
   */

  /** @param {string} s */
  const norm = (s) => String(s).replace(/\s+/g, " ").trim().toLowerCase();

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
      if (lib.listedAs(el, memo)?.script) out.push(lib.controlOf(el, memo));
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
    for (const el of maybe) if (lib.listedAs(el, memo)?.script && !el.matches(skip)) n++;
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
      for (let el = from; el && !climbed.has(el); el = lib.flatParent(el)) {
        climbed.add(el);
        if (!lib.listedAs(el, memo)?.script) continue;
        const control = lib.controlOf(el, memo);
        if (norm(control.name).includes(wanted)) out.push(control);
      }
    };
    for (const root of roots) {
      if (text) {
        const walker = (root.ownerDocument ?? /** @type {Document} */ (root)).createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          if (/** @type {Text} */ (node).data.toLowerCase().includes(first)) climb(lib.slotOf(node) ?? node.parentElement);
        }
      }
      for (const el of root.querySelectorAll(NAMING)) climb(el);
    }
    return out.sort((a, b) => (a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  };
}
