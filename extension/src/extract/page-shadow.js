/**
 * In-page: closed shadow roots, which page JavaScript (and so the walker)
 * cannot reach by itself.
 *
 * The walker reads `lib.closedRoots` (host → root). To fill it, the extension
 * asks for `pendingHosts()` — custom elements without an open root that were
 * not checked before in this document — looks each up with
 * DOM.describeNode {pierce} (which sees closed roots), resolves the closed
 * roots into this world with DOM.resolveNode and hands them back through
 * `addClosedRoots(...roots)`. Hosts are checked once per document, so a
 * repeated extract pays nothing. Closed roots on built-in elements (allowed
 * on div, span, … but rare) are not looked for.
 *
 * Sent to the page as source text (page-script.js): self-contained.
 */

/**
 * Adds closedRoots, pendingHosts and addClosedRoots to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageShadow(lib) {
  const MAX_PENDING = 200;
  /** @type {WeakMap<Element, ShadowRoot>} */
  lib.closedRoots = new WeakMap();
  /** @type {WeakSet<Element>} */
  const checked = new WeakSet();

  /**
   * Custom elements not checked yet for a closed shadow root (null if none).
   * @returns {Element[] | null}
   */
  lib.pendingHosts = () => {
    /** @type {Element[]} */
    const out = [];
    /** @param {Document | ShadowRoot} root */
    const visit = (root) => {
      for (const el of root.querySelectorAll("*")) {
        if (out.length >= MAX_PENDING) return;
        const any = /** @type {any} */ (el);
        const shadow = any.shadowRoot || lib.closedRoots.get(el);
        if (shadow) visit(shadow);
        else if (el.localName.includes("-") && !checked.has(el)) {
          checked.add(el);
          out.push(el);
        }
        if (el.localName === "iframe" || el.localName === "frame") {
          let doc = null;
          try {
            doc = any.contentDocument;
          } catch {
            doc = null;
          }
          if (doc) visit(doc);
        }
      }
    };
    visit(document);
    return out.length ? out : null;
  };

  /**
   * @param {...ShadowRoot} roots closed roots resolved by the extension
   * @returns {number} how many were added
   */
  lib.addClosedRoots = (...roots) => {
    let added = 0;
    for (const root of roots) {
      if (root && root.host) {
        lib.closedRoots.set(root.host, root);
        added++;
      }
    }
    return added;
  };
}
