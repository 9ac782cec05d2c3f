/**
 * In-page halves of the pointer actions (click, hover, drag): what is at a
 * point, and which elements really received an action's pointer events.
 * Sent to the page as source text, each function with what it declares it
 * uses (page/page-code.js).
 */

import { startCounting } from "./effects.js";
import { definePageFunction } from "./page-code.js";
import { describeElement, hiddenReason } from "./functions.js";

/**
 * The deepest element at a point of the document's viewport: into open shadow roots, closed ones extract
 * found, and same-origin frames (their viewport coordinates translated).
 * @param {any} doc
 * @param {number} x
 * @param {number} y
 * @returns {any} an Element or null
 */
export function deepElementAt(doc, x, y) {
  let hit = doc.elementFromPoint(x, y);
  const closed = globalThis.__bua && globalThis.__bua.closedRoots;
  for (let depth = 0; hit && depth < 32; depth++) {
    const root = hit.shadowRoot || (closed && closed.get(hit));
    if (root) {
      const inner = root.elementFromPoint(x, y);
      if (inner && inner !== hit) {
        hit = inner;
        continue;
      }
    }
    if (hit.tagName !== "IFRAME" && hit.tagName !== "FRAME") break;
    let inner = null;
    try {
      inner = hit.contentDocument;
    } catch {
      inner = null;
    }
    if (!inner) break;
    const box = hit.getBoundingClientRect();
    x -= box.left + hit.clientLeft;
    y -= box.top + hit.clientTop;
    const next = inner.elementFromPoint(x, y);
    if (!next) break;
    hit = next;
  }
  return hit;
}
definePageFunction(deepElementAt);

/**
 * The control a person operates through `el`: the element itself or its nearest ancestor that is a link,
 * button, form control, ARIA widget, has a click attribute or tabindex, or has an input listener extract saw
 * and is small enough to be one control (extract/page-clickable.js: the same elements extract lists as
 * clickable) — null when there is none.
 * @param {any} el
 * @returns {any}
 */
export function controlOf(el) {
  const CONTROL = "a[href], button, input, select, textarea, label, summary, [role=button], [role=link], "
    + "[role=tab], [role=menuitem], [role=option], [role=checkbox], [role=radio], [role=switch], [role=slider], "
    + "[role=treeitem], [onclick], [tabindex], [contenteditable=''], [contenteditable=true], [draggable=true]";
  const MAX_CONTROL_ELEMENTS = 30;
  const lib = globalThis.__bua;
  const listened = (/** @type {any} */ node) => Boolean(lib && typeof lib.isListened === "function" && lib.isListened(node))
    && node.getElementsByTagName("*").length <= MAX_CONTROL_ELEMENTS;
  for (let node = el; node; node = node.parentElement || (node.getRootNode && node.getRootNode().host) || null) {
    if (node.nodeType === 1 && typeof node.matches === "function" && (node.matches(CONTROL) || listened(node))) return node;
  }
  return null;
}
definePageFunction(controlOf);

/**
 * `span.icon "★" in button#fav "Favourite"`: the element, and the control it belongs to when that is an
 * ancestor (what a person would say they clicked).
 * @param {any} el
 * @returns {string}
 */
export function describeReceiver(el) {
  if (!el) return "";
  const control = controlOf(el);
  if (!control || control === el) return describeElement(el);
  return `${describeElement(el)} in ${describeElement(control)}`;
}
definePageFunction(describeReceiver, { uses: [controlOf, describeElement] });

/**
 * In the page: note which elements receive the pointer events of one action, until readRecording stops it.
 * `this` is the aimed element (its description stands for events inside it) or nothing (a point).
 * @this {any}
 * @param {string} token
 * @param {string} [name] the element's description when the caller has just made it (aim.js aimAndCount)
 * @returns {boolean}
 */
