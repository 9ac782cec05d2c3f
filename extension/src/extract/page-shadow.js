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
 * The same scan notes every shadow root it passes, open and closed, so the
 * effects counter of an action can watch them all without walking a big page
 * again (`shadowRoots()`; null until one complete scan of the document).
 *
 * Sent to the page as source text (page-script.js): self-contained.
 */

/**
 * Adds closedRoots, pendingHosts, addClosedRoots and shadowRoots to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageShadow(lib) {
  const MAX_PENDING = 200;
  /** @type {WeakMap<Element, ShadowRoot>} */
  lib.closedRoots = new WeakMap();
  /** @type {WeakSet<Element>} */
  const checked = new WeakSet();
  /** @type {Set<WeakRef<ShadowRoot>>} roots met by the last complete scan */
  let seen = new Set();
  let scannedOnce = false;

  /**
   * Custom elements not checked yet for a closed shadow root (null if none).
   * @returns {Element[] | null}
   */
  lib.pendingHosts = () => {
    /** @type {Element[]} */
    const out = [];
    /** @type {Set<WeakRef<ShadowRoot>>} */
    const roots = new Set();
    let complete = true;
    /** @param {Document | ShadowRoot} root */
    const visit = (root) => {
      for (const el of root.querySelectorAll("*")) {
        if (out.length >= MAX_PENDING) {
          complete = false;
          return;
        }
        const any = /** @type {any} */ (el);
        const shadow = any.shadowRoot || lib.closedRoots.get(el);
        if (shadow) {
          roots.add(new WeakRef(shadow));
          visit(shadow);
        }
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
    if (complete) {
      seen = roots;
      scannedOnce = true;
    }
    return out.length ? out : null;
  };

  /**
   * The shadow roots (open and closed) of the last complete scan that are still in the page, or null when
   * the document was never scanned completely.
   * @returns {ShadowRoot[] | null}
   */
  lib.shadowRoots = () => {
    if (!scannedOnce) return null;
    /** @type {ShadowRoot[]} */
    const live = [];
    for (const ref of seen) {
      const root = ref.deref();
      if (root && root.host && root.host.isConnected) live.push(root);
    }
    return live;
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
        seen.add(new WeakRef(root));
        added++;
      }
    }
    return added;
  };
}
