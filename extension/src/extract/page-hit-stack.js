/**
 * In-page: the element stack at a point as the browser paints it, through shadow roots (issue 18). A document's
 * `elementsFromPoint` reports an element inside a shadow root as its host (retargeting), so a box a component
 * paints over its own slotted content reads as the host, which holds the text, and covers nothing. Each host in
 * the stack is asked in turn (its root's own `elementsFromPoint` orders its shadow boxes and its slotted light
 * children as they are painted), and its part of the stack is put in the host's place.
 *
 * - `stackAt(hit, x, y)`: the stack at a viewport point, topmost first, shadow boxes included (open roots, and
 *   closed ones page-shadow.js resolved); the document's own stack when no host is hit (one property read per
 *   element).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageShadow } from "./page-shadow.js";

definePagePart(pageHitStack, { uses: [pageShadow] });

/**
 * Adds stackAt to lib (reads pageShadow's closedRoots).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageHitStack(lib) {
  /** Shadow roots nested deeper than this are left as their hosts. */
  const MAX_DEPTH = 8;

  /** @param {Element} e @returns {ShadowRoot | null} */
  const rootOf = (e) => lib.shadowOf(e);

  /**
   * @param {Document | ShadowRoot} hit @param {number} x @param {number} y @param {number} [depth]
   * @returns {Element[]}
   */
  const stackAt = (hit, x, y, depth = 0) => {
    const stack = hit.elementsFromPoint(x, y);
    if (depth >= MAX_DEPTH || !stack.some((e) => e.getRootNode() === hit && rootOf(e))) return stack;
    /** @type {Element[]} */
    const out = [];
    for (const e of stack) {
      // A root's stack goes on past its host into the trees around it: only hosts of this tree are opened here (a
      // host around it opened again would start this root's stack over, nested roots deep, and lose its order).
      const root = e.getRootNode() === hit ? rootOf(e) : null;
      if (root && root !== hit) {
        const inner = stackAt(root, x, y, depth + 1);
        const at = inner.indexOf(e);
        // What the root paints over its host: its shadow boxes and slotted children, in their paint order (a
        // slotted child the outer stack listed already moves to its place among them).
        for (const k of at < 0 ? [] : inner.slice(0, at)) {
          const was = out.indexOf(k);
          if (was >= 0) out.splice(was, 1);
          out.push(k);
        }
      }
      if (!out.includes(e)) out.push(e);
    }
    return out;
  };
  lib.stackAt = stackAt;
}
