/**
 * The globals page code may use (test/page-code.test.js): the JavaScript built-ins and the browser's window
 * objects that bua's isolated world has. Anything else a page function names must travel with it, declared.
 * Deliberately short: a name such as `name`, `status` or `top` is a window property too, and would hide a
 * missing helper, so only what page code really uses is here.
 */
export const PAGE_GLOBALS = Object.freeze([
  // JavaScript
  "Array", "ArrayBuffer", "Boolean", "Date", "Error", "Infinity", "JSON", "Map", "Math", "NaN", "Number", "Object",
  "Promise", "RegExp", "Set", "String", "Symbol", "URL", "WeakMap", "WeakRef", "WeakSet", "globalThis", "isFinite",
  "parseFloat", "parseInt", "queueMicrotask", "undefined",
  // the browser: the window and its viewport, and the DOM classes and constants page code tests against
  "document", "window", "location", "performance", "getComputedStyle", "innerWidth", "innerHeight", "scrollX",
  "scrollY", "MutationObserver", "NodeFilter", "Node", "Element", "Window", "Event", "OffscreenCanvas", "CSS",
]);
