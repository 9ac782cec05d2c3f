/**
 * The page functions nearly every other page function calls (a short handle for an element, the focused element,
 * why an element is hidden or disabled), and how a call sends a page function: as the source page/page-code.js
 * assembles from its declaration, compiled once and kept by bua's isolated world.
 */

import { declarationOf, definePageFunction, pageSource } from "./page-code.js";

/**
 * A short handle for an element: `tag#id.class1.class2 "text"`, quoting only what a person sees of it (the
 * library's seenLabel, extract/page-seen.js: its visible text, else a seen control's label or placeholder);
 * where the library is missing (it is installed before page functions run: run-in-page.js's libraryContextOf),
 * no text at all rather than text nobody judged. The id and the two class names are the page's words too, and
 * nobody sees them: each is cut to 24 characters (`#ignore-previous-instru…`), so none carries a sentence; the
 * whole handle is page text wherever a result quotes it (app/protocol/actions/shapes.py).
 * @param {any} el an Element (or anything else, which gives "")
 * @returns {string}
 */
export function describeElement(el) {
  if (!el || el.nodeType !== 1) return "";
  const maxName = 24;
  const short = (/** @type {string} */ name) => name.length > maxName ? `${name.slice(0, maxName - 1)}…` : name;
  let out = String(el.tagName).toLowerCase();
  if (el.id) out += `#${short(String(el.id))}`;
  const classes = typeof el.className === "string" ? el.className.trim().split(/\s+/).filter(Boolean) : [];
  for (const name of classes.slice(0, 2)) out += `.${short(name)}`;
  const lib = globalThis.__bua;
  const text = lib && typeof lib.seenLabel === "function" ? lib.seenLabel(el) : "";
  if (text) out += ` "${text}"`;
  return out;
}

/**
 * The element that has focus, looking through shadow roots and same-origin frames.
 * @returns {any}
 */
export function deepActiveElement() {
  /** @type {any} */
  let el = document.activeElement;
  for (;;) {
    if (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    else if (el && (el.tagName === "IFRAME" || el.tagName === "FRAME")) {
      let inner = null;
      try {
        inner = el.contentDocument && el.contentDocument.activeElement;
      } catch {
        inner = null;
      }
      if (!inner || inner === el.contentDocument.body) return el;
      el = inner;
    } else return el;
  }
}

/**
 * Why an element is not visible ("" when it is): visible means a non-empty
 * box and `visibility: visible` (opacity does not count, as in Playwright).
 * @param {any} el
 * @returns {string}
 */
export function hiddenReason(el) {
  if (!el || !el.isConnected) return "it is no longer in the page";
  for (let node = el; node && node.nodeType === 1; node = node.parentElement || (node.getRootNode && node.getRootNode().host)) {
    const style = getComputedStyle(node);
    const where = node === el ? "" : ` on ${describeElement(node).split(" ")[0]}`;
    if (style.display === "none") return `hidden (display:none${where})`;
    if (style.visibility === "hidden" || style.visibility === "collapse") return `hidden (visibility:${style.visibility}${where})`;
    // Where the content is skipped is the library's to say (extract/page-render.js skipsContent: not every box).
    const skips = typeof globalThis.__bua?.skipsContent === "function" ? globalThis.__bua.skipsContent(node, style)
      : style.contentVisibility === "hidden";
    if (skips && node !== el) return `hidden (content-visibility:hidden${where})`;
  }
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 || rect.height === 0) return `hidden (zero size: ${Math.round(rect.width)}×${Math.round(rect.height)})`;
  return "";
}

/**
 * Why the element cannot be used ("" when it can): disabled controls,
 * controls in a disabled fieldset, aria-disabled.
 * @param {any} el
 * @returns {string}
 */
export function disabledReason(el) {
  if (el.disabled === true) return "it is disabled";
  if (typeof el.closest === "function") {
    const fieldset = el.closest("fieldset[disabled]");
    if (fieldset && /^(BUTTON|INPUT|SELECT|TEXTAREA)$/.test(el.tagName)) {
      const legend = fieldset.querySelector(":scope > legend");
      if (!legend || !legend.contains(el)) return "it is inside a disabled fieldset";
    }
    const aria = el.closest("[aria-disabled='true']");
    if (aria) return aria === el ? "it is aria-disabled" : `it is inside an aria-disabled ${describeElement(aria).split(" ")[0]}`;
  }
  return "";
}

definePageFunction(describeElement);
definePageFunction(deepActiveElement);
definePageFunction(hiddenReason, { uses: [describeElement] });
definePageFunction(disabledReason, { uses: [describeElement] });

/**
 * @typedef {{kept: string, keeping: string}} KeptFunction how a call names a page function the world keeps:
 *   `kept` is an expression for the world's copy (undefined when it has none), `keeping` compiles the source
 *   and keeps it for the next call
 * @typedef {{source: string, kept?: KeptFunction}} Assembled
 */

/** What a call answers when its world keeps no copy of the function yet (a new document, or the first call). */
export const NOT_KEPT = "__buaNotKept";

