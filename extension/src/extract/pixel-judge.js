/**
 * Text judged from the pixels the browser painted (issue 18), for the texts page code could not decide
 * (page-pixels.js: over or under a canvas, a video, another origin's image or background). Each such text's boxes
 * are captured twice (Page.captureScreenshot with a clip inside the visual viewport): as painted, and with the
 * text's glyphs made transparent (page-pixels.js `pixelMask`). The pixels its glyphs change are the
 * text as a person sees it, whatever paints over or under it; it shows when enough of them stand out from what
 * is painted there without it (the contrast the in-page judgement asks of colours, page-visibility.js). A picture
 * that moves between the two captures (a playing video) changes pixels too, beyond the glyphs' boxes: then the
 * text is judged by its own colours (its inks, page-pixels.js) against the bare capture, a real frame of what is
 * behind it (`inkStandingOut`). Decoded here, in the service worker (createImageBitmap, OffscreenCanvas).
 *
 * Nothing is captured beyond the viewport: Chrome does that by resizing the page's viewport for the capture (the
 * page sees resize events; tests/e2e/test_visibility_pixel_budget.py). A text is judged by its boxes' parts in
 * the visual viewport; one with no part there, or whose part there shows too little while the rest lies out of
 * view, is deferred (`far`: left out with the reason, page-pixels.js, and judged once scrolled into view).
 */

import { frameOffset } from "../input/frame-offset.js";
import { keepPainting } from "../input/painting.js";
import { inkStandingOut, pictureMoved, standingOut } from "./pixel-measure.js";

/** A run shows when at least this many of its pixels stand out, per character (capped at SHOWN_PX). */
export const PX_PER_CHAR = 2;
export const SHOWN_PX = 12;
/** Boxes closer than this (CSS px, down the page) are captured in one clip. */
const CLUSTER_PX = 400;
/** A capture that has not answered in this long (ms) never will (seen: tests/e2e/test_visibility_pixel_budget.py). */
const CAPTURE_MS = 5000;
const PAD = 2;

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./run-in-page.js").Frame} Frame
 * @typedef {{id: number, rects: number[][], chars: number, local?: number, key?: string, inks?: number[][], blend?: string}} Ask a text's
 *   boxes ([x, y, w, h], the top document's CSS px; local: in the viewport of the frame of another origin it is in;
 *   key: its boxes as the page gave them, for the verdict; inks: every colour its glyphs paint, [r, g, b, alpha] each (fill, stroke, shadows), and blend: its
 *   mix-blend-mode)
 * @typedef {{id: number, key: string, hidden: boolean, far?: Side}} Verdict far: not judged, its boxes lie out of
 *   view on that side (hidden till then)
 * @typedef {"above" | "below" | "beside" | "uncaptured"} Side uncaptured: in view, but the capture did not answer in
 *   CAPTURE_MS
 * @typedef {{x: number, y: number, width: number, height: number}} Clip
 * @typedef {{data: Uint8ClampedArray, width: number, height: number, scale: number}} Capture scale: image px per
 *   CSS px (a high-DPI screen's device pixels)
 * @typedef {(mask: number[] | null) => Promise<{value?: unknown}>} Mask paints the texts of these ids transparent (null:
 *   none); its value: the ids of the texts the mask did not paint clear, as it was put on or taken away
 *   (page-pixels.js pixelMask: a page rule that restyles the mask)
 */

/** @param {Ask} ask whether its pixels that stand out are enough to read it by @param {number} count */
export const shows = (ask, count) => count >= Math.min(SHOWN_PX, PX_PER_CHAR * Math.max(ask.chars, 1));

/**
 * The asks in clips, each clip a run of boxes down the page no taller than CLUSTER_PX (a page's far texts are
 * captured apart, not with everything between them).
 * @param {Ask[]} asks @returns {{clip: Clip, asks: Ask[]}[]}
 */
export function clipsOf(asks) {
  const sorted = [...asks].sort((a, b) => top(a) - top(b));
  /** @type {{clip: Clip, asks: Ask[]}[]} */
  const out = [];
  for (const ask of sorted) {
    const [l, t, r, b] = bounds([ask]);
    const last = out[out.length - 1];
    if (last && b - last.clip.y <= CLUSTER_PX) {
      last.asks.push(ask);
      const [L, T, R, B] = bounds(last.asks);
      last.clip = { x: L, y: T, width: R - L, height: B - T };
    } else {
      out.push({ clip: { x: l, y: t, width: r - l, height: b - t }, asks: [ask] });
    }
  }
  return out;
}
/** @param {Ask} a */
const top = (a) => Math.min(...a.rects.map((r) => r[1]));
/** @param {Ask[]} asks @returns {number[]} [left, top, right, bottom], padded, whole px */
const bounds = (asks) => {
  const rects = asks.flatMap((a) => a.rects);
  return [Math.floor(Math.max(0, Math.min(...rects.map((r) => r[0])) - PAD)), Math.floor(Math.max(0, Math.min(...rects.map((r) => r[1])) - PAD)),
    Math.ceil(Math.max(...rects.map((r) => r[0] + r[2])) + PAD), Math.ceil(Math.max(...rects.map((r) => r[1] + r[3])) + PAD)];
};

/**
 * @param {DebuggerController} dbg @param {number} tabId @param {Clip} clip inside the visual viewport
 * @returns {Promise<Capture>}
 */
async function captured(dbg, tabId, clip) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(new CaptureTimeout()), CAPTURE_MS); });
  const { data } = await Promise.race([dbg.send(tabId, "Page.captureScreenshot",
    { format: "png", clip: { ...clip, scale: 1 }, captureBeyondViewport: false, fromSurface: true }), late])
    .finally(() => clearTimeout(timer));
  const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: "image/png" }));
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const pen = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext("2d", { willReadFrequently: true }));
  pen.drawImage(bitmap, 0, 0);
  const image = pen.getImageData(0, 0, bitmap.width, bitmap.height);
  bitmap.close();
  return { data: image.data, width: image.width, height: image.height, scale: image.width / Math.max(clip.width, 1) };
}

