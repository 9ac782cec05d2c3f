/**
 * In-page: the colours a picture paints behind text, sampled rather than assumed (issue 18; page-visibility.js
 * asks):
 *
 * - `picturesOver(rectOf, win)`: whether any picture of the document (an image, video, canvas, SVG, frame) has a
 *   box over the rectangle — a cheap test, so only text that may stand on a picture is hit-tested for it.
 * - `imageShows(image, win)`: whether a computed background-image has a picture that loaded (page-cover.js: one
 *   that failed or was blocked covers nothing).
 * - `pictureReadable(el, cs, win)`: whether page code can read the pixels an element paints as a picture: false
 *   for a canvas, a video, an embed or object (their drawing is not read here, tainted or not), for an image or
 *   a url() background that loaded from another origin without CORS, and for an element masked by a picture page
 *   code cannot read or that is clear in places (maskDecided); true for every other element (page-pixels.js asks
 *   the rendering about text over or inside the others).
 * - `pictureSamples(pic, rect, win)`: the colours of the part of a picture behind a rectangle (an <img> drawn
 *   with object-fit fill, or a box's `background-image: url(…)` where its size, position and repeat draw it: the
 *   part of its image under the rectangle; any other <img>: the whole image), read by drawing it into a small
 *   canvas; an SVG shape: its fill). null when they cannot
 *   be read: an image from another origin without CORS (the canvas is tainted), one not decoded yet, a video, a
 *   canvas, a frame or an inline SVG, a background of several layers. A caller keeps the text then: text over a
 *   picture whose colours are unknown is never deleted.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageColour } from "./page-colour.js";
import { pageRender } from "./page-render.js";

definePagePart(pagePicture, { uses: [pageColour, pageRender] });

/**
 * Adds picturesOver, imageShows and pictureSamples to lib (needs pageRender's factsOf, pageColour's colourOf).
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
   * @param {boolean} [cors] fetched in CORS mode (as a mask-image is, CSS Masking 1): the browser keeps it apart
   */
  const imageAt = (url, doc, cors = false) => {
    const win = /** @type {any} */ (doc.defaultView);
    if (!url.startsWith("data:") && !win.performance.getEntriesByName(url, "resource").length) return null;
    const key = `${cors}|${url}`;
    let img = held.get(key);
    if (!img || img.ownerDocument !== doc) {
      img = new win.Image();
      if (cors) img.crossOrigin = "anonymous";
      img.src = url; // an image the document already shows completes at once (its list of available images)
      if (held.size > 200) held.clear();
      held.set(key, img);
    }
    return img.complete && img.naturalWidth ? img : null;
  };
  /**
   * The images imageAt made, kept across calls: a page the tab stops painting (a minimised window, after a
   * capture) may drop its decoded images, and an image made afresh then completes only later.
   * @type {Map<string, any>}
   */
  const held = new Map();

  /** @type {Map<string, number[]>} per image URL: the least and the most opaque its pixels are (kept across calls) */
  const alphas = new Map();
  /** Pictures are read for their alpha at this size (px a side). */
  const ALPHA_SIZE = 32;
  /** Alphas closer than this are one alpha: a mask of them lets the same through everywhere. */
  const EVEN_ALPHA = 0.02;

  /**
   * The least and the most opaque any part of a loaded picture is, 0..1, or null when page code cannot read it
   * (not loaded yet, or another origin's without CORS: a mask of it paints nothing in Chromium, measured).
   * @param {string} url @param {Document} doc @returns {number[] | null}
   */
  const alphaRange = (url, doc) => {
    const known = alphas.get(url);
    if (known) return known;
    const img = imageAt(url, doc, true);
    if (!img) return null;
    let range = null;
    try {
      const canvas = new OffscreenCanvas(ALPHA_SIZE, ALPHA_SIZE);
      const pen = /** @type {any} */ (canvas.getContext("2d", { willReadFrequently: true }));
      pen.drawImage(img, 0, 0, ALPHA_SIZE, ALPHA_SIZE);
      const data = pen.getImageData(0, 0, ALPHA_SIZE, ALPHA_SIZE).data;
      range = [1, 0];
      for (let i = 3; i < data.length; i += 4) range = [Math.min(range[0], data[i] / 255), Math.max(range[1], data[i] / 255)];
    } catch {
      range = null; // a tainted canvas: its pixels are not the page's to read
    }
    if (!range) return null;
    if (alphas.size > 200) alphas.clear();
    alphas.set(url, range);
    return range;
  };

  /**
   * The most opaque any part of a loaded picture is, 0..1 (a mask's picture lets no more through), or 1 when it
   * cannot be read (not loaded yet, or another origin's: maskDecided sends such a mask to the pixels).
   * @param {string} url @param {Document} doc @returns {number}
   */
  lib.imageMostAlpha = (url, doc) => alphaRange(url, doc)?.[1] ?? 1;

  /**
   * Whether page code can judge what an element's picture masks (`mask-image`, `mask-border-source` and their
   * -webkit- forms) let through: each url() picture reads, and lets the same through all over (page-render.js
   * takes its alpha). A picture that cannot be read (another origin's, not loaded) or that is clear in places
   * (perhaps just where the text is) leaves the element to the pixels (page-pixels.js), as a picture page code
   * cannot read; an SVG <mask> of the document (url(#id)) is judged from its shapes (page-svg-effects.js).
   * @param {CSSStyleDeclaration} cs @param {Document} doc
   */
  const maskDecided = (cs, doc) => {
    const any = /** @type {any} */ (cs);
    const image = any.maskImage ?? any.webkitMaskImage ?? "none";
    const border = any.maskBorderSource ?? any.webkitMaskBoxImageSource ?? "none";
    if (image === "none" && border === "none") return true;
    const images = `${image} ${border} ${any.webkitMaskBoxImageSource ?? ""}`;
    if (!images.includes("url(")) return true;
    const here = doc.URL.split("#")[0];
    for (const m of images.matchAll(/url\("?([^")]*)"?\)/g)) {
      const [base, fragment] = m[1].split("#");
      if (fragment !== undefined && (!base || base === here)) continue; // a <mask> of this document
      const range = alphaRange(m[1], doc);
      if (!range || (range[1] > EVEN_ALPHA && range[1] - range[0] > EVEN_ALPHA)) return false;
    }
    return true;
  };

  const UNREAD = new Set(["CANVAS", "VIDEO", "EMBED", "OBJECT"]);
  /** @type {Map<string, boolean>} per image URL: whether its pixels can be read (kept across calls) */
  const readable = new Map();
  /** @param {any} img a loaded image @param {string} url */
  const pixelsReadable = (img, url) => {
    let can = readable.get(url);
    if (can === undefined) {
      try {
        const probe = /** @type {any} */ (new OffscreenCanvas(1, 1).getContext("2d"));
        probe.drawImage(img, 0, 0, 1, 1);
        probe.getImageData(0, 0, 1, 1);
        can = true;
      } catch {
        can = false; // tainted: another origin's pixels
      }
      if (readable.size > 500) readable.clear();
      readable.set(url, can);
    }
    return can;
  };

  /** @param {Element} el @param {CSSStyleDeclaration} cs @param {Window} win */
  lib.pictureReadable = (el, cs, win) => {
    // Once per style and call: the opaque boxes (page-paint-order.js) and the unreadable pictures (page-pixels.js)
    // ask of the same elements.
    const known = (lib.factsOf(win).readable ??= new WeakMap());
    let can = known.get(cs);
    if (can === undefined) known.set(cs, (can = readableNow(el, cs, win)));
    return can;
  };
  /** @param {Element} el @param {CSSStyleDeclaration} cs @param {Window} win pictureReadable's answer, made afresh */
  const readableNow = (el, cs, win) => {
    if (UNREAD.has(el.tagName) || !maskDecided(cs, win.document)) return false;
    if (el.tagName === "IMG") {
      const img = /** @type {HTMLImageElement} */ (el);
      return !img.complete || !img.naturalWidth || img.currentSrc.startsWith("data:") || pixelsReadable(img, `${img.crossOrigin}|${img.currentSrc}`);
    }
    const image = cs.backgroundImage;
    if (image === "none" || !image.includes("url(")) return true;
    for (const m of image.matchAll(/url\("?([^")]*)"?\)/g)) {
      if (m[1].startsWith("data:")) continue;
      const img = imageAt(m[1], win.document);
      if (img && !pixelsReadable(img, `|${m[1]}`)) return false;
    }
    return true;
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
   * The part of a background image (natural size iw × ih) behind a rectangle, as [sx, sy, sw, sh] in the
   * image's pixels: where background-size (cover, contain, lengths, percentages, auto), background-position and
   * background-repeat draw it in the element's padding box. null when the image is not behind the rectangle.
   * @param {Element} pic @param {CSSStyleDeclaration} cs @param {number} iw @param {number} ih
   * @param {{left: number, top: number, right: number, bottom: number}} rect
   * @returns {number[] | null}
   */
  const backgroundPart = (pic, cs, iw, ih, rect) => {
    const any = /** @type {any} */ (pic);
    const box = pic.getBoundingClientRect();
    const [l, t, w, h] = [box.left + any.clientLeft, box.top + any.clientTop, any.clientWidth || box.width, any.clientHeight || box.height];
    if (!iw || !ih || !w || !h) return null;
    /** @param {string} v @param {number} of */
    const len = (v, of) => (v.endsWith("%") ? (parseFloat(v) / 100) * of : parseFloat(v));
    let [dw, dh] = [iw, ih];
    const size = cs.backgroundSize.split(",")[0].trim();
    if (size === "cover" || size === "contain") {
      const k = (size === "cover" ? Math.max : Math.min)(w / iw, h / ih);
      [dw, dh] = [iw * k, ih * k];
    } else {
      const [sx = "auto", sy = "auto"] = size.split(/\s+/);
      const x = sx === "auto" ? NaN : len(sx, w);
      const y = sy === "auto" ? NaN : len(sy, h);
      dw = Number.isNaN(x) ? (Number.isNaN(y) ? iw : (y * iw) / ih) : x;
      dh = Number.isNaN(y) ? (Number.isNaN(x) ? ih : (x * ih) / iw) : y;
    }
    if (!(dw > 0 && dh > 0)) return null;
    /** @param {string} v a computed position (`50%`, `10px`, `calc(50% + 4px)`) @param {number} room */
    const at = (v, room) => {
      const first = v.split(",")[0].trim();
      const pct = /(-?[\d.]+)%/.exec(first);
      const px = /(-?[\d.]+)px/.exec(first);
      return (pct ? (parseFloat(pct[1]) / 100) * room : 0) + (px ? parseFloat(px[1]) : 0);
    };
    const ox = l + at(cs.backgroundPositionX, w - dw);
    const oy = t + at(cs.backgroundPositionY, h - dh);
    const repeat = cs.backgroundRepeat.split(",")[0].trim();
    const repeatX = !/no-repeat|repeat-y/.test(repeat) || repeat === "repeat no-repeat";
    const repeatY = !/no-repeat|repeat-x/.test(repeat) || repeat === "no-repeat repeat";
    /** @param {number} a @param {number} b the rect's span @param {number} o @param {number} d @param {number} n @param {boolean} tiles */
    const span = (a, b, o, d, n, tiles) => {
      let [u, v] = [(a - o) / d, (b - o) / d];
      if (tiles) {
        if (v - u >= 1) return [0, n];
        const k = Math.floor(u);
        [u, v] = [u - k, v - k];
        if (v > 1) return [0, n]; // across a tile's edge: the whole tile
      }
      [u, v] = [Math.max(0, u), Math.min(1, v)];
      return v > u ? [u * n, Math.max((v - u) * n, 1)] : null;
    };
    const xs = span(rect.left, rect.right, ox, dw, iw, repeatX);
    const ys = span(rect.top, rect.bottom, oy, dh, ih, repeatY);
    return xs && ys ? [xs[0], ys[0], xs[1], ys[1]] : null;
  };

  /** @param {string} image whether its first parenthesis closes at its end (one layer, not `f(…), g(…)`) */
  const closesAtEnd = (image) => {
    let depth = 0;
    let quoted = false;
    for (let i = 0; i < image.length; i++) {
      if (image[i] === '"' && image[i - 1] !== "\\") quoted = !quoted;
      if (quoted) continue;
      if (image[i] === "(") depth++;
      else if (image[i] === ")" && --depth === 0) return i === image.length - 1;
    }
    return false;
  };

  /**
   * The url a one-layer background image draws: `url(…)`, or the candidate of an `image-set()` the browser picks
   * for the display's pixel ratio (the smallest resolution at least it, else the largest); null for anything else
   * (several layers, a gradient).
   * @param {string} image a computed background-image @param {Window} win @returns {string | null}
   */
  const oneLayerUrl = (image, win) => {
    const plain = /^url\("?([^")]*)"?\)$/.exec(image);
    if (plain) return plain[1];
    const set = /^(?:-webkit-)?image-set\((.*)\)$/.exec(image);
    if (!set || !closesAtEnd(image)) return null;
    const options = [...set[1].matchAll(/url\("?([^")]*)"?\)\s*([\d.]+)?(x|dppx)?/g)].map((m) => ({ url: m[1], res: parseFloat(m[2] ?? "1") || 1 }));
    if (!options.length) return null;
    const ratio = win.devicePixelRatio || 1;
    options.sort((a, b) => a.res - b.res);
    return (options.find((o) => o.res >= ratio) ?? options[options.length - 1]).url;
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
    if (pic.namespaceURI === "http://www.w3.org/2000/svg" && pic.tagName !== "svg") {
      // An SVG shape: its fill, when it is a colour.
      const fill = cs.fill === "none" || cs.fill.startsWith("url(") ? null : lib.colourOf(cs.fill);
      return fill ? [[fill[0], fill[1], fill[2], fill[3] * (parseFloat(cs.fillOpacity) || 0)]] : null;
    }
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
      const url = oneLayerUrl(cs.backgroundImage.trim(), win);
      if (!url) return null;
      img = imageAt(url, pic.ownerDocument);
      if (!img) return null;
      const part = backgroundPart(pic, cs, img.naturalWidth, img.naturalHeight, rect);
      if (!part) return null;
      [sx, sy, sw, sh] = part;
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
