/**
 * In-page: short disambiguating contexts for repeated element names, CSS
 * paths for "scope with this selector" hints, and the classification of
 * regions that the markdown leaves out (navigation, footer, cookie banners,
 * overlays).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";

definePagePart(pageContext, { uses: [pageAria] });

/**
 * Adds contextsFor, cssPath and stripReason to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageContext(lib) {
  const MAX_CONTEXT = 40;
  const CONSENT = /cookie|consent|gdpr|privacy-banner|cmp-/i;
  /** A fixed element covering more of the viewport than this is layout (an app shell), not an overlay. */
  const MAX_OVERLAY_SHARE = 0.5;

  /**
   * Why a region is left out of the markdown (its elements stay listed), or "":
   * navigation, footer (top-level contentinfo), cookie banners (consent-ish
   * id/class/label on a fixed, sticky, dialog or region element) and other
   * overlays (fixed, not a dialog or an open popover, smaller than half the
   * viewport: chat widgets, toasts, floating bars).
   * @param {Element} el
   * @param {string} role
   * @param {CSSStyleDeclaration} cs
   * @returns {string}
   */
  lib.stripReason = (el, role, cs) => {
    if (role === "navigation") return "navigation";
    if (role === "contentinfo") return "footer";
    const floating = cs.position === "fixed" || cs.position === "sticky";
    const tag = `${el.id} ${el.getAttribute("class") || ""} ${el.getAttribute("aria-label") || ""}`;
    if (CONSENT.test(tag) && (floating || role === "dialog" || role === "region" || role === "alertdialog")) return "cookie banner";
    // An open popover is in the top layer, shown by the page as a dialog is: content, not a floating widget.
    if (cs.position !== "fixed" || role === "dialog" || role === "alertdialog" || el.tagName === "DIALOG" || el.matches(":popover-open")) return "";
    const box = el.getBoundingClientRect();
    const view = el.ownerDocument.defaultView;
    const area = view ? view.innerWidth * view.innerHeight : 0;
    return area && box.width * box.height < area * MAX_OVERLAY_SHARE ? "overlay" : "";
  };

  /**
   * A short CSS path that finds this element again (id-anchored where possible).
   * @param {Element} el
   * @returns {string}
   */
  lib.cssPath = (el) => {
    /** @type {string[]} */
    const parts = [];
    let node = /** @type {Element | null} */ (el);
    while (node && parts.length < 6) {
      // An id of up to 24 characters anchors the path (a longer one is the page's words, not a handle: describeElement).
      if (node.id && /^[A-Za-z][\w-]{0,23}$/.test(node.id) && node.ownerDocument.querySelectorAll(`#${node.id}`).length === 1) {
        parts.unshift(`#${node.id}`);
        return parts.join(" > ");
      }
      const tag = node.localName;
      const parent = node.parentElement;
      if (!parent) {
        parts.unshift(tag);
        break;
      }
      const same = [...parent.children].filter((c) => c.localName === tag);
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
      node = parent;
    }
    return parts.join(" > ");
  };

  /**
   * Text of a container minus the element's own name, shortened.
   * @param {Element} container
   * @param {Element} el
   * @param {string} name
   */
  const around = (container, el, name) => {
    if (container.tagName === "TR" || container.getAttribute("role") === "row") {
      for (const cell of container.children) {
        if (cell.contains(el)) continue;
        const text = lib.clean(lib.contentText(cell, 0));
        if (text) return lib.cap(text, MAX_CONTEXT);
      }
    }
    let text = lib.clean(lib.contentText(container, 0));
    if (name && text.includes(name)) text = lib.clean(text.replace(name, " "));
    return lib.cap(text, MAX_CONTEXT);
  };

  /**
   * Contexts for elements whose role and name repeat: the row, list item or
   * section they belong to, else an ordinal.
   * @param {{el: Element, role: string, name: string, row?: Element, li?: Element, head?: string, region?: string}[]} els
   * @returns {string[]} one entry per element ("" where the name is unique)
   */
  lib.contextsFor = (els) => {
    /** @type {Map<string, number[]>} */
    const groups = new Map();
    els.forEach((e, i) => {
      const key = `${e.role}\u0000${e.name}`;
      const members = groups.get(key);
      if (members) members.push(i);
      else groups.set(key, [i]);
    });
    const out = els.map(() => "");
    for (const members of groups.values()) {
      if (members.length < 2) continue;
      for (const i of members) {
        const e = els[i];
        const row = e.row ? around(e.row, e.el, e.name) : "";
        const item = !row && e.li ? around(e.li, e.el, e.name) : "";
        if (row) out[i] = `row: ${row}`;
        else if (item) out[i] = `item: ${item}`;
        else if (e.region) out[i] = `in ${e.region}`;
        else if (e.head) out[i] = `under: ${lib.cap(e.head, MAX_CONTEXT)}`;
      }
      /** @type {Map<string, number>} */
      const counts = new Map();
      for (const i of members) counts.set(out[i], (counts.get(out[i]) ?? 0) + 1);
      /** @type {Map<string, number>} */
      const seen = new Map();
      for (const i of members) {
        if ((counts.get(out[i]) ?? 0) < 2) continue;
        const n = (seen.get(out[i]) ?? 0) + 1;
        seen.set(out[i], n);
        out[i] = out[i] ? `${out[i]} #${n}` : `#${n}`;
      }
    }
    return out;
  };
}
