/**
 * screenshot {uid|selector?, full_page?, format?, quality?}: the viewport,
 * one element (clipped to its box), or the whole page, as PNG or JPEG.
 *
 * Images are in CSS pixels (device pixel ratio undone), so what the model
 * sees matches page coordinates. A full page is cut at MAX_HEIGHT px; an
 * image over MAX_BYTES is retaken scaled down; both say so in `note`. A tab
 * that paints nothing (minimised bua window, background tab) is kept
 * painting for the capture (see input/painting.js).
 * Result: {data_url, format, width, height, bytes, scale, origin, viewport, note?}: a pixel (px, py) of the
 * image is the viewport point origin + (px, py) / scale (see pixelMapping).
 */

import { ACTIONS, ActionError, ErrorCode } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { nodeError, onTaskTab, targetElement } from "../targets/action-target.js";
import { frameOffset } from "../input/frame-offset.js";
import { offsetQuads, quadBounds } from "../input/geometry.js";
import { decodedBytes, imageSize } from "./support/image-size.js";
import { keepPainting } from "../input/painting.js";
import { hideBlockedFrames } from "../tabs/blocked-frames.js";

/** The Messages API refuses images over 8,000 px a side or 5 MB: the caps keep every screenshot usable. */
export const MAX_HEIGHT = 8_000;
export const MAX_BYTES = Math.floor(4.75 * 1024 * 1024);
export const CAPTURE_TIMEOUT_MS = 15_000;
/** Smaller captures tried before a screenshot over MAX_BYTES is refused. */
export const MAX_SHRINKS = 3;

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {{x: number, y: number, width: number, height: number, scale: number}} Clip
 */

/**
 * @param {import("./support/context.js").ActionOf<"screenshot">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"screenshot">>}
 */
export async function screenshot(action, ctx) {
  const format = action.format ?? ACTIONS.screenshot.defaults.format;
  const quality = action.quality ?? (format === "jpeg" ? 80 : undefined);
  const hasTarget = action.uid !== undefined || action.selector !== undefined;
  return onTaskTab(action, ctx, async (tabId) => {
    const metrics = await ctx.debugger.send(tabId, "Page.getLayoutMetrics");
    const dpr = devicePixelRatio(metrics);
    /** @type {string[]} */
    const notes = [];
    let clip;
    if (hasTarget) clip = await elementClip(ctx, tabId, action, metrics, notes);
    else if (action.full_page) clip = pageClip(metrics, notes);
    else clip = viewportClip(metrics);
    clip.scale = 1 / dpr;
    /** @type {Record<string, unknown>} */
    const params = { format, captureBeyondViewport: Boolean(hasTarget || action.full_page) };
    if (format === "jpeg") params.quality = quality;
    let data = await capture(ctx, tabId, { ...params, clip });
    // Bytes do not shrink exactly with the area, so scale again while still over (rarely more than once).
    let shrink = 1;
    for (let attempt = 0; decodedBytes(data) > MAX_BYTES; attempt++) {
      if (attempt === MAX_SHRINKS) {
        throw new ActionError(ErrorCode.PAYLOAD_TOO_LARGE, `the screenshot stays over ${(MAX_BYTES / 1024 / 1024).toFixed(2)} MB `
          + `even at ${Math.round(shrink * 100)}%; take jpeg with a lower quality, an element or the viewport`);
      }
      shrink *= Math.sqrt(MAX_BYTES / decodedBytes(data)) * 0.9;
      data = await capture(ctx, tabId, { ...params, clip: { ...clip, scale: clip.scale * shrink } });
    }
    if (shrink < 1) {
      notes.push(`scaled to ${Math.round(shrink * 100)}% to stay under ${(MAX_BYTES / 1024 / 1024).toFixed(2)} MB; use jpeg, an element or the viewport for full detail`);
    }
    const size = imageSize(data) ?? { width: Math.round(clip.width), height: Math.round(clip.height) };
    /** @type {import("./support/context.js").ResultOf<"screenshot">} */
    const result = { data_url: `data:image/${format};base64,${data}`, format, width: size.width, height: size.height, bytes: decodedBytes(data),
      ...pixelMapping(hasTarget ? await ctx.debugger.send(tabId, "Page.getLayoutMetrics").catch(() => metrics) : metrics, clip, size, dpr) };
    if (format === "png" && action.quality !== undefined) notes.push("quality applies to jpeg only; ignored for png");
    if (notes.length > 0) result.note = notes.join("; ");
    return result;
  });
}

/**
 * What screenshot reads of CDP's Page.getLayoutMetrics (CSS pixels, except the device-pixel layoutViewport).
 * @typedef {{pageX: number, pageY: number, clientWidth: number, clientHeight: number}} VisualViewport
 * @typedef {{cssVisualViewport: VisualViewport, cssContentSize: {width: number, height: number},
 *   cssLayoutViewport?: {clientWidth: number}, layoutViewport?: {clientWidth: number}}} LayoutMetrics
 */

