/**
 * The in-page checks of wait_for (each with what it declares it uses: page/page-code.js; and bua's library: inWorld installs it).
 * Each returns {done, seen}: whether the state is reached, and a sentence
 * about what the page shows, for the timeout message; it quotes only what a person sees (describeElement).
 */

import { definePageFunction } from "./page-code.js";
import { describeElement, hiddenReason } from "./functions.js";

/**
 * Where a check looks: `first`, then the shadow root of each element of the document, open or closed (a closed one
 * the library was handed: extract/closed-roots.js).
 * @template {Document | HTMLElement} T
 * @param {T} first
 * @returns {(T | ShadowRoot)[]}
 */
export function searchRoots(first) {
  const lib = globalThis.__bua;
  /** @type {(T | ShadowRoot)[]} */
  const roots = [first];
  for (const el of document.querySelectorAll("*")) {
    const root = lib && lib.shadowOf ? lib.shadowOf(el) : el.shadowRoot;
    if (root) roots.push(root);
  }
  return roots;
}
definePageFunction(searchRoots);

/**
 * @param {string} selector
 * @param {string} state
 */
export function checkSelector(selector, state) {
  const roots = searchRoots(document);
  /** @type {any[]} */
  let all = [];
  try {
    for (const root of roots) all = all.concat(Array.from(root.querySelectorAll(selector)));
  } catch (err) {
    return { done: false, seen: "", invalid: String(/** @type {any} */ (err).message).split("\n")[0] };
  }
  const visible = all.filter((el) => !hiddenReason(el));
  const done = state === "attached" ? all.length > 0 : state === "detached" ? all.length === 0
    : state === "visible" ? visible.length > 0 : visible.length === 0;
  let seen;
  if (all.length === 0) seen = "the selector matches nothing";
  else if (visible.length === 0) {
    seen = all.length === 1
      ? `the selector matches 1 element but it is ${hiddenReason(all[0])}: ${describeElement(all[0])}`
      : `the selector matches ${all.length} elements, none visible; the first is ${hiddenReason(all[0])}: ${describeElement(all[0])}`;
  } else seen = `the selector matches ${all.length} element(s), ${visible.length} visible, e.g. ${describeElement(visible[0])}`;
  return { done, seen };
}
definePageFunction(checkSelector, { uses: [hiddenReason, describeElement, searchRoots] });

/**
 * Text is visible when a person sees it (the library's judgement, extract/page-seen.js: what extract shows);
 * the page's raw text only tells whether it is there at all (attached), and is never quoted.
 * @param {string} text
 * @param {string} state
 */
export function checkText(text, state) {
  const lib = globalThis.__bua;
  const judged = Boolean(lib && typeof lib.textShows === "function");
  const norm = (/** @type {string} */ s) => s.replace(/\s+/g, " ").toLowerCase();
  const want = norm(text).trim();
  const roots = searchRoots(document.body || document.documentElement);
  let attached = null;
  let visible = null;
  for (const root of roots) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node && !visible; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE)$/.test(parent.tagName)) continue;
      if (!norm(/** @type {any} */ (node).data).includes(want)) continue;
      if (!attached) attached = parent;
      if (judged && norm(lib.seenData(node)).includes(want)) visible = parent;
    }
    if (visible) break;
  }
  const body = document.body || document.documentElement;
  const inText = !visible && judged && norm(body.textContent || "").includes(want) && norm(lib.shownText(body)).includes(want);
  const isVisible = Boolean(visible) || inText;
  const isAttached = isVisible || Boolean(attached) || norm(document.documentElement.textContent || "").includes(want);
  const done = state === "visible" ? isVisible : state === "hidden" ? !isVisible : state === "attached" ? isAttached : !isAttached;
  let seen;
  if (visible) seen = `the text is visible in ${describeElement(visible)}`;
  else if (inText) seen = "the text is visible in the page (across several elements)";
  else if (isAttached) {
    const why = attached ? hiddenReason(attached) : "";
    seen = `the text is in the page but a person cannot see it (${why || "extract leaves it out"})${attached ? `: in ${describeElement(attached)}` : ""}`;
  } else {
    const start = judged ? lib.shownText(body, 200).slice(0, 200) : "";
    seen = `the text is not in the page; title ${JSON.stringify(document.title)}, url ${location.href}, visible text begins ${JSON.stringify(start)}`;
  }
  return { done, seen };
}
definePageFunction(checkText, { uses: [describeElement, hiddenReason, searchRoots] });

/**
 * @this {Element} the element
 * @param {string} state
 */
export function checkElement(state) {
  const el = this;
  const connected = el.isConnected;
  const hidden = connected ? hiddenReason(el) : "";
  const done = state === "attached" ? connected : state === "detached" ? !connected
    : state === "visible" ? connected && !hidden : !connected || Boolean(hidden);
  const seen = !connected ? "the element is no longer in the page"
    : hidden ? `${describeElement(el)} is ${hidden}` : `${describeElement(el)} is visible`;
  return { done, seen };
}
definePageFunction(checkElement, { uses: [hiddenReason, describeElement] });
