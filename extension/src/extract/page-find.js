/**
 * In-page queries over a whole document: current elements by role and name
 * (the candidates of an element_stale error, so the model can often go on
 * without a full re-extract), the open modal dialog, and what follows the
 * point where a budgeted walk stopped.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageClickable } from "./page-clickable.js";
import { pageContext } from "./page-context.js";
import { pageControls } from "./page-controls.js";
import { pageControlsFind } from "./page-controls-find.js";
import { pageRegistry } from "./page-registry.js";
import { pageSearch } from "./page-search.js";
import { pageSeen } from "./page-seen.js";
import { pageShadow } from "./page-shadow.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageFind, { uses: [pageAria, pageClickable, pageContext, pageControls, pageControlsFind, pageRegistry, pageSearch, pageSeen, pageShadow, pageVisibility] });

/**
 * Adds INTERACTIVE_SELECTOR, findLike, findModal and omittedFrom to lib
 * (needs pageAria, pageClickable, pageContext, pageControls, pageControlsFind, pageRegistry, pageSearch, pageSeen).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageFind(lib) {
  /** Elements that may be interactive (superset; roleOf decides). */
  lib.INTERACTIVE_SELECTOR = "a[href],button,input:not([type=hidden]),select,textarea,summary," +
    "[contenteditable=''],[contenteditable=true],[onclick],[role=button],[role=link],[role=checkbox],[role=radio]," +
    "[role=switch],[role=tab],[role=menuitem],[role=menuitemcheckbox],[role=menuitemradio],[role=option]," +
    "[role=slider],[role=spinbutton],[role=combobox],[role=textbox],[role=searchbox],[role=treeitem],[role=listbox]";

  /** An element a person can see, as extract's walker judges it (page-seen.js), outside inert parts. @param {Element} el */
  const seen = (el) => !!lib.seenState(el) && !el.closest("[inert]");

  /**
   * Visible elements with this role and name in the document, its shadow
   * roots and same-process frames, with contexts, in document order.
   * @param {string} role
   * @param {string} name
   * @param {number} limit
   * @returns {{doc: string, found: {id: number, role: string, name: string, context: string}[]}}
   */
  lib.findLike = (role, name, limit) => lib.indexingLabels(() => findLike(role, name, limit));

  /**
   * @param {string} role
   * @param {string} name
   * @param {number} limit
   * @returns {{doc: string, found: {id: number, role: string, name: string, context: string}[]}}
   */
  const findLike = (role, name, limit) => {
    const script = lib.SCRIPT_ROLES.has(role);
    /** @type {any[]} */
    const found = script ? scriptLike(role, name, limit) : [];
    /** @type {(Document | ShadowRoot)[]} */
    const roots = script ? [] : [document];
    while (roots.length && found.length < limit) {
      const root = /** @type {Document | ShadowRoot} */ (roots.shift());
      for (const el of root.querySelectorAll(lib.INTERACTIVE_SELECTOR)) {
        // The name the index listed it with (page-visibility.js shownName), which the stale uid carried.
        if (lib.roleOf(el) !== role || lib.shownName(el, lib.nameOf(el, role), lib.seenState(el))[0] !== name) continue;
        if (!seen(el)) continue;
        found.push({ el, role, name, row: el.closest("tr,[role=row]"), li: el.closest("li") });
        if (found.length >= limit) break;
      }
      for (const el of root.querySelectorAll("*")) {
        const any = /** @type {any} */ (el);
        const shadow = lib.shadowOf(el);
        if (shadow) roots.push(shadow);
        if (any.contentDocument) roots.push(any.contentDocument);
      }
    }
    const contexts = lib.contextsFor(found);
    return { doc: lib.doc, found: found.map((f, i) => ({ id: lib.idOf(f.el), role, name, context: contexts[i] })) };
  };

  /**
   * Script controls (page-controls-find.js) listed with this label and name: found from the text and attributes that
   * make the name, or (no name: an icon) among all the document's script controls.
   * @param {string} role
   * @param {string} name
   * @param {number} limit
   */
  const scriptLike = (role, name, limit) => {
    /** @type {any[]} */
    const found = [];
    const memo = new Map();
    const roots = lib.searchRoots();
    const head = name.endsWith("…") ? name.slice(0, -1) : name; // nameOf caps long names
    const controls = head ? lib.scriptNamed(roots, head, memo)
      : roots.flatMap((/** @type {Document | ShadowRoot} */ root) => lib.scriptControlsIn(root, memo));
    for (const { el, role: r, name: n } of controls) {
      if (r !== role || n !== name) continue;
      if (!seen(el)) continue;
      found.push({ el, role, name, ...lib.rowAndItem(el, memo) });
      if (found.length >= limit) break;
    }
    return found;
  };

  /**
   * The open modal dialog that blocks the page: a <dialog> opened with
   * showModal(), else a visible element with aria-modal="true".
   * @returns {Element | null}
   */
  lib.findModal = () => {
    const native = document.querySelector("dialog:modal");
    if (native) return native;
    for (const el of document.querySelectorAll("[aria-modal='true']")) {
      if (el.checkVisibility({ visibilityProperty: true })) return el;
    }
    return null;
  };

  /**
   * What follows `cut` in document order: interactive elements (semantic ones, script controls decided as the
   * walker would: page-controls-find.js, and listened elements not mapped yet: page-clickable.js) and table rows
   * (binary search in document-ordered NodeLists), and characters of text.
   * @param {Node} cut
   * @returns {{els: number, rows: number, chars: number}}
   */
  lib.omittedFrom = (cut) => {
    const doc = cut.ownerDocument ?? document;
    /** @param {NodeListOf<Element>} list */
    const after = (list) => list.length - lib.firstAfter(list, cut);
    const range = doc.createRange();
    range.setStartBefore(cut);
    range.setEndAfter(doc.body ?? doc.documentElement);
    const script = lib.scriptCountAfter(doc, cut, lib.INTERACTIVE_SELECTOR);
    return {
      els: after(doc.querySelectorAll(lib.INTERACTIVE_SELECTOR)) + script + lib.listenPending(),
      rows: after(doc.querySelectorAll("tr")),
      chars: range.toString().replace(/\s+/g, " ").length,
    };
  };
}