/** @type {WeakMap<Function, Assembled>} the source of each declared page function */
const declaredSources = new WeakMap();

/**
 * The assembled source of a page function: its declaration's closure (page/page-code.js). A function sent to the
 * page without a declaration is a mistake the node test (test/page-code.test.js) catches; here it fails loudly.
 * @param {Function} fn
 * @returns {Assembled}
 */
function entryFor(fn) {
  let entry = declaredSources.get(fn);
  if (!entry) {
    const code = declarationOf(fn);
    if (!code) throw new Error(`page function ${fn.name || "(anonymous)"} has no declaration: definePageFunction it`);
    declaredSources.set(fn, (entry = { source: pageSource(code) }));
  }
  return entry;
}

/**
 * Source of a function declaration for Runtime.callFunctionOn that runs
 * `fn` with `this` and its arguments, with what it uses in scope.
 * @param {Function} fn
 * @returns {string}
 */
export function pageFunction(fn) {
  return entryFor(fn).source;
}

/**
 * A short, stable hash of a text (base 36).
 * @param {string} text
 * @returns {string}
 */
export function textHash(text) {
  let hash = 7;
  for (let i = 0; i < text.length; i++) hash = (Math.imul(hash, 31) + text.charCodeAt(i)) | 0;
  return hash.toString(36);
}

/**
 * The page function as one that bua's isolated world keeps after its first
 * call, so that later calls send a short reference instead of the source:
 * Chrome compiles a function declaration anew on every Runtime.callFunctionOn,
 * which for a click's aiming code (7 KB with its helpers) cost 0.8 ms a call
 * (measured on Chromium 156). The key is the source's hash and length, so an updated
 * extension never runs an older copy. Only for bua's isolated world: the
 * page's own world must not see bua's functions.
 * @param {Function} fn
 * @returns {KeptFunction}
 */
export function keptFunction(fn) {
  const entry = entryFor(fn);
  if (!entry.kept) {
    const key = JSON.stringify(`${textHash(entry.source)}.${entry.source.length}`);
    entry.kept = {
      kept: `(globalThis.__buaKept && globalThis.__buaKept.get(${key}))`,
      keeping: `((f) => ((globalThis.__buaKept || (globalThis.__buaKept = new Map())).set(${key}, f), f))(${entry.source})`,
    };
  }
  return entry.kept;
}

/**
 * The plain call of a kept function: `f` (an expression for it) runs with `this` and the call's arguments.
 * @param {string} f
 */
const withThis = (f) => `function (...args) {\n  const f = ${f};\n  return f ? f.apply(this, args) : { ${JSON.stringify(NOT_KEPT)}: true };\n}`;

/** @type {WeakMap<(f: string) => string, WeakMap<KeptFunction, [string, string]>>} declarations per wrapper and function */
const declared = new WeakMap();

/**
 * The two Runtime.callFunctionOn declarations of a kept function in `wrap`: by reference, and keeping the source.
 * @param {KeptFunction} ref
 * @param {(f: string) => string} wrap the declaration around an expression for the function; it must answer
 *   {[NOT_KEPT]: true} when that expression gives nothing
 * @returns {[string, string]}
 */
function declarationsOf(ref, wrap) {
  let byRef = declared.get(wrap);
  if (!byRef) declared.set(wrap, (byRef = new WeakMap()));
  let both = byRef.get(ref);
  if (!both) byRef.set(ref, (both = [wrap(ref.kept), wrap(ref.keeping)]));
  return both;
}

/**
 * The Runtime.callFunctionOn declaration that runs a kept function with `this` and the call's arguments:
 * the world's copy, or (`keep`) the source, kept. Without a copy it answers {[NOT_KEPT]: true}.
 * @param {KeptFunction} ref
 * @param {boolean} keep
 * @returns {string}
 */
export function keptDeclaration(ref, keep) {
  return declarationsOf(ref, withThis)[keep ? 1 : 0];
}

/**
 * Whether a Runtime.callFunctionOn reply (by value) says the world keeps no copy of the function.
 * @param {{result?: {value?: unknown}} | null | undefined} reply
 */
export function notKept(reply) {
  const value = reply?.result?.value;
  return typeof value === "object" && value !== null && /** @type {Record<string, unknown>} */ (value)[NOT_KEPT] === true;
}

/**
 * Call a kept function: by reference, and once more with the source when the world has no copy yet
 * (the reference runs nothing then, so the retry cannot do anything twice).
 * @param {(functionDeclaration: string) => Promise<any>} call sends Runtime.callFunctionOn (by value)
 * @param {KeptFunction} ref
 * @param {(f: string) => string} [wrap] the declaration around an expression for the function (default: run
 *   it with `this`); it must answer {[NOT_KEPT]: true} when that expression gives nothing. Give the same
 *   function every time: its declarations are made once.
 * @returns {Promise<any>} the reply
 */
export async function callKept(call, ref, wrap = withThis) {
  const [byReference, keeping] = declarationsOf(ref, wrap);
  const reply = await call(byReference);
  return notKept(reply) ? call(keeping) : reply;
}