/** @param {Capture} a @param {Capture} b */
const samePixels = (a, b) => a.width === b.width && a.height === b.height && a.data.every((v, i) => v === b.data[i]);

/** A capture that did not answer in CAPTURE_MS: its texts are left out unjudged, never kept. */
class CaptureTimeout extends Error {}

/**
 * Where a frame's viewport stands in the tab's top viewport: its <iframe>'s content box in its own session (a
 * frame of another origin in the same process), then that session's place in the tab (an out-of-process frame's,
 * input/frame-offset.js).
 * @param {DebuggerController} dbg @param {Frame} frame @returns {Promise<{x: number, y: number}>}
 */
async function frameOrigin(dbg, frame) {
  const { frameTree } = await dbg.send(frame.tabId, "Page.getFrameTree", {}, frame.sessionId);
  let [x, y] = [0, 0];
  if (frameTree.frame.id !== frame.frameId) {
    const { backendNodeId } = await dbg.send(frame.tabId, "DOM.getFrameOwner", { frameId: frame.frameId }, frame.sessionId);
    const { model } = await dbg.send(frame.tabId, "DOM.getBoxModel", { backendNodeId }, frame.sessionId);
    [x, y] = [model.content[0], model.content[1]];
  }
  const at = await frameOffset(/** @type {any} */ ({ debugger: dbg }), frame.tabId, frame.sessionId);
  return { x: x + at.x, y: y + at.y };
}

/** Tries at one judgement: a capture that never answered, or was taken while the viewport changed, is tried again. */
const ATTEMPTS = 2;
/** Waiting for the viewport to hold still before another try: reads this far apart (ms), at most this many. */
const STILL_MS = 150;
const STILL_READS = 8;

