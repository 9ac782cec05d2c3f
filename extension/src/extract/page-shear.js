/**
 * In-page: how much the transforms over an element squash its glyphs in their thinnest direction (issue 18).
 * A text's boxes (Range.getClientRects) are the bounding boxes of its transformed glyphs: a shear (`skewX(89deg)`)
 * or a rotation with a squash leaves them wide and tall while each glyph is drawn as a hairline. The linear part
 * of every transform from the element up to the viewport is multiplied, and its smallest singular value is the
 * factor a glyph's thinnest extent is drawn at (1 untransformed, 0.5 at scale(0.5), about 0.01 at skewX(89.4deg)).
 *
 * - `linearThrough(cs, parent, win)`: the transforms' linear part [a, b, c, d] (DOMMatrix order) at an element,
 *   given its parent's (undefined when nothing over it transforms; a 3D matrix by its 2D part, which is what
 *   the projection keeps of a turn);
 * - `leastStretch(m)`: its smallest singular value.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageShear, { uses: [] });

/**
 * Adds linearThrough and leastStretch to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageShear(lib) {
  /**
   * @param {CSSStyleDeclaration} cs @param {number[] | undefined} parent @param {Window} win
   * @returns {number[] | undefined}
   */
  lib.linearThrough = (cs, parent, win) => {
    const t = cs.transform;
    if (!t || t === "none") return parent;
    let m;
    try {
      m = new (/** @type {any} */ (win).DOMMatrixReadOnly)(t);
    } catch {
      return parent;
    }
    const own = [m.a, m.b, m.c, m.d];
    if (!parent) return own;
    const [a, b, c, d] = parent; // parent × own: the parent's transform applies after the element's
    return [a * own[0] + c * own[1], b * own[0] + d * own[1], a * own[2] + c * own[3], b * own[2] + d * own[3]];
  };

  /** @param {number[]} m [a, b, c, d] @returns {number} */
  lib.leastStretch = ([a, b, c, d]) => {
    const s = a * a + b * b + c * c + d * d;
    const det = a * d - b * c;
    return Math.sqrt(Math.max(0, (s - Math.sqrt(Math.max(0, s * s - 4 * det * det))) / 2));
  };
}
