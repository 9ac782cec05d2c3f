import { test } from "node:test";
import assert from "node:assert/strict";

import { deepActiveElement, describeElement, disabledReason, hiddenReason } from "../src/page/functions.js";

const HELPERS = [describeElement, deepActiveElement, hiddenReason, disabledReason];
import { dragPath } from "../src/input/geometry.js";
import { hitProblem, hitTestInPage, visiblePart } from "../src/input/hit-test.js";
import { receiver } from "../src/input/aim.js";
import { controlOf, describeReceiver, readRecording, recheckAim } from "../src/page/pointer.js";
import { pixelMapping } from "../src/actions/screenshot.js";

/**
 * A minimal element for the page functions: a box, a computed style, a parent.
 * @param {Record<string, any>} props
 */
function el(props) {
  const node = {
    nodeType: 1, tagName: "DIV", id: "", className: "", innerText: "", isConnected: true, parentNode: null,
    parentElement: null, clientLeft: 0, clientTop: 0, clientWidth: 0, clientHeight: 0, style: {},
    attrs: /** @type {Record<string, string>} */ ({}),
    box: { left: 0, top: 0, right: 10, bottom: 10, width: 10, height: 10 },
    getAttribute(/** @type {string} */ name) { return this.attrs[name] ?? null; },
    closest() { return null; },
    matches() { return false; },
    contains(/** @type {any} */ other) { for (let n = other; n; n = n.parentNode) if (n === this) return true; return false; },
    getBoundingClientRect() { return this.box; },
    getRootNode() { return {}; },
    ...props,
  };
  return node;
}

/** @param {any} child @param {any} parent */
function adopt(child, parent) {
  child.parentNode = parent;
  child.parentElement = parent;
  return child;
}

/** A document whose getComputedStyle answers each element's `style`. */
function documentOf(/** @type {any[]} */ ...nodes) {
  const doc = { body: el({ tagName: "BODY" }), documentElement: el({ tagName: "HTML" }), defaultView: /** @type {any} */ (null) };
  doc.defaultView = { innerWidth: 800, innerHeight: 600, getComputedStyle: (/** @type {any} */ n) => ({ position: "static", overflowX: "visible", overflowY: "visible", pointerEvents: "auto", ...n.style }) };
  for (const n of nodes) n.ownerDocument = doc;
  return doc;
}

/** Run `fn` with the page helpers as globals (as they are in the page). */
function inPage(/** @type {() => any} */ fn) {
  const g = /** @type {any} */ (globalThis);
  const helpers = [...HELPERS, controlOf, describeReceiver, (function deepElementAt(/** @type {any} */ doc, /** @type {number} */ x, /** @type {number} */ y) { return doc.elementFromPoint(x, y); })];
  for (const helper of helpers) g[helper.name] = helper;
  g.getComputedStyle = (/** @type {any} */ n) => ({ display: "block", visibility: "visible", ...n.style });
  // A stand-in for bua's library: what a person sees of an element (extract/page-seen.js) is here its innerText.
  g.__bua = { seenLabel: (/** @type {any} */ n) => String(n.innerText ?? "").replace(/\s+/g, " ").trim() };
  try {
    return fn();
  } finally {
    for (const helper of helpers) delete g[helper.name];
    delete g.getComputedStyle;
    delete g.__bua;
  }
}

test("a drag moves in even steps and ends exactly at its destination", () => {
  assert.deepEqual(dragPath({ x: 0, y: 0 }, { x: 100, y: -50 }, 4),
    [{ x: 25, y: -12.5 }, { x: 50, y: -25 }, { x: 75, y: -37.5 }, { x: 100, y: -50 }]);
  assert.deepEqual(dragPath({ x: 1, y: 1 }, { x: 2, y: 2 }, 0), [{ x: 2, y: 2 }], "at least one step");
  assert.deepEqual(dragPath({ x: 0, y: 0 }, { x: 10, y: 0 }, 3).map((p) => p.x), [3.33, 6.67, 10]);
});

