/**
 * Hit-testing before a click: would the event at the chosen point reach the
 * element, or something on top of it? Runs in the page with `this` = the
 * element (helpers from page-functions.js in scope).
 */

/**
 * @typedef {{status: "ok", target: string}
 *   | {status: "detached"}
 *   | {status: "disabled", reason: string, target: string}
 *   | {status: "covered", by: string, target: string}
 *   | {status: "missed", target: string}} HitResult
 */

/**
 * @this {any} the element
 * @param {number} x point in the element's frame, in the same space as the quads
 * @param {number} y
 * @param {number} quadsLeft left of the union of the element's quads (same space)
 * @param {number} quadsTop
 * @returns {HitResult}
 */
export function hitTestInPage(x, y, quadsLeft, quadsTop) {
  const el = this;
  if (!el.isConnected) return { status: "detached" };
  const target = describeElement(el);
  const disabled = disabledReason(el);
  if (disabled) return { status: "disabled", reason: disabled, target };
  const rect = el.getBoundingClientRect();
  const lx = x - quadsLeft + rect.left;
  const ly = y - quadsTop + rect.top;
  let hit = el.ownerDocument.elementFromPoint(lx, ly);
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(lx, ly);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return { status: "missed", target };
  for (let node = hit; node; node = node.parentNode || node.host) {
    if (node === el) return { status: "ok", target };
  }
  const label = typeof hit.closest === "function" ? hit.closest("label") : null;
  if (label && label.control === el) return { status: "ok", target };
  return { status: "covered", by: describeElement(hit), target };
}

/**
 * The not_interactable message for a hit-test result, or "" when the click can go ahead.
 * @param {HitResult} hit
 * @param {{x: number, y: number}} point
 * @param {string} verb "click" or "hover"
 * @returns {string}
 */
export function hitProblem(hit, point, verb) {
  const at = `(${Math.round(point.x)}, ${Math.round(point.y)})`;
  switch (hit.status) {
    case "ok":
      return "";
    case "disabled":
      return `${hit.target} cannot be used: ${hit.reason}; fill in what it depends on first, or pick another element`;
    case "covered":
      return `${hit.target} is covered by ${hit.by} at ${at}: a ${verb} there would reach that element instead; ` +
        "close or dismiss it first (a dialog, cookie banner or overlay), or scroll, then retry";
    case "missed":
      return `nothing in the page is at ${at} where ${hit.target} should be; scroll or extract again`;
    default:
      return "the element is no longer in the page; extract again";
  }
}
