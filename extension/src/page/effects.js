/**
 * In-page halves of the effects watch (input/effects.js): the mutation, focus and
 * scroll counter an action starts just before its input, and its reading.
 * Sent to the page as source text, each with what it declares it uses
 * (page/page-code.js).
 */

import { definePageFunction } from "./page-code.js";
import { deepActiveElement, describeElement } from "./functions.js";

/**
 * @typedef {{count: number, last: number, target: any, focus: any, scrolled: any, observer: MutationObserver,
 *   scrollTargets: any[], onScroll: (event: any) => void}} EffectsState one action's counters in the page
 */

/**
 * In the page: start counting mutations for one action (`this` = the target element or the global).
 * @this {any}
 * @param {string} token
 */
export function startCounting(token) {
  const all = globalThis.__buaEffects || (globalThis.__buaEffects = {});
  const target = this && this.nodeType === 1 ? this : null;
  /** @type {EffectsState} */
  const state = { count: 0, last: 0, target, focus: deepActiveElement(), scrolled: null,
    observer: /** @type {any} */ (null), scrollTargets: [], onScroll: () => {} };
  state.observer = new MutationObserver((records) => {
    state.count += records.length;
    state.last = performance.now();
  });
  // Scroll events do not bubble, but a capture listener on the window sees those of the page and its
  // elements, and one on each shadow root those inside it (they are not composed). The scroll that aimed the
  // action (scrollIntoView) fires its event later, so positions are noted now and a scroll that left its
  // element where it was does not count. "Where it was" is, on each axis, within a pixel, or still at the end
  // of its range: a page scrolled to its bottom stays there while its length settles (a font or a layout landing
  // after the aim moved it by 2 px in 1 run of 30 here), which no person would call a scroll.
  const doc = target ? target.ownerDocument : document;
  /** @param {number} value @param {number} end */
  const axis = (value, end) => ({ value, end: end > 0 && value >= end - 1 });
  const at = (/** @type {any} */ el) => [axis(el.scrollLeft, el.scrollWidth - el.clientWidth),
    axis(el.scrollTop, el.scrollHeight - el.clientHeight)];
  const still = (/** @type {any} */ el) => {
    const was = positions.get(el);
    return was !== undefined && at(el).every((now, i) => Math.abs(now.value - was[i].value) <= 1 || (now.end && was[i].end));
  };
  const page = doc.scrollingElement || doc.documentElement;
  const positions = new Map([[page, at(page)]]);
  for (let node = target; node; node = node.parentElement || (node.getRootNode && node.getRootNode().host)) {
    positions.set(node, at(node));
  }
  state.scrollTargets = [doc.defaultView];
  state.onScroll = (/** @type {any} */ event) => {
    const el = event.target.nodeType === 9 ? event.target.scrollingElement || event.target.documentElement : event.target;
    if (!el || still(el)) return;
    state.scrolled = el;
    state.last = performance.now();
  };
  const options = { subtree: true, childList: true, attributes: true, characterData: true };
  state.observer.observe(doc, options);
  // Shadow roots are separate trees for a MutationObserver: watch each. The roots extract's scan met (open and
  // closed) come from the library; without one, walk the page for open roots (22 ms on a 37,000-node page).
  const lib = globalThis.__bua;
  const known = lib && typeof lib.shadowRoots === "function" ? lib.shadowRoots() : null;
  if (known) {
    for (const shadow of known) {
      state.observer.observe(shadow, options);
      state.scrollTargets.push(shadow);
    }
  } else {
    const pending = [doc];
    while (pending.length > 0) {
      for (const el of pending.pop().querySelectorAll("*")) {
        if (el.shadowRoot) {
          state.observer.observe(el.shadowRoot, options);
          state.scrollTargets.push(el.shadowRoot);
          pending.push(el.shadowRoot);
        }
      }
    }
  }
  // Same-origin frames are documents of their own (an editor in one takes a key pressed in the page): watch
  // them too. Cross-site frames run elsewhere; an action aimed inside one watches that frame instead.
  const documents = [doc];
  while (documents.length > 0) {
    for (const frame of documents.pop().querySelectorAll("iframe, frame")) {
      let inner = null;
      try {
        inner = frame.contentDocument;
      } catch {
        inner = null;
      }
      if (!inner || !inner.defaultView) continue;
      state.observer.observe(inner, options);
      state.scrollTargets.push(inner.defaultView);
      documents.push(inner);
    }
  }
  for (const where of state.scrollTargets) where.addEventListener("scroll", state.onScroll, { capture: true, passive: true });
  all[token] = state;
  return true;
}
definePageFunction(startCounting, { uses: [deepActiveElement] });

/**
 * In the page: the count so far; with `stop`, also where focus went, and stop counting.
 * @param {string} token
 * @param {boolean} stop
 */
export function readCount(token, stop) {
  const all = globalThis.__buaEffects || {};
  const state = all[token];
  if (!state) return null;
  /** @type {{count: number, quietMs: number, focus: string, scrolled: {what: string, x: number, y: number} | null}} */
  const out = { count: state.count, quietMs: state.last ? performance.now() - state.last : -1, focus: "", scrolled: null };
  const moved = state.scrolled;
  if (moved) {
    const doc = moved.ownerDocument;
    const whole = moved === (doc.scrollingElement || doc.documentElement);
    const frame = doc.defaultView && doc.defaultView.frameElement;
    const what = !whole ? describeElement(moved) : frame ? `frame ${describeElement(frame)}` : "page";
    out.scrolled = { what, x: Math.round(moved.scrollLeft), y: Math.round(moved.scrollTop) };
  }
  if (stop) {
    state.observer.disconnect();
    for (const where of state.scrollTargets) where.removeEventListener("scroll", state.onScroll, { capture: true });
    delete all[token];
    const now = deepActiveElement();
    const ignored = !now || now === state.focus || now === document.body || now === document.documentElement
      || (state.target && (state.target === now || state.target.contains(now)));
    if (!ignored) out.focus = describeElement(now);
  }
  return out;
}
definePageFunction(readCount, { uses: [describeElement, deepActiveElement] });