/**
 * How the image's pixels map to the points pointer actions take (CSS pixels of the viewport): a pixel (px, py)
 * is the point origin + (px, py) / scale. For the viewport the origin is (0, 0); for the whole page or an
 * element it is where the image's top-left corner is relative to the viewport now (negative above or left of
 * it).
 * @param {LayoutMetrics} metrics Page.getLayoutMetrics, read after any scroll to the element
 * @param {Clip} clip in CSS pixels of the page
 * @param {{width: number, height: number}} size the image's pixels
 * @param {number} dpr
 */
export function pixelMapping(metrics, clip, size, dpr) {
  const vv = metrics.cssVisualViewport;
  const round = (/** @type {number} */ v) => Math.round(v * 100) / 100;
  return {
    scale: clip.width > 0 ? round(size.width / clip.width) : 1,
    origin: { x: round(clip.x - vv.pageX), y: round(clip.y - vv.pageY) },
    viewport: { width: Math.round(vv.clientWidth), height: Math.round(vv.clientHeight), device_pixel_ratio: dpr },
  };
}

/** @param {LayoutMetrics} metrics Page.getLayoutMetrics */
function devicePixelRatio(metrics) {
  const css = metrics.cssLayoutViewport?.clientWidth;
  const device = metrics.layoutViewport?.clientWidth;
  const ratio = css && device ? device / css : 1;
  return Number.isFinite(ratio) && ratio > 0 ? Math.round(ratio * 100) / 100 : 1;
}

/** @param {LayoutMetrics} metrics */
function viewportClip(metrics) {
  const vv = metrics.cssVisualViewport;
  return { x: vv.pageX, y: vv.pageY, width: vv.clientWidth, height: vv.clientHeight, scale: 1 };
}

/**
 * @param {LayoutMetrics} metrics
 * @param {string[]} notes
 */
function pageClip(metrics, notes) {
  const { width, height } = metrics.cssContentSize;
  if (height > MAX_HEIGHT) {
    notes.push(`the page is ${Math.round(height)} px tall; only the top ${MAX_HEIGHT} px are in the image (scroll and take a viewport screenshot for the rest)`);
  }
  return { x: 0, y: 0, width: Math.ceil(width), height: Math.min(Math.ceil(height), MAX_HEIGHT), scale: 1 };
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {import("./support/context.js").ActionOf<"screenshot">} action
 * @param {LayoutMetrics} metrics
 * @param {string[]} notes
 * @returns {Promise<Clip>}
 */
async function elementClip(ctx, tabId, action, metrics, notes) {
  const element = await targetElement(action, ctx, tabId);
  let quads;
  try {
    await ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId);
    ({ quads } = await ctx.debugger.send(tabId, "DOM.getContentQuads", { objectId: element.objectId }, element.sessionId));
  } catch (err) {
    throw err instanceof CdpError ? nodeError(err) : err;
  }
  const offset = element.sessionId === undefined ? { x: 0, y: 0 } : await frameOffset(ctx, tabId, element.sessionId);
  const boxes = offsetQuads(quads ?? [], offset).map(quadBounds).filter((b) => b.width > 0 && b.height > 0);
  if (boxes.length === 0) throw new ActionError(ErrorCode.NOT_INTERACTABLE, "the element has no size on screen (hidden or empty); extract to find a visible one");
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  const { cssVisualViewport: vv } = await ctx.debugger.send(tabId, "Page.getLayoutMetrics").catch(() => metrics);
  let height = bottom - top;
  if (height > MAX_HEIGHT) {
    notes.push(`the element is ${Math.round(height)} px tall; only its top ${MAX_HEIGHT} px are in the image`);
    height = MAX_HEIGHT;
  }
  return { x: left + vv.pageX, y: top + vv.pageY, width: right - left, height, scale: 1 };
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {Record<string, unknown>} params Page.captureScreenshot
 * @returns {Promise<string>} base64
 */
async function capture(ctx, tabId, params) {
  /** @type {unknown} */
  let timer;
  const limit = new Promise((_, reject) => {
    timer = ctx.timers.setTimeout(() => reject(new ActionError(ErrorCode.TIMEOUT,
      `the tab did not paint a screenshot within ${CAPTURE_TIMEOUT_MS / 1000} s; it may be busy or hidden: use extract instead`)), CAPTURE_TIMEOUT_MS);
  });
  const stopPainting = await keepPainting(ctx, tabId, { forCapture: true });
  let showFrames = async () => {};
  try {
    showFrames = await hideBlockedFrames(ctx, tabId);
    const reply = await Promise.race([ctx.debugger.send(tabId, "Page.captureScreenshot", params), limit]);
    return /** @type {any} */ (reply).data;
  } catch (err) {
    if (err instanceof CdpError) throw new ActionError(ErrorCode.INTERNAL_ERROR, `could not take the screenshot: ${err.cdpMessage}; retry once, or use extract`);
    throw err;
  } finally {
    ctx.timers.clearTimeout(timer);
    await showFrames();
    await stopPainting();
  }
}

export { screenshot as handler };