/**
 * The verdicts on texts page code could not decide, from the tab's pixels, captured in the tab's own session (a
 * frame of another origin is painted in the tab too: its texts' boxes are placed in the tab, frameOrigin). The two
 * captures compare only under one viewport: when it changed while they were taken (the window resized, as Chrome's
 * "is debugging this browser" bar comes in after an attach, or the page scrolled), the pixels moved between them and
 * tell nothing; so does a capture that never answered (one taken while the window resizes). Either is tried once
 * more once the viewport holds still; still failing, the texts are left out unjudged ("uncaptured"), never judged
 * from mismatched pixels.
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 * @param {Ask[]} asked
 * @param {Mask} mask
 * @returns {Promise<Verdict[]>}
 */
export async function judgeByPixels(dbg, frame, asked, mask) {
  if (!asked.length) return [];
  /** @type {{verdicts: Verdict[], failed: Ask[]} | null} */
  let last = null;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (attempt) await viewportStill(dbg, frame.tabId);
    last = await judgeOnce(dbg, frame, asked, mask);
    if (!last.failed.length) return last.verdicts;
  }
  const { verdicts, failed } = /** @type {{verdicts: Verdict[], failed: Ask[]}} */ (last);
  return verdicts.concat(failed.map((a) => ({ id: a.id, key: /** @type {string} */ (a.key), hidden: true, far: /** @type {Side} */ ("uncaptured") })));
}

/** @param {any} vv Page.getLayoutMetrics's cssVisualViewport @returns {string} where it stands and its size, to compare */
const viewportKey = (vv) => JSON.stringify([vv.pageX, vv.pageY, vv.clientWidth, vv.clientHeight, vv.scale ?? 1]);
/** @param {DebuggerController} dbg @param {number} tabId @returns {Promise<string>} */
const viewportOf = async (dbg, tabId) => viewportKey((await dbg.send(tabId, "Page.getLayoutMetrics")).cssVisualViewport);

/** Until two reads of the viewport STILL_MS apart agree (at most STILL_READS). @param {DebuggerController} dbg @param {number} tabId */
async function viewportStill(dbg, tabId) {
  let seen = await viewportOf(dbg, tabId);
  for (let i = 0; i < STILL_READS; i++) {
    await new Promise((r) => setTimeout(r, STILL_MS));
    const now = await viewportOf(dbg, tabId);
    if (now === seen) return;
    seen = now;
  }
}

/**
 * One judgement: the texts in view captured as painted and bare, under the viewport read first.
 * @param {DebuggerController} dbg @param {Frame} frame @param {Ask[]} asked @param {Mask} mask
 * The painted clips are captured again after the bare ones: a clip whose pixels differ then (a video that moves, or
 * a first capture of a frame from before the clip took effect) is judged from that later capture by its texts' ink
 * over the bare one (inkStandingOut), never by the difference of the two.
 * @returns {Promise<{verdicts: Verdict[], failed: Ask[]}>} failed: the texts in view whose captures did not answer,
 *   or were taken while the viewport changed (their key set)
 */
