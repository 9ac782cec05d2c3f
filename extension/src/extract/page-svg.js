/**
 * In-page: the controls inside an SVG drawing. The walker does not read pictures (page-controls.js SKIP_TAGS),
 * but a chart's slices, a map's regions or a diagram's nodes can be what a person clicks: an SVG element with
 * an input listener (listeners.js), an onclick, a tabindex, a control role, or a link. Each is listed with its
 * label: its own `<title>` (its accessible name), its text (`<text>`), or the one `<text>` of its group
 * (a pie slice and its label drawn side by side).
 *
 * - `svgUnrendered(el)`: whether an SVG element stands in a container SVG never renders (<defs>, <symbol>, a
 *   <mask>'s or a <pattern>'s content…): the visibility judgement hides its text (page-visibility.js hiddenBy).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageClickable } from "./page-clickable.js";

definePagePart(pageSvg, { uses: [pageAria, pageClickable] });

/**
 * Adds svgControls, svgLabel and svgUnrendered to lib (needs pageAria, pageClickable).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageSvg(lib) {
  const SVG_NS = "http://www.w3.org/2000/svg";
  /** SVG's never-rendered containers (SVG 2, 5.6 and 8.2): their content is a resource, painted only where
   * something references it (a <use>, a fill, a clip), never where it stands. */
  const NEVER_RENDERED = new Set(["defs", "symbol", "clipPath", "mask", "pattern", "marker", "linearGradient",
    "radialGradient", "filter"]);

  /**
   * Whether an SVG element stands inside a never-rendered container (text in <defs> or <symbol> is laid out and
   * has boxes, but no pixel of it is painted there). False for any other element.
   * @param {Element} el
   */
  lib.svgUnrendered = (el) => {
    if (el.namespaceURI !== SVG_NS) return false;
    for (let n = /** @type {Element | null} */ (el); n && n.namespaceURI === SVG_NS && n.localName !== "svg"; n = n.parentElement) {
      if (NEVER_RENDERED.has(n.localName)) return true;
    }
    return false;
  };

  /** Most SVG elements looked at per drawing (a map with thousands of paths is read by its listened ones). */
  const MAX_SVG_ELEMENTS = 3000;
  const CONTROL_ROLES = new Set(["button", "link", "checkbox", "radio", "switch", "tab", "menuitem", "option", "slider"]);

  /**
   * Whether the SVG element is something a person operates.
   * @param {Element} el
   */
  const operable = (el) => {
    if (lib.isListened(el) || el.hasAttribute("onclick")) return true;
    const tabindex = el.getAttribute("tabindex");
    if (tabindex !== null && Number(tabindex) >= 0) return true;
    if (el.localName === "a" && (el.hasAttribute("href") || el.hasAttribute("xlink:href"))) return true;
    return CONTROL_ROLES.has(el.getAttribute("role") ?? "");
  };

  /** @param {Element} el an operable SVG element: its control role, a link's, or clickable */
  const roleOf = (el) => {
    const explicit = el.getAttribute("role");
    return explicit && CONTROL_ROLES.has(explicit) ? explicit : el.localName === "a" ? "link" : "clickable";
  };

  /**
   * The operable elements of a drawing (the drawing itself when it is operable), outermost only (a listened group, not its shapes too), with a role.
   * @param {Element} svg
   * @returns {{el: Element, role: string}[]}
   */
  lib.svgControls = (svg) => {
    if (operable(svg)) return [{ el: svg, role: roleOf(svg) }]; // an icon that is itself the button (`<svg onclick>`)
    /** @type {{el: Element, role: string}[]} */
    const out = [];
    /** @type {Element | null} */
    let inside = null;
    const all = svg.getElementsByTagName("*");
    for (let i = 0; i < all.length && i < MAX_SVG_ELEMENTS; i++) {
      const el = all[i];
      if (inside && inside.contains(el)) continue;
      if (!operable(el)) continue;
      inside = el;
      out.push({ el, role: roleOf(el) });
    }
    return out;
  };

  /**
   * The label of an SVG control: its own `<title>`, else its text, else the single `<text>` of its group.
   * @param {Element} el
   * @returns {string}
   */
  lib.svgLabel = (el) => {
    const own = [...el.children].find((c) => c.localName === "title");
    if (own && lib.clean(own.textContent || "")) return lib.clean(own.textContent || "");
    // Drawn text names the control as far as it is seen (page-aria.js contentText judges each text node: a
    // textLength that squeezes it to a line names nothing).
    const seen = (/** @type {Element} */ t) => lib.contentText(t, 0);
    const text = lib.clean([...el.querySelectorAll("text")].map(seen).join(" ") || (el.localName === "text" ? seen(el) : ""));
    if (text) return text;
    const group = el.parentElement;
    const texts = group ? [...group.children].filter((c) => c.localName === "text") : [];
    return texts.length === 1 ? lib.clean(seen(texts[0])) : "";
  };
}
