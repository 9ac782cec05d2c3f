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
 * constructor may have attached the root). Closed roots on built-in elements
 * (allowed on div, span, … but rare) are not looked for.
 *
 * The same scan notes every shadow root it passes, open and closed, so the
 * effects counter of an action can watch them all without walking a big page
 * again (`shadowRoots()`; null until the first scan of the document).
 *
 * The whole page is scanned once; after that a MutationObserver on everything
 * scanned collects what is inserted, and only that is scanned: on a
 * 37,000-node page a whole scan took 30-55 ms of every extract. Too many
 * insertions at once (MAX_INSERTED), a frame that loaded another document, or
 * a last whole scan older than WHOLE_SCAN_MS mean a whole scan again at the
 * next extract: attaching a shadow root to an element already in the page is
 * no insertion, so only a whole scan finds such a root (a custom element
 * defined late is looked at again by itself). The effects counter of an action
 * never waits for a whole scan.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageShadow);

/**
 * Adds closedRoots, pendingHosts, addClosedRoots and shadowRoots to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageShadow(lib) {
  const MAX_PENDING = 200;
  const MAX_INSERTED = 2000;
  const WHOLE_SCAN_MS = 30_000;
  const WATCH = { childList: true, subtree: true };
  /** @type {WeakMap<Element, ShadowRoot>} */
  lib.closedRoots = new WeakMap();
  /** @type {WeakSet<Element>} custom elements queued or checked already */
  const met = new WeakSet();
  /** @type {Element[]} custom elements met by a scan, not yet handed to the extension */
  let queued = [];
  /** @type {Element[]} custom elements that were not defined yet when checked: checked again once defined */
  let undefinedHosts = [];
  /** @type {Set<WeakRef<ShadowRoot>>} shadow roots met (open and closed) */
  let seen = new Set();
  /** @type {WeakSet<Node>} roots in `seen` (a host scanned again, after a move, adds its root once) */
  let noted = new WeakSet();
  /** @type {Map<any, Document | null>} same-origin frames met and their documents */
  let frames = new Map();
  /** @type {number | null} when the last whole scan was made (null: never) */
  let wholeScanAt = null;
  /** @type {Element[] | null} elements inserted since the last scan; null: scan the whole page */
  let inserted = null;
  const watcher = new MutationObserver((records) => {
    if (inserted === null) return;
    for (const record of records) {
      for (const node of record.addedNodes) if (node.nodeType === 1) inserted.push(/** @type {Element} */ (node));
    }
    if (inserted.length > MAX_INSERTED) {
      inserted = null;
      watcher.disconnect();
    }
  });

  /** @param {any} frame */
  const documentOf = (frame) => {
    try {
      return frame.contentDocument || null;
    } catch {
      return null;
    }
  };

  /** @param {Iterable<Element>} elements */
  const scanElements = (elements) => {
    for (const el of elements) {
      const any = /** @type {any} */ (el);
      const name = el.localName;
      const shadow = any.shadowRoot || lib.closedRoots.get(el);
      if (shadow) scanRoot(shadow);
      else if (name.includes("-") && !met.has(el)) {
        met.add(el);
        queued.push(el);
      }
      if (name === "iframe" || name === "frame") {
        const doc = documentOf(any);
        frames.set(any, doc);
        if (doc) scanRoot(doc);
      }
    }
  };

  /** @param {Document | ShadowRoot} root */
  const scanRoot = (root) => {
    if (root.nodeType === 11 && !noted.has(root)) {
      noted.add(root);
      seen.add(new WeakRef(/** @type {ShadowRoot} */ (root)));
    }
    watcher.observe(root, WATCH);
    scanElements(root.querySelectorAll("*"));
  };

  /** Whether the next extract must scan the whole page. */
  const wholeScanDue = () => inserted === null || wholeScanAt === null || performance.now() - wholeScanAt > WHOLE_SCAN_MS
    || [...frames].some(([frame, doc]) => documentOf(frame) !== doc);

  /**
   * Bring `seen` and `queued` up to date: scan what was inserted since the last scan, or (`whole`, when due)
   * the whole page. A host put back into the page is an insertion: its root is scanned again then.
   * @param {boolean} whole
   */
  const refresh = (whole) => {
    if (whole && wholeScanDue()) {
      watcher.disconnect();
      seen = new Set();
      noted = new WeakSet();
      frames = new Map();
      inserted = [];
      wholeScanAt = performance.now();
      scanRoot(document);
      return;
    }
    if (inserted === null) return;
    const added = inserted;
    inserted = [];
    for (const el of added) if (el.isConnected) scanElements([el, ...el.querySelectorAll("*")]);
  };

  /**
   * Custom elements not checked yet for a closed shadow root (at most MAX_PENDING; null if none).
   * @returns {Element[] | null}
   */
  lib.pendingHosts = () => {
    refresh(true);
    const defined = undefinedHosts.filter((el) => el.isConnected && el.matches(":defined")).slice(0, MAX_PENDING);
    undefinedHosts = undefinedHosts.filter((el) => el.isConnected && !defined.includes(el));
    // A definition's constructor may have attached an open root too: what it holds is scanned now.
    for (const el of defined) if (/** @type {any} */ (el).shadowRoot) scanRoot(/** @type {any} */ (el).shadowRoot);
    const fresh = queued.slice(0, MAX_PENDING - defined.length).filter((el) => el.isConnected);
    queued = queued.slice(MAX_PENDING - defined.length);
    for (const el of fresh) if (!el.matches(":defined")) undefinedHosts.push(el);
    const out = [...defined, ...fresh];
    return out.length ? out : null;
  };

  /**
   * The shadow roots (open and closed) in the page, or null before the first scan.
   * @returns {ShadowRoot[] | null}
   */
  lib.shadowRoots = () => {
    if (wholeScanAt === null) return null;
    refresh(false);
    /** @type {ShadowRoot[]} */
    const live = [];
    for (const ref of seen) {
      const root = ref.deref();
      if (root && root.host && root.host.isConnected) live.push(root);
      else if (!root) seen.delete(ref);
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
        scanRoot(root);
        added++;
      }
    }
    return added;
  };
}