export function startRecording(token, name) {
  const all = globalThis.__buaPointer || (globalThis.__buaPointer = {});
  for (const done of Object.keys(all)) if (all[done].stopped) delete all[done];
  const target = this && this.nodeType === 1 ? this : null;
  const doc = target ? target.ownerDocument : document;
  // What a replacement of the target (on hover) must belong to for the input to still count as aimed: the
  // control around it, else its parent (not the page itself).
  const own = target ? controlOf(target) : null;
  let anchor = own && own !== target ? own : target ? controlOf(target.parentElement) : null;
  if (!anchor && target && target.parentElement && !/^(BODY|HTML)$/.test(target.parentElement.tagName)) anchor = target.parentElement;
  /** @type {{target: any, anchor: any, targetName: string, first: Record<string, any>, last: Record<string, any>,
   *   views: any[], types: string[], listener: (event: any) => void, stopped: boolean}} */
  const state = { target, anchor, targetName: target ? name ?? describeElement(target) : "", first: {}, last: {}, views: [],
    types: [], listener: () => {}, stopped: false };
  state.listener = (/** @type {any} */ event) => {
    const path = typeof event.composedPath === "function" ? event.composedPath() : [];
    let el = path.length > 0 ? path[0] : event.target;
    if (el && el.nodeType !== 1) el = el.parentElement || el.host || null;
    if (!(event.type in state.first)) state.first[event.type] = { el, event };
    state.last[event.type] = { el, event };
  };
  const views = [doc.defaultView];
  for (let i = 0; i < views.length; i++) {
    for (const frame of views[i].document.querySelectorAll("iframe, frame")) {
      try {
        if (frame.contentWindow && frame.contentWindow.document) views.push(frame.contentWindow);
      } catch {
        // a cross-site frame: its events are not seen from here
      }
    }
  }
  const types = ["mousedown", "mouseup", "click", "auxclick", "contextmenu", "mouseover", "mousemove", "dragstart",
    "drop", "dragend"];
  for (const view of views) for (const type of types) view.addEventListener(type, state.listener, { capture: true, passive: true });
  state.views = views;
  state.types = types;
  all[token] = state;
  return true;
}
definePageFunction(startRecording, { uses: [controlOf, describeElement] });

/**
 * In the page: the recording's name of its target made again (after the pixels found some of its text hidden:
 * their verdicts are held, page-pixels.js pixelHold).
 * @param {string} token
 */
export function redescribeRecording(token) {
  const state = (globalThis.__buaPointer || {})[token];
  if (state && state.target) state.targetName = describeElement(state.target);
}
definePageFunction(redescribeRecording, { uses: [describeElement] });

/**
 * In the page: who received the recorded events so far (`stop` ends the recording). An event inside the aimed
 * element is named as the element; one outside it is named by its receiver, with `outside: true`.
 * @param {string} token
 * @param {boolean} stop
 * @returns {null | {received: Record<string, {name: string, outside: boolean}>, drag_started: boolean,
 *   drag_prevented: boolean}}
 */
export function readRecording(token, stop) {
  const all = globalThis.__buaPointer || {};
  const state = all[token];
  if (!state) return null;
  const name = (/** @type {any} */ seen) => {
    const el = seen.el;
    const inside = Boolean(state.target && el && (el === state.target || state.target.contains(el)
      || (el.getRootNode && el.getRootNode().host && state.target.contains(el.getRootNode().host))));
    if (inside) return { name: state.targetName, outside: false };
    return { name: describeReceiver(el), outside: Boolean(state.target) };
  };
  /** @type {Record<string, {name: string, outside: boolean}>} */
  const received = {};
  // A press is named by the first event it made: a label's click is followed by the click it forwards to its
  // control, which is the page's doing, not where the pointer was (hover at that point names the label too).
  for (const type of ["mousedown", "dragstart", "click", "auxclick", "contextmenu"]) {
    if (state.first[type]) received[type] = name(state.first[type]);
  }
  for (const type of ["mouseup", "mouseover", "mousemove", "drop", "dragend"]) {
    if (state.last[type]) received[type] = name(state.last[type]);
  }
  const dragstart = state.first.dragstart;
  const out = { received, drag_started: Boolean(dragstart), drag_prevented: Boolean(dragstart && dragstart.event.defaultPrevented) };
  if (stop) {
    // Stopped, but kept until the next recording starts: a read judged by the pixels is made again with their
    // verdicts (extract/pixel-reads.js), and must find the same events.
    for (const view of state.views) for (const type of state.types) view.removeEventListener(type, state.listener, { capture: true });
    state.stopped = true;
  }
  return out;
}
definePageFunction(readRecording, { uses: [describeReceiver] });