test("the visible part of an element is cut by every scroll box around it, not only by the viewport", () => {
  const box = el({ id: "box", style: { overflowY: "auto", overflowX: "hidden" }, clientWidth: 300, clientHeight: 120,
    box: { left: 20, top: 50, right: 320, bottom: 170, width: 300, height: 120 } });
  const button = adopt(el({ tagName: "BUTTON" }), box);
  documentOf(box, button);
  const below = { left: 30, top: 450, right: 130, bottom: 480 };
  const cut = visiblePart(button, below, 800, 600);
  assert.equal(cut.box, null, "inside the viewport, but below the box's visible part");
  assert.equal(cut.clipper, box);
  const half = visiblePart(button, { left: 30, top: 150, right: 130, bottom: 190 }, 800, 600);
  assert.deepEqual(half.box, { left: 30, top: 150, w: 100, h: 20 });
  const fixedButton = adopt(el({ tagName: "BUTTON", style: { position: "fixed" } }), box);
  documentOf(box, fixedButton);
  assert.deepEqual(visiblePart(fixedButton, below, 800, 600).box, { left: 30, top: 450, w: 100, h: 30 },
    "a fixed element escapes its ancestors' clipping");
});

test("an element cut off inside its container is named as cut off, not as covered by it", () => {
  const box = el({ id: "clipped" });
  const button = adopt(el({ tagName: "BUTTON", innerText: "Cut" }), box);
  documentOf(box, button);
  button.ownerDocument.elementFromPoint = () => box;
  const hit = inPage(() => hitTestInPage.call(button, 5, 5, 0, 0));
  assert.deepEqual(hit, { status: "clipped", by: "div#clipped", target: 'button "Cut"' });
  assert.match(hitProblem(hit, { x: 5, y: 5 }, "click"), /is not drawn at \(5, 5\): it is cut off inside div#clipped \(nothing covers it\)/);
  const page = el({ tagName: "BODY" });
  const scroller = adopt(el({ id: "list", style: { overflowY: "auto" } }), page);
  const row = adopt(el({ tagName: "BUTTON", innerText: "Row 9" }), scroller);
  documentOf(page, scroller, row);
  row.ownerDocument.elementFromPoint = () => page;
  assert.equal(inPage(() => hitTestInPage.call(row, 5, 5, 0, 0)).by, "div#list", "the scroll box is named, not the page behind it");
  const icon = adopt(el({ tagName: "svg", style: { pointerEvents: "none" } }), box);
  documentOf(box, icon);
  icon.ownerDocument.elementFromPoint = () => box;
  assert.equal(inPage(() => hitTestInPage.call(icon, 5, 5, 0, 0)).status, "ok", "events pass through it to its container");
});

test("a receiver is named with the control it belongs to", () => {
  const button = el({ tagName: "BUTTON", id: "fav", innerText: "★", matches: () => true });
  const icon = adopt(el({ tagName: "SPAN", className: "icon lit", innerText: "★" }), button);
  assert.equal(inPage(() => describeReceiver(icon)), 'span.icon.lit "★" in button#fav "★"');
  assert.equal(inPage(() => describeReceiver(button)), 'button#fav "★"');
  assert.equal(inPage(() => describeReceiver(el({ tagName: "CANVAS", id: "board" }))), "canvas#board");
});

test("once the pointer has arrived: a swapped icon inside the same button is fine, a card on top is not", () => {
  const button = el({ tagName: "BUTTON", id: "fav", matches: () => true });
  const icon = adopt(el({ tagName: "SPAN", id: "icon" }), button);
  const lit = adopt(el({ tagName: "SPAN", className: "lit" }), button);
  const card = el({ id: "card" });
  documentOf(button, icon, lit, card);
  const g = /** @type {any} */ (globalThis);
  g.__buaPointer = { t1: { target: icon, anchor: button, targetName: "span#icon" } };
  try {
    icon.ownerDocument.elementFromPoint = () => icon;
    assert.deepEqual(inPage(() => recheckAim("t1", 5, 5)), { status: "ok" });
    icon.isConnected = false;
    icon.ownerDocument.elementFromPoint = () => lit;
    assert.deepEqual(inPage(() => recheckAim("t1", 5, 5)),
      { status: "ok", now: "span.lit in button#fav", was: "span#icon", why: "replaced" });
    icon.ownerDocument.elementFromPoint = () => card;
    assert.equal(inPage(() => recheckAim("t1", 5, 5)).status, "covered");
    icon.isConnected = true;
    icon.box = { left: 100, top: 100, right: 120, bottom: 110, width: 20, height: 10 };
    assert.deepEqual(inPage(() => recheckAim("t1", 5, 5)), { status: "moved", point: { x: 110, y: 105 } });
  } finally {
    delete g.__buaPointer;
  }
});

test("the recording names events inside the target as the target, and others by their receiver", () => {
  const button = el({ tagName: "BUTTON", id: "go", innerText: "Go" });
  const inner = adopt(el({ tagName: "SPAN", innerText: "Go" }), button);
  const other = el({ tagName: "A", id: "away", innerText: "Away" });
  const g = /** @type {any} */ (globalThis);
  const prevented = { defaultPrevented: true };
  g.__buaPointer = { t2: { target: button, targetName: 'button#go "Go"', views: [], types: [],
    first: { mousedown: { el: inner }, dragstart: { el: inner, event: prevented }, click: { el: other } },
    last: { click: { el: inner } } } };
  try {
    const read = inPage(() => readRecording("t2", true));
    assert.deepEqual(read.received.mousedown, { name: 'button#go "Go"', outside: false });
    assert.deepEqual(read.received.click, { name: 'a#away "Away"', outside: true }, "a press is named by its first click");
    assert.equal(read.drag_started, true);
    assert.equal(read.drag_prevented, true);
    assert.equal(g.__buaPointer.t2.stopped, true, "stopping ends the recording");
    assert.deepEqual(inPage(() => readRecording("t2", true)).received, read.received, "a stopped recording reads the same again (a read the pixels judge is made twice)");
  } finally {
    delete g.__buaPointer;
  }
});

test("what received the input: the aim when nothing says otherwise, and a note when it went elsewhere", () => {
  assert.deepEqual(receiver(null, ["click"], 'button "Go"', ""), { name: 'button "Go"', note: "" });
  const inside = { received: { click: { name: 'button "Go"', outside: false } }, drag_started: false, drag_prevented: false };
  assert.deepEqual(receiver(inside, ["click", "mousedown"], 'button "Go"', ""), { name: 'button "Go"', note: "" });
  const away = { received: { mousedown: { name: "span.lit in button#fav", outside: true } }, drag_started: false, drag_prevented: false };
  assert.deepEqual(receiver(away, ["click", "mousedown"], "span#icon", "span#icon was replaced when the pointer arrived (on hover)"),
    { name: "span.lit in button#fav", note: "span#icon was replaced when the pointer arrived (on hover), and the input went to span.lit in button#fav" });
});

test("a screenshot's pixels map to viewport points through its origin and scale", () => {
  const metrics = { cssVisualViewport: { pageX: 0, pageY: 200, clientWidth: 1280, clientHeight: 720 } };
  assert.deepEqual(pixelMapping(metrics, { x: 0, y: 200, width: 1280, height: 720, scale: 1 }, { width: 1280, height: 720 }, 1),
    { scale: 1, origin: { x: 0, y: 0 }, viewport: { width: 1280, height: 720, device_pixel_ratio: 1 } });
  const full = pixelMapping(metrics, { x: 0, y: 0, width: 1280, height: 4000, scale: 1 }, { width: 640, height: 2000 }, 2);
  assert.deepEqual(full.origin, { x: 0, y: -200 }, "the page's top is 200 px above the viewport");
  assert.equal(full.scale, 0.5, "an image shrunk to stay under the size cap");
});