async function judgeOnce(dbg, frame, asked, mask) {
  const { cssVisualViewport: vv } = await dbg.send(frame.tabId, "Page.getLayoutMetrics");
  const origin = asked.some((a) => a.local) ? await frameOrigin(dbg, frame) : { x: 0, y: 0 };
  const [dx, dy] = [origin.x + vv.pageX, origin.y + vv.pageY];
  // A verdict is keyed by the boxes as the page gave them (page-pixels.js sameBoxes), placed in the tab to capture.
  const asks = asked.map((a) => ({ ...a, key: JSON.stringify(a.rects),
    rects: a.local ? a.rects.map(([x, y, w, h]) => [x + dx, y + dy, w, h]) : a.rects }));
  const view = { x: vv.pageX, y: vv.pageY, width: vv.clientWidth, height: vv.clientHeight };
  const seen = asks.map((a) => ({ ...a, rects: inView(a.rects, view) }));
  const clips = clipsOf(seen.filter((a) => a.rects.length)).map(({ clip, asks: inClip }) => ({ clip: within(clip, view), asks: inClip }));
  /** @type {Verdict[]} */
  const verdicts = asks.filter((_, i) => !seen[i].rects.length).map((a) => deferred(a, view));
  if (!clips.length) return { verdicts, failed: [] };
  const chromeApi = /** @type {any} */ (globalThis).chrome;
  const stop = await keepPainting(/** @type {any} */ ({ debugger: dbg, tabs: chromeApi?.tabs, windows: chromeApi?.windows }), frame.tabId,
    { forCapture: true });
  const before = viewportKey(vv);
  /** @type {Capture[]} */
  const painted = [];
  /** @type {Capture[]} */
  const bare = [];
  let moved = false;
  /** @type {boolean[]} the clips painted again unlike their first capture */
  const unlike = [];
  /** @type {Set<number>} the texts whose glyphs the page kept painting in the bare capture: left out */
  const undone = new Set();
  try {
    // The first capture of a page just painted may be of a frame from before its last paint (seen: a canvas drawn
    // white on load missing from it, so white text over it read as shown): a throwaway capture brings a fresh frame.
    await captured(dbg, frame.tabId, { x: Math.ceil(view.x), y: Math.ceil(view.y), width: 1, height: 1 });
    for (const { clip } of clips) painted.push(await captured(dbg, frame.tabId, clip));
    undoneOf(await mask(clips.flatMap((c) => c.asks.map((a) => a.id)))).forEach((id) => undone.add(id));
    for (const { clip } of clips) bare.push(await captured(dbg, frame.tabId, clip));
    undoneOf(await mask(null)).forEach((id) => undone.add(id));
    // A picture that moves (a playing video), or after a capture that never answered a frame from before its clip
    // took effect (Chrome applies a clip by moving the view's emulated offset; the image then shows the viewport's
    // top left): painted again, the clip gives other pixels, the pair tells nothing and the ink judges.
    for (const [k, { clip }] of clips.entries()) {
      const again = await captured(dbg, frame.tabId, clip);
      if (!samePixels(painted[k], again)) [painted[k], unlike[k]] = [again, true];
    }
    moved ||= await viewportOf(dbg, frame.tabId) !== before;
  } catch (e) {
    if (!(e instanceof CaptureTimeout)) throw e;
    moved = true;
  } finally {
    await mask(null);
    await stop();
  }
  if (moved) return { verdicts, failed: clips.flatMap((c) => c.asks) };
  const whole = new Map(asks.map((a) => [a.id, a]));
  return { verdicts: verdicts.concat(clips.flatMap(({ clip, asks: inClip }, k) => {
    const f = painted[k].scale;
    /** @param {number[]} r @returns {number[]} the box in the clip's image px */
    const inImage = (r) => [(r[0] - clip.x) * f, (r[1] - clip.y) * f, r[2] * f, r[3] * f];
    // A picture that moved between the captures: each text is judged by its ink over the bare frame instead.
    const moves = unlike[k] || pictureMoved(painted[k], bare[k], inClip.flatMap((a) => a.rects.map(inImage)), PAD * f);
    return inClip.map((ask) => undone.has(ask.id) ? { id: ask.id, key: /** @type {string} */ (whole.get(ask.id)?.key), hidden: true } : verdictOf(ask, /** @type {Ask} */ (whole.get(ask.id)), ask.rects.reduce((n, r) => n + (moves
      ? inkStandingOut(painted[k], bare[k], inImage(r), ask) : standingOut(painted[k], bare[k], inImage(r))), 0) / (f * f), view));
  })), failed: [] };
}

/**
 * @param {Ask} ask its boxes in view @param {Ask} all all its boxes @param {number} count its pixels that stand out
 *   (CSS px) @param {Clip} view @returns {Verdict}
 */
function verdictOf(ask, all, count, view) {
  if (shows(ask, count)) return { id: ask.id, key: all.key ?? JSON.stringify(all.rects), hidden: false };
  // Too little shows in view: hidden when that is all of it, else judged once the rest is in view.
  return sameArea(all.rects, ask.rects)
    ? { id: ask.id, key: all.key ?? JSON.stringify(all.rects), hidden: true } : deferred(all, view);
}

