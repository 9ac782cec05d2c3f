/**
 * Pure geometry for pointer actions: where to press inside an element's
 * content quads, clipped to the viewport.
 */

/**
 * @typedef {{x: number, y: number, width: number, height: number}} Rect
 * @typedef {{x: number, y: number}} Point
 */

/**
 * The bounding rectangle of a CDP quad [x1,y1, x2,y2, x3,y3, x4,y4].
 * @param {number[]} quad
 * @returns {Rect}
 */
export function quadBounds(quad) {
  const xs = [quad[0], quad[2], quad[4], quad[6]];
  const ys = [quad[1], quad[3], quad[5], quad[7]];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/**
 * @param {Rect} a
 * @param {Rect} b
 * @returns {Rect | null}
 */
export function intersect(a, b) {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * The point to press: the centre of the largest part of the element inside
 * the viewport (all in the same coordinates), or why there is none.
 * @param {number[][]} quads DOM.getContentQuads
 * @param {Rect} viewport
 * @returns {{point: Point, box: Rect} | {reason: "no_box" | "outside_viewport"}}
 */
export function pressPoint(quads, viewport) {
  const boxes = quads.map(quadBounds).filter((b) => b.width >= 1 && b.height >= 1);
  if (boxes.length === 0) return { reason: "no_box" };
  /** @type {Rect | null} */
  let best = null;
  for (const box of boxes) {
    const visible = intersect(box, viewport);
    if (visible && (!best || visible.width * visible.height > best.width * best.height)) best = visible;
  }
  if (!best) return { reason: "outside_viewport" };
  return {
    point: { x: Math.round((best.x + best.width / 2) * 100) / 100, y: Math.round((best.y + best.height / 2) * 100) / 100 },
    box: best,
  };
}

/**
 * Move every quad by an offset (a child frame's position in the top page).
 * @param {number[][]} quads
 * @param {Point} offset
 */
export function offsetQuads(quads, offset) {
  return quads.map((q) => q.map((v, i) => v + (i % 2 === 0 ? offset.x : offset.y)));
}

/**
 * The points a drag moves through after the press: `steps` evenly spaced points from `from` (excluded) to
 * `to` (included), rounded to 1/100 px.
 * @param {Point} from
 * @param {Point} to
 * @param {number} steps at least 1
 * @returns {Point[]}
 */
export function dragPath(from, to, steps) {
  const n = Math.max(1, Math.floor(steps));
  const round = (/** @type {number} */ v) => Math.round(v * 100) / 100;
  return Array.from({ length: n }, (_, i) => ({
    x: round(from.x + ((to.x - from.x) * (i + 1)) / n),
    y: round(from.y + ((to.y - from.y) * (i + 1)) / n),
  }));
}
