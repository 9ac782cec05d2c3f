/**
 * In-page: stable element ids per document, kept in the isolated world so
 * page scripts can neither see nor forge them.
 *
 * Each document gets a random token `doc`; an element gets a small integer id
 * the first time a walk (or a selector lookup) sees it and keeps it for the
 * life of the document (WeakMap element → id, Map id → WeakRef). The
 * extension maps (session, doc, id) to the model-facing uid, so a uid can
 * only ever resolve to the very node it was issued for: a re-rendered list
 * gives new nodes new ids, and a new document a new token.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";

definePagePart(pageRegistry, { uses: [pageShadow] });

/**
 * Adds doc, idOf, lookup and query to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageRegistry(lib) {
  /** @type {WeakMap<Element, number>} */
  const ids = new WeakMap();
  /** @type {Map<number, WeakRef<Element>>} */
  const refs = new Map();
  let next = 1;
  lib.doc = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

  /** @param {Element} el */
  lib.idOf = (el) => {
    let id = ids.get(el);
    if (id === undefined) {
      id = next++;
      ids.set(el, id);
      refs.set(id, new WeakRef(el));
    }
    return id;
  };

  /**
   * The element behind an id, or a reason it is gone.
   * @param {string} doc
   * @param {number} id
   * @returns {Element | "navigated" | "removed"}
   */
  lib.lookup = (doc, id) => {
    if (doc !== lib.doc) return "navigated";
    const el = refs.get(id)?.deref();
    if (!el || !el.isConnected) {
      refs.delete(id);
      return "removed";
    }
    return el;
  };

  /**
   * First element matching a CSS selector in the document, else in open or
   * known closed shadow roots and same-process frames (document order).
   * @param {string} selector
   * @returns {Element | null | string} the element, null, or why the selector is invalid
   */
  lib.query = (selector) => {
    try {
      document.querySelector(selector);
    } catch (err) {
      return String(/** @type {Error} */ (err).message || err);
    }
    /** @type {(Document | ShadowRoot)[]} */
    const roots = [document];
    while (roots.length) {
      const root = /** @type {Document | ShadowRoot} */ (roots.shift());
      const hit = root.querySelector(selector);
      if (hit) return hit;
      for (const el of root.querySelectorAll("*")) {
        const any = /** @type {any} */ (el);
        const shadow = lib.shadowOf(el);
        if (shadow) roots.push(shadow);
        if (any.contentDocument) roots.push(any.contentDocument);
      }
    }
    return null;
  };
}
