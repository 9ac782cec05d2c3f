/**
 * In-page: closed shadow roots, which page JavaScript (and so the walker)
 * cannot reach by itself.
 *
 * The walker reads `lib.closedRoots` (host → root). To fill it, the extension
 * asks for `pendingHosts()` — custom elements without an open root that were
 * not checked before in this document — looks each up with
 * DOM.describeNode {pierce} (which sees closed roots), resolves the closed
 * roots into this world with DOM.resolveNode and hands them back through
 * `addClosedRoots(...roots)`. Hosts are checked once per document (a custom
 * element that was not defined yet once more, after its definition, when its
 * constructor may have attached the root), and the page is scanned again
 * only when something was inserted since. Closed roots on built-in elements
 * (allowed on div, span, … but rare) are not looked for.
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
  /** Whether elements may have been added since the last complete scan (then it is made again). */
  let dirty = true;
  /** Marks the scan dirty at the first insertion anywhere it looked, then stops watching: no cost after that. */
  const watcher = new MutationObserver(() => {
    dirty = true;
    watcher.disconnect();
  });
  /** @type {{frame: any, doc: Document | null}[]} same-origin frames of the last scan and their documents */
  let frames = [];
  /** @type {Element[]} custom elements that were not defined yet when checked: checked again once defined */
  let undefinedHosts = [];

  /** @param {any} frame */
  const documentOf = (frame) => {
    try {
      return frame.contentDocument || null;
    } catch {
      return null;
    }
  };

  /**
   * Custom elements not checked yet for a closed shadow root (null if none).
   * A page where nothing was inserted since the last complete scan (no
   * mutation, no frame loaded another document) is not scanned again: on a
   * 37,000-node page the scan took 30-55 ms of every extract.
   * @returns {Element[] | null}
   */
  lib.pendingHosts = () => {
    /** @type {Element[]} */
    const out = undefinedHosts.filter((el) => el.isConnected && el.matches(":defined"));
    undefinedHosts = undefinedHosts.filter((el) => el.isConnected && !out.includes(el));
    if (!dirty && frames.every((f) => documentOf(f.frame) === f.doc)) return out.length ? out : null;
    /** @type {Set<WeakRef<ShadowRoot>>} */
    const roots = new Set();
    /** @type {(Document | ShadowRoot)[]} */
    const looked = [];
    /** @type {{frame: any, doc: Document | null}[]} */
    const metFrames = [];
    let complete = true;
    /** @param {Document | ShadowRoot} root */
    const visit = (root) => {
      looked.push(root);
      for (const el of root.querySelectorAll("*")) {
        if (out.length >= MAX_PENDING) {
          complete = false;
          return;
        }
        const any = /** @type {any} */ (el);
        const name = el.localName;
        const custom = name.includes("-");
        const shadow = any.shadowRoot || lib.closedRoots.get(el);
        if (shadow) {
          roots.add(new WeakRef(shadow));
          visit(shadow);
        }
        else if (custom && !checked.has(el)) {
          checked.add(el);
          out.push(el);
          if (!el.matches(":defined")) undefinedHosts.push(el);
        }
        if (name === "iframe" || name === "frame") {
          const doc = documentOf(any);
          metFrames.push({ frame: any, doc });
          if (doc) visit(doc);
        }
      }
    };
    visit(document);
    if (complete) {
      seen = roots;
      scannedOnce = true;
      frames = metFrames;
      dirty = false;
      watcher.disconnect();
      for (const root of looked) watcher.observe(root, { childList: true, subtree: true });
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
        dirty = true;
      }
    }
    return added;
  };
}