/** @param {{value?: unknown} | undefined} answer a Mask's @returns {number[]} the ids it names */
const undoneOf = (answer) => (Array.isArray(answer?.value) ? answer.value.filter((id) => typeof id === "number") : []);

/** Parts of a box narrower or lower than this (CSS px) in the viewport are out of view. */
const MIN_PART = 1;

/**
 * A text's boxes cut to the viewport (the parts out of view dropped).
 * @param {number[][]} rects [x, y, w, h] @param {Clip} view @returns {number[][]}
 */
export function inView(rects, view) {
  return rects.map(([x, y, w, h]) => {
    const [l, t] = [Math.max(x, view.x), Math.max(y, view.y)];
    const [r, b] = [Math.min(x + w, view.x + view.width), Math.min(y + h, view.y + view.height)];
    return [l, t, r - l, b - t];
  }).filter((r) => r[2] >= MIN_PART && r[3] >= MIN_PART);
}

/** @param {number[][]} a @param {number[][]} b whether the boxes cover the same area (none was cut) */
const sameArea = (a, b) => Math.abs(a.reduce((n, r) => n + r[2] * r[3], 0) - b.reduce((n, r) => n + r[2] * r[3], 0)) < 0.5;

/**
 * @param {Clip} clip @param {Clip} view @returns {Clip} the clip cut to the viewport (whole px inside it), grown to
 *   start at the viewport's top left: Chrome applies a clip by moving the view's emulated offset and may answer with a
 *   frame from before that took effect (seen on a fresh page: the image showed the viewport's top left, and a white
 *   text over a white canvas was read from another place's pixels), which from there is the same frame
 */
const within = (clip, view) => {
  const [l, t] = [Math.ceil(view.x), Math.ceil(view.y)];
  const [r, b] = [Math.min(clip.x + clip.width, Math.floor(view.x + view.width)), Math.min(clip.y + clip.height, Math.floor(view.y + view.height))];
  return { x: l, y: t, width: Math.max(r - l, 1), height: Math.max(b - t, 1) };
};

/**
 * The verdict for a text not judged in view: left out, on the side of the viewport its boxes lie.
 * @param {Ask} ask @param {Clip} view @returns {Verdict}
 */
export function deferred(ask, view) {
  const top = Math.min(...ask.rects.map((r) => r[1]));
  const bottom = Math.max(...ask.rects.map((r) => r[1] + r[3]));
  /** @type {Side} */
  const far = bottom > view.y + view.height ? "below" : top < view.y ? "above" : "beside";
  return { id: ask.id, key: ask.key ?? JSON.stringify(ask.rects), hidden: true, far };
}

/**
 * What the model is told of the texts left out because they lie over a picture out of view (page-pixels.js
 * pixelDeferred): how much, where, and how to have them judged.
 * @param {Record<string, number>} deferred characters by side ("above", "below", "beside")
 * @param {string} [again] the action to call again once there
 */
export function outOfViewNote(deferred, again = "extract") {
  const sides = Object.entries(deferred).filter(([side, n]) => n > 0 && side !== "uncaptured");
  const total = sides.reduce((n, [, c]) => n + c, 0);
  const where = sides.map(([side]) => side).join(" and ");
  const how = { above: "scroll up", below: "scroll down", beside: "scroll sideways" };
  const moves = sides.map(([side]) => how[/** @type {"above" | "below" | "beside"} */ (side)] ?? "scroll").join(" or ");
  const far = total ? `${total} characters of text over pictures ${where} the viewport are left out, not yet judged `
    + `(their pixels are read only in view): ${moves} to them and ${again} again to read what of them shows.` : "";
  const stuck = deferred.uncaptured ? `${deferred.uncaptured} characters of text over pictures are left out, not `
    + `judged: the browser did not capture them in time; ${again} again in a moment.` : "";
  return [far, stuck].filter(Boolean).join(" ");
}
