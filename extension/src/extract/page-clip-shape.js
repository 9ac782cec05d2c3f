/**
 * In-page: the box a `clip-path: path()` or `clip-path: url(#id)` leaves at most (issue 18), where hit testing
 * cannot judge the shape (text outside the viewport; page-cover.js judges inside it). page-render.js's
 * renderContext meets it with the other clips, as it does a basic shape's.
 *
 * - `clipShapeBox(path, box, el)`: for a path, the bounding box of its points (a curve's control points and an
 *   arc's radii included: the box holds the shape); for a reference to a <clipPath> of the element's tree, the
 *   union of its shapes' boxes (getBBox, through each shape's transform), in the clipPath's units against the
 *   element's border box. null when not known (another document's clipPath, a mask): nothing is clipped here.
 *
 * - `maskBox(cs, el)`: the box a mask whose layers do not repeat paints in (its tiles' size and position).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageClipShape, { uses: [] });

/**
 * Adds clipShapeBox and maskBox to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageClipShape(lib) {
  /** @typedef {{l: number, t: number, r: number, b: number}} Box */
  /** How many numbers each path command takes. */
  const ARITY = /** @type {Record<string, number>} */ ({ m: 2, l: 2, h: 1, v: 1, c: 6, s: 4, q: 4, t: 2, a: 7, z: 0 });

  /** @param {string} d SVG path data @returns {Box | null} the box its points lie in, from the origin */
  const pathBox = (d) => {
    const box = { l: Infinity, t: Infinity, r: -Infinity, b: -Infinity };
    /** @param {number} x @param {number} y */
    const add = (x, y) => {
      box.l = Math.min(box.l, x);
      box.r = Math.max(box.r, x);
      box.t = Math.min(box.t, y);
      box.b = Math.max(box.b, y);
    };
    let [x, y, sx, sy] = [0, 0, 0, 0];
    for (const [, cmd, args] of d.matchAll(/([MmLlHhVvCcSsQqTtAaZz])([^MmLlHhVvCcSsQqTtAaZz]*)/g)) {
      const k = cmd.toLowerCase();
      const rel = cmd !== cmd.toUpperCase();
      const nums = (args.match(/-?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?/gi) ?? []).map(Number);
      if (k === "z") {
        [x, y] = [sx, sy];
        continue;
      }
      const n = ARITY[k];
      if (nums.length < n) return null;
      for (let i = 0; i + n <= nums.length; i += n) {
        const a = nums.slice(i, i + n);
        const [ox, oy] = rel ? [x, y] : [0, 0];
        if (k === "h") x = a[0] + (rel ? x : 0);
        else if (k === "v") y = a[0] + (rel ? y : 0);
        else if (k === "a") {
          const [ex, ey] = [a[5] + ox, a[6] + oy];
          for (const [px, py] of [[x, y], [ex, ey]]) add(px - a[0], py - a[1]), add(px + a[0], py + a[1]);
          [x, y] = [ex, ey];
        } else {
          for (let j = 0; j < n; j += 2) add(a[j] + ox, a[j + 1] + oy);
          [x, y] = [a[n - 2] + ox, a[n - 1] + oy];
        }
        add(x, y);
        if (k === "m" && i === 0) [sx, sy] = [x, y];
      }
    }
    return box.l <= box.r ? box : null;
  };

  /**
   * @param {Element} clip a <clipPath> @param {DOMRect} box the clipped element's border box @returns {Box | null}
   */
  const clipPathElementBox = (clip, box) => {
    let out = null;
    for (const shape of clip.children) {
      const any = /** @type {any} */ (shape);
      if (typeof any.getBBox !== "function") continue;
      const b = any.getBBox();
      const m = any.transform?.baseVal?.consolidate()?.matrix;
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height], [b.x + b.width, b.y + b.height]]
        .map(([px, py]) => (m ? [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f] : [px, py]));
      const xs = corners.map((c) => c[0]);
      const ys = corners.map((c) => c[1]);
      const part = { l: Math.min(...xs), t: Math.min(...ys), r: Math.max(...xs), b: Math.max(...ys) };
      out = out ? { l: Math.min(out.l, part.l), t: Math.min(out.t, part.t), r: Math.max(out.r, part.r), b: Math.max(out.b, part.b) } : part;
    }
    if (!out) return { l: box.left, t: box.top, r: box.left, b: box.top }; // an empty clipPath clips everything away
    const m = /** @type {any} */ (clip).transform?.baseVal?.consolidate()?.matrix;
    if (m && (m.b !== 0 || m.c !== 0)) return null; // turned: not worked out here
    if (m) out = { l: out.l * m.a + m.e, r: out.r * m.a + m.e, t: out.t * m.d + m.f, b: out.b * m.d + m.f };
    const [w, h] = clip.getAttribute("clipPathUnits") === "objectBoundingBox" ? [box.width, box.height] : [1, 1];
    return { l: box.left + Math.min(out.l, out.r) * w, r: box.left + Math.max(out.l, out.r) * w,
      t: box.top + Math.min(out.t, out.b) * h, b: box.top + Math.max(out.t, out.b) * h };
  };

  /** @param {string} list a computed list of layers @returns {string[]} its items (commas inside functions kept) */
  const layers = (list) => {
    /** @type {string[]} */
    const out = [];
    let [depth, from] = [0, 0];
    for (let i = 0; i < list.length; i++) {
      const c = list[i];
      if (c === "(") depth++;
      else if (c === ")") depth--;
      else if (c === "," && depth === 0) out.push(list.slice(from, i).trim()), (from = i + 1);
    }
    return [...out, list.slice(from).trim()];
  };
  /** @param {string} v a length or percentage @param {number} of @returns {number} */
  const len = (v, of) => (/^-?[\d.]+%$/.test(v) ? (parseFloat(v) / 100) * of : /^-?[\d.]+px$/.test(v) ? parseFloat(v) : NaN);

  /**
   * The box a mask's layers paint in at most, when every layer is an image that does not repeat, of a size and at
   * a position given in lengths or percentages (a 1×1 px mask tile shows 1 px of the element); null otherwise.
   * @param {CSSStyleDeclaration} cs @param {Element} el @returns {Box | null}
   */
  lib.maskBox = (cs, el) => {
    const any = /** @type {any} */ (cs);
    const image = any.maskImage ?? any.webkitMaskImage ?? "none";
    if (!image || image === "none") return null;
    const box = el.getBoundingClientRect();
    const images = layers(image);
    const sizes = layers(any.maskSize ?? any.webkitMaskSize ?? "auto");
    const repeats = layers(any.maskRepeat ?? any.webkitMaskRepeat ?? "repeat");
    const places = layers(any.maskPosition ?? any.webkitMaskPosition ?? "0% 0%");
    /** @type {Box | null} */
    let out = null;
    for (let i = 0; i < images.length; i++) {
      if (images[i] === "none") continue;
      if (!/^no-repeat(\s+no-repeat)?$/.test(repeats[i % repeats.length])) return null;
      const [sw, sh = "auto"] = sizes[i % sizes.length].split(/\s+/);
      const [w, h] = [len(sw, box.width), len(sh === "auto" ? sw : sh, box.height)];
      const [px, py = "50%"] = places[i % places.length].split(/\s+/);
      const [x, y] = [len(px, box.width - w), len(py, box.height - h)];
      if ([w, h, x, y].some(Number.isNaN)) return null;
      const part = { l: box.left + x, t: box.top + y, r: box.left + x + w, b: box.top + y + h };
      out = out ? { l: Math.min(out.l, part.l), t: Math.min(out.t, part.t), r: Math.max(out.r, part.r), b: Math.max(out.b, part.b) } : part;
    }
    return out;
  };

  /**
   * A length that may be a calc() of a percentage and pixels (`calc(100% - 2px)`, as xywh() and rect() compute
   * to inset()), against `of`; NaN for anything else.
   * @param {string} v @param {number} of @returns {number}
   */
  const lengthOf = (v, of) => {
    const calc = /^calc\((.*)\)$/.exec(v.trim());
    if (!calc) return len(v.trim() === "0" ? "0px" : v.trim(), of);
    let sum = 0;
    for (const [, sign, term] of ` + ${calc[1].trim()}`.matchAll(/\s([+-])\s+(\S+)/g)) {
      const x = len(term, of);
      if (Number.isNaN(x)) return NaN;
      sum += sign === "-" ? -x : x;
    }
    return sum;
  };

  /**
   * The box an inset() leaves, its offsets given in lengths, percentages or their calc() (the computed form of
   * xywh() and rect()); null when an offset is anything else.
   * @param {string} args what inset( ) holds @param {DOMRect} box @returns {Box | null}
   */
  const insetBox = (args, box) => {
    const parts = args.split(/\s+round\s+/)[0].trim().match(/calc\([^()]*\)|\S+/g) ?? [];
    const [t = "", r = t, b = t, l = r] = parts;
    if (!t) return null;
    const out = { l: box.left + lengthOf(l, box.width), t: box.top + lengthOf(t, box.height),
      r: box.right - lengthOf(r, box.width), b: box.bottom - lengthOf(b, box.height) };
    return [out.l, out.t, out.r, out.b].some(Number.isNaN) ? null : out;
  };

  /**
   * @param {string} path a computed clip-path @param {DOMRect} box the element's border box @param {Element} el
   * @returns {Box | null}
   */
  lib.clipShapeBox = (path, box, el) => {
    const inset = /^inset\((.*)\)(?:\s+[a-z-]+)?$/s.exec(path);
    if (inset) return insetBox(inset[1], box);
    const p = /^path\((?:\s*(?:nonzero|evenodd)\s*,)?\s*(["'])(.*)\1\s*\)$/s.exec(path);
    if (p) {
      const b = pathBox(p[2]);
      return b && { l: box.left + b.l, t: box.top + b.t, r: box.left + b.r, b: box.top + b.b };
    }
    const u = /^url\(\s*["']?([^"'#)]*)#([^"')]+)["']?\s*\)/.exec(path);
    if (!u || (u[1] && u[1] !== el.ownerDocument.URL.split("#")[0])) return null;
    const root = /** @type {any} */ (el.getRootNode());
    const clip = root.getElementById?.(u[2]) ?? el.ownerDocument.getElementById(u[2]);
    return clip && clip.localName === "clipPath" ? clipPathElementBox(clip, box) : null;
  };
}