/**
 * In the page, once the pointer has arrived at (x, y): is the aimed element still what is there? Hover can
 * change a target under the pointer (an icon swapped or hidden, a tooltip shown). Answers
 * `ok` (the element is there; or it vanished and what took its place belongs to the same control: `now`
 * names that), `moved` (the element is shown elsewhere: `point` is its new centre), or `covered` (`by` names
 * what is there instead).
 * @param {string} token
 * @param {number} x top-viewport CSS pixels
 * @param {number} y
 */
export function recheckAim(token, x, y) {
  const state = (globalThis.__buaPointer || {})[token];
  const el = state && state.target;
  if (!el) return { status: "ok" };
  const hit = deepElementAt(el.ownerDocument, x, y);
  const within = (/** @type {any} */ node, /** @type {any} */ root) => {
    for (let n = node; n; n = n.parentNode || n.host) if (n === root) return true;
    return false;
  };
  if (el.isConnected && hit && within(hit, el)) return { status: "ok" };
  const label = hit && typeof hit.closest === "function" ? hit.closest("label") : null;
  if (label && label.control === el) return { status: "ok" };
  const why = !el.isConnected ? "replaced" : hiddenReason(el) ? "hidden" : "";
  if (why) {
    if (hit && state.anchor && within(hit, state.anchor)) return { status: "ok", now: describeReceiver(hit), was: state.targetName, why };
    return { status: "covered", by: describeReceiver(hit) || "nothing", was: state.targetName, why };
  }
  const r = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  const left = Math.max(r.left, 0);
  const top = Math.max(r.top, 0);
  const w = Math.min(r.right, view.innerWidth) - left;
  const h = Math.min(r.bottom, view.innerHeight) - top;
  if ((x < r.left || x > r.right || y < r.top || y > r.bottom) && w > 0 && h > 0) {
    return { status: "moved", point: { x: Math.round((left + w / 2) * 100) / 100, y: Math.round((top + h / 2) * 100) / 100 } };
  }
  return { status: "covered", by: describeReceiver(hit) || "nothing", was: state.targetName, why: "" };
}
definePageFunction(recheckAim, { uses: [deepElementAt, hiddenReason, describeReceiver] });

/**
 * In the page: aim at a point of the top viewport, with no element named. Checks the point is inside the
 * viewport, names what is there and starts the effects counter and the recording under `token`.
 * @param {number} x
 * @param {number} y
 * @param {string} token
 */
export function aimAtPoint(x, y, token) {
  const width = window.innerWidth;
  const height = window.innerHeight;
  if (!(x >= 0 && y >= 0 && x < width && y < height)) return { status: "outside", width, height };
  const hit = deepElementAt(document, x, y);
  if (!hit) return { status: "missed", width, height };
  startCounting.call(null, token);
  startRecording.call(null, token);
  return { status: "ok", target: describeReceiver(hit), counting: true };
}
definePageFunction(aimAtPoint, { uses: [deepElementAt, startCounting, startRecording, describeReceiver] });

/**
 * In the page: what aimAtPoint named at (x, y), named again (the pixels' verdicts held: input/aim.js judgedAim); it
 * starts nothing.
 * @param {number} x
 * @param {number} y
 */
export function pointNamedAgain(x, y) {
  const hit = deepElementAt(document, x, y);
  return hit ? { status: "ok", target: describeReceiver(hit) } : { status: "missed" };
}
definePageFunction(pointNamedAgain, { uses: [deepElementAt, describeReceiver] });
