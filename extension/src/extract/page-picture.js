/**
 * In-page: the colours a picture paints behind text, sampled rather than assumed (issue 18; page-visibility.js
 * asks):
 *
 * - `picturesOver(rectOf, win)`: whether any picture of the document (an image, video, canvas, SVG, frame) has a
 *   box over the rectangle — a cheap test, so only text that may stand on a picture is hit-tested for it.
 * - `imageShows(image, win)`: whether a computed background-image has a picture that loaded (page-cover.js: one
 *   that failed or was blocked covers nothing).
 * - `pictureSamples(pic, rect, win)`: the colours of the part of a picture behind a rectangle (an <img> drawn
 *   with object-fit fill: the part of its image under the rectangle; any other <img>, or a box's
 *   `background-image: url(…)`: the whole image), read by drawing it into a small canvas. null when they cannot
 *   be read: an image from another origin without CORS (the canvas is tainted), one not decoded yet, a video, a
 *   canvas, a frame or an inline SVG, a background of several layers. A caller keeps the text then: text over a
 *   picture whose colours are unknown is never deleted.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageRender } from "./page-render.js";

definePagePart(pagePicture, { uses: [pageRender] });

/**
 * Adds picturesOver, imageShows and pictureSamples to lib (needs pageRender's factsOf).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pagePicture(lib) {
  const PICTURE_SELECTOR = "img,video,canvas,picture,svg,iframe,object,embed";
  /** Samples per side of the grid a picture's part is read at. */
  const GRID = 12;
  /** @type {any} */
  let pen = null;

  /** @param {() => {left: number, top: number, right: number, bottom: number}} rectOf the text's box @param {Window} win */
  lib.picturesOver = (rectOf, win) => {
    const facts = lib.factsOf(win);
    facts.pictureBoxes ??= [...win.document.querySelectorAll(PICTURE_SELECTOR)].map((p) => p.getBoundingClientRect())
      .filter((b) => b.width >= 8 && b.height >= 8);
    if (!facts.pictureBoxes.length) return false;
    const rect = rectOf();
    return facts.pictureBoxes.some((/** @type {DOMRect} */ b) => b.left < rect.right && b.right > rect.left && b.top < rect.bottom && b.bottom > rect.top);
  };

  /**
   * An image the document already holds, decoded, or null. Only a data: URL or one the page has fetched (its
   * resource timing lists it) is asked for, so reading a picture never sends a request of its own.
   * @param {string} url @param {Document} doc
   */
  const imageAt = (url, doc) => {
    const win = /** @type {any} */ (doc.defaultView);
    if (!url.startsWith("data:") && !win.performance.getEntriesByName(url, "resource").length) return null;
    const img = new win.Image();
    img.src = url; // an image the document already shows completes at once (its list of available images)
    return img.complete && img.naturalWidth ? img : null;
  };

  /**
   * Whether a computed background-image paints a picture: one of its url() images has loaded (one that failed,
   * or was blocked, paints nothing).
   * @param {string} image @param {Window} win
   */
  lib.imageShows = (image, win) => {
    const known = (lib.factsOf(win).imageShows ??= new Map());
    let shows = known.get(image);
    if (shows === undefined) {
      const urls = [...image.matchAll(/url\("?([^")]*)"?\)/g)].map((m) => m[1]);
      shows = urls.length === 0 || urls.some((url) => !!imageAt(url, win.document));
      known.set(image, shows);
    }
    return shows;
  };

  /**
   * @param {Element} pic an element that shows a picture
   * @param {{left: number, top: number, right: number, bottom: number}} rect the text's box
   * @param {Window} win
   * @returns {number[][] | null}
   */
  lib.pictureSamples = (pic, rect, win) => {
    /** @type {any} */
    let img = null;
    let [sx, sy, sw, sh] = [0, 0, 0, 0];
    const cs = win.getComputedStyle(pic);
    if (pic.tagName === "IMG") {
      const el = /** @type {HTMLImageElement} */ (pic);
      if (!el.complete || !el.naturalWidth) return null;
      img = el;
      [sw, sh] = [el.naturalWidth, el.naturalHeight];
      if (cs.objectFit === "fill") {
        const b = el.getBoundingClientRect();
        const fx = sw / Math.max(b.width, 1);
        const fy = sh / Math.max(b.height, 1);
        const l = Math.max(rect.left, b.left);
        const t = Math.max(rect.top, b.top);
        const r = Math.min(rect.right, b.right);
        const bt = Math.min(rect.bottom, b.bottom);
        if (r <= l || bt <= t) return null;
        [sx, sy, sw, sh] = [(l - b.left) * fx, (t - b.top) * fy, Math.max((r - l) * fx, 1), Math.max((bt - t) * fy, 1)];
      }
    } else {
      const layers = cs.backgroundImage.match(/url\(/g)?.length ?? 0;
      const url = /^url\("?([^")]*)"?\)$/.exec(cs.backgroundImage.trim());
      if (layers !== 1 || !url) return null;
      img = imageAt(url[1], pic.ownerDocument);
      if (!img) return null;
      [sw, sh] = [img.naturalWidth, img.naturalHeight];
    }
    pen ??= new OffscreenCanvas(GRID, GRID).getContext("2d", { willReadFrequently: true });
    try {
      pen.clearRect(0, 0, GRID, GRID);
      pen.drawImage(img, sx, sy, sw, sh, 0, 0, GRID, GRID);
      const d = pen.getImageData(0, 0, GRID, GRID).data;
      /** @type {Map<string, number[]>} */
      const seen = new Map();
      for (let i = 0; i < d.length; i += 4) {
        const c = [d[i], d[i + 1], d[i + 2], d[i + 3] / 255];
        seen.set(c.map((v, k) => (k < 3 ? v >> 3 : Math.round(v * 8))).join(), c);
      }
      return [...seen.values()];
    } catch {
      pen = null; // tainted by another origin's image for good: its colours cannot be read, the next picture's can
      return null;
    }
  };
}
