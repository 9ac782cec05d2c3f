/**
 * In-page: closed shadow roots, which page JavaScript (and so the library) cannot reach by itself, and the one
 * accessor every reader asks for a host's root (`shadowOf`) and a light node's slot (`slotOf`): open and closed
 * alike. A node slotted into a closed root has no `assignedSlot` (the platform hides the slot), so without slotOf a
 * reader climbing from it would skip the root's own styles around the slot (an opacity:0 or clipped wrapper, a cover).
 *
 * `lib.closedRoots` (host → root) is filled by the extension (extract/closed-roots.js): it asks `closedScan()`
 * what to look at — the parts of a whole walk, or only the elements inserted since the last look and the custom
 * elements defined since — describes each with DOM.describeNode {depth: -1, pierce} (which sees closed roots, in
 * same-process frames too), resolves the closed roots into this world with DOM.resolveNode and hands them back
 * through `addClosedRoots(...roots)`. A whole walk is due for a document not walked yet, a frame that loaded
 * another document, too many insertions, and when the last one ended longer ago than CLOSED_WALK_MS or than
 * CLOSED_WALK_SHARE times its own cost: attaching a root to an element already in the page is no insertion (no
 * mutation tells it), so only a whole walk finds it, and describing 4,000 elements costs tens of milliseconds, so a
 * walk hands over WALK_ELEMENTS elements a call: a page with more is walked over several reads.
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
 * next extract. The effects counter of an action never waits for a whole scan.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageShadow);

/**
 * Adds closedRoots, shadowOf, slotOf, closedScan, closedWalked, addClosedRoots and shadowRoots to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageShadow(lib) {
  const MAX_DESCRIBED = 50;
  const MAX_INSERTED = 2000;
  const WHOLE_SCAN_MS = 30_000;
  const CLOSED_WALK_MS = 2000;
  const CLOSED_WALK_SHARE = 20;
  const WALK_ELEMENTS = 4000;
  const WATCH = { childList: true, subtree: true };
  /** @type {WeakMap<Element, ShadowRoot>} */
  lib.closedRoots = new WeakMap();
  /** @type {WeakMap<ShadowRoot, Map<Node, Element>>} per closed root: its slotted nodes' slots (dropped at slotchange) */
  const slotsOf = new WeakMap();
  /** @type {WeakSet<Element>} custom elements met undefined already */
  const met = new WeakSet();
  /** @type {Element[]} custom elements that were not defined yet when met: looked at again once defined */
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
  /** @type {Element[] | null} elements inserted since the extension last looked for closed roots; null: too many */
  let undescribed = [];
  /** @type {{done: number | null, ms: number, frames: Map<any, Document | null>, handed: boolean} | null} the last
   *  whole walk for closed roots: when its last part was handed over (null: parts are left), what it cost so far, the
   *  frames' documents when it began, whether the last call handed parts of it */
  let closedWalk = null;
  /** @type {{node: Element, deep: boolean, size: number}[]} the whole walk's parts not handed over yet */
  let walkLeft = [];
  const watcher = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (inserted) inserted.push(/** @type {Element} */ (node));
        if (undescribed) undescribed.push(/** @type {Element} */ (node));
      }
    }
    if (undescribed && undescribed.length > MAX_INSERTED) undescribed = null;
    if (inserted && inserted.length > MAX_INSERTED) inserted = null;
  });

  /** @param {Element} el @returns {ShadowRoot | null} its shadow root, open or closed (one the extension handed over) */
  lib.shadowOf = (el) => /** @type {any} */ (el).shadowRoot ?? lib.closedRoots.get(el) ?? null;

  /**
   * The slot a light node is drawn through: its assignedSlot, or the slot of its host's closed root it is assigned to.
   * @param {Node} node
   * @returns {Element | null}
   */
  lib.slotOf = (node) => {
    const open = /** @type {any} */ (node).assignedSlot;
    if (open) return open;
    const host = node.parentNode;
    const root = host && host.nodeType === 1 ? lib.closedRoots.get(/** @type {Element} */ (host)) : undefined;
    if (!root) return null;
    let slots = slotsOf.get(root);
    if (!slots) {
      slots = new Map();
      for (const slot of root.querySelectorAll("slot")) {
        for (const n of /** @type {HTMLSlotElement} */ (slot).assignedNodes()) slots.set(n, slot);
      }
      slotsOf.set(root, slots);
    }
    const slot = slots.get(node);
    // A slot taken out of the root fires no slotchange the root hears: its assignment is gone with it.
    return slot && slot.getRootNode() === root ? slot : null;
  };

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
      const shadow = lib.shadowOf(el);
      if (shadow) scanRoot(shadow);
      else if (name.includes("-") && !met.has(el) && !el.matches(":defined")) {
        met.add(el);
        undefinedHosts.push(el);
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

  /** @param {Map<any, Document | null>} known @returns {boolean} whether a frame met holds another document now */
  const framesMoved = (known) => [...known].some(([frame, doc]) => documentOf(frame) !== doc);

  /** Whether the next extract must scan the whole page. */
  const wholeScanDue = () => inserted === null || wholeScanAt === null || performance.now() - wholeScanAt > WHOLE_SCAN_MS
    || framesMoved(frames);

  /**
   * Bring `seen` up to date: scan what was inserted since the last scan, or (`whole`, when due)
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

  /** @param {Element[]} els @returns {Element[]} the connected ones not inside another of them */
  const outermost = (els) => {
    const set = new Set(els.filter((el) => el.isConnected));
    return [...set].filter((el) => {
      for (let n = el.parentNode ?? null; n; n = n.parentNode ?? /** @type {any} */ (n).host ?? null) {
        if (set.has(/** @type {Element} */ (n))) return false;
      }
      return true;
    });
  };

  /**
   * The parts of a whole walk under `el`, in document order: a subtree of at most WALK_ELEMENTS elements is one part
   * described whole (deep); a bigger element is described by itself (its own roots) and its children split in turn.
   * A same-process frame counts its document's elements.
   * @param {Element} el
   * @param {{node: Element, deep: boolean, size: number}[]} out
   */
  const partsOf = (el, out) => {
    const doc = el.localName === "iframe" || el.localName === "frame" ? documentOf(el) : null;
    const size = (doc ?? el).getElementsByTagName("*").length;
    if (size <= WALK_ELEMENTS) {
      out.push({ node: el, deep: true, size: size + 1 });
      return;
    }
    out.push({ node: el, deep: false, size: 1 });
    if (doc) {
      if (doc.documentElement) partsOf(doc.documentElement, out);
      return;
    }
    for (const child of el.children) partsOf(child, out);
  };

  /**
   * What the extension is to describe for closed roots now (extract/closed-roots.js): the next parts of a whole walk
   * (at most WALK_ELEMENTS elements a call, so a big page's walk is spread over several reads), or the elements
   * inserted since its last look and the custom elements defined since (a constructor may have attached a root);
   * null when nothing is. Answered as [...elements described by themselves, ...subtrees, how many of the first].
   * @returns {(Node | number)[] | null}
   */
  lib.closedScan = () => {
    refresh(true);
    const now = performance.now();
    const defined = undefinedHosts.filter((el) => el.isConnected && el.matches(":defined"));
    undefinedHosts = undefinedHosts.filter((el) => el.isConnected && !defined.includes(el));
    // A definition's constructor may have attached an open root too: what it holds is scanned now.
    for (const el of defined) if (/** @type {any} */ (el).shadowRoot) scanRoot(/** @type {any} */ (el).shadowRoot);
    const fresh = undescribed === null ? null : outermost([...undescribed, ...defined]);
    undescribed = [];
    if (!closedWalk || fresh === null || fresh.length > MAX_DESCRIBED || framesMoved(closedWalk.frames)
      || (closedWalk.done !== null && now - closedWalk.done > Math.max(CLOSED_WALK_MS, CLOSED_WALK_SHARE * closedWalk.ms))) {
      closedWalk = { done: null, ms: 0, frames: new Map(frames), handed: false };
      walkLeft = [];
      if (document.documentElement) partsOf(document.documentElement, walkLeft);
    }
    /** @type {Element[]} */
    const heads = [];
    /** @type {Element[]} */
    const deep = fresh ?? [];
    closedWalk.handed = closedWalk.done === null;
    if (closedWalk.done === null) {
      for (let taken = 0; walkLeft.length && taken < WALK_ELEMENTS;) {
        const part = /** @type {{node: Element, deep: boolean, size: number}} */ (walkLeft.shift());
        if (!part.node.isConnected) continue;
        (part.deep ? deep : heads).push(part.node);
        taken += part.size;
      }
      if (!walkLeft.length) closedWalk.done = now;
    }
    return heads.length || deep.length ? [...heads, ...deep, heads.length] : null;
  };

  /** @param {number} ms how long the extension's describing took (a whole walk's parts add up to its cost) */
  lib.closedWalked = (ms) => {
    if (closedWalk && closedWalk.handed) closedWalk.ms += ms;
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
   * @returns {number} how many were new
   */
  lib.addClosedRoots = (...roots) => {
    let added = 0;
    for (const root of roots) {
      if (!root || !root.host || lib.closedRoots.get(root.host) === root) continue;
      lib.closedRoots.set(root.host, root);
      root.addEventListener("slotchange", () => slotsOf.delete(root));
      scanRoot(root);
      added++;
    }
    return added;
  };
}
