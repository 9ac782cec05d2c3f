/**
 * In-page: ARIA role, accessible name and state of an element, computed in
 * the page's isolated world (no Accessibility domain: getFullAXTree is far
 * too slow on big pages, see docs/architecture.md, "Measured facts").
 *
 * `pageAria` is sent to the page as source text (run-in-page.js), so it must
 * be self-contained: no imports, no references to module scope.
 */

import { definePagePart } from "../page/page-code.js";
import { pageClickable } from "./page-clickable.js";
import { pageFields } from "./page-fields.js";
import { pageIconName } from "./page-icon-name.js";
import { pageRender } from "./page-render.js";
import { pageSeen } from "./page-seen.js";
import { pageShadow } from "./page-shadow.js";
import { pageSvg } from "./page-svg.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageAria, { uses: [pageClickable, pageFields, pageIconName, pageRender, pageSeen, pageShadow, pageSvg, pageVisibility] });

/**
 * Adds roleOf, nameOf, unseenPartsOf, statesOf, isInteractive, contentText, namingProhibited and kids to lib (contentText needs pageSeen; nameOf
 * pageIconName).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageAria(lib) {
  /** @type {Record<string, string>} */
  const INPUT_ROLES = {
    button: "button", submit: "button", reset: "button", image: "button", file: "button", color: "button",
    checkbox: "checkbox", radio: "radio", range: "slider", search: "searchbox", number: "spinbutton",
  };
  const INTERACTIVE = new Set([
    "button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "switch", "slider",
    "spinbutton", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem", "listbox",
  ]);
  const SVG_NS = "http://www.w3.org/2000/svg";
  const NAME_FROM_CONTENT = new Set([
    "button", "link", "tab", "menuitem", "menuitemcheckbox", "menuitemradio", "option", "treeitem",
    "checkbox", "radio", "switch", "heading", "cell", "columnheader", "rowheader", "tooltip", "row",
  ]);
  const KNOWN_ROLES = new Set([...INTERACTIVE, "heading", "navigation", "contentinfo", "banner", "dialog",
    "alertdialog", "table", "grid", "row", "cell", "gridcell", "columnheader", "rowheader", "list", "listitem",
    "main", "region", "form", "search", "img", "presentation", "none", "generic", "group", "tablist", "menu",
    "menubar", "tree", "paragraph", "article", "complementary", "alert", "status", "separator"]);
  /** @type {Record<string, string>} */
  const IMPLICIT = {
    BUTTON: "button", TEXTAREA: "textbox", H1: "heading", H2: "heading", H3: "heading", H4: "heading",
    H5: "heading", H6: "heading", NAV: "navigation", MAIN: "main", UL: "list", OL: "list", LI: "listitem",
    TABLE: "table", TR: "row", TD: "cell", TH: "columnheader", DIALOG: "dialog", IMG: "img", FORM: "form",
    ARTICLE: "article", ASIDE: "complementary", SUMMARY: "button", OPTION: "option", HR: "separator",
  };
  const INLINE_TAGS = new Set(["A", "ABBR", "B", "BDI", "BDO", "CITE", "CODE", "DATA", "DFN", "EM", "I", "KBD",
    "LABEL", "MARK", "Q", "S", "SAMP", "SMALL", "SPAN", "STRONG", "SUB", "SUP", "TIME", "U", "VAR", "FONT"]);
  const TEXT_INPUTS = new Set(["text", "search", "email", "tel", "url", "number"]);
  const MAX_NAME = 80;

  /** @param {string} s */
  const clean = (s) => s.replace(/\s+/g, " ").trim();
  /** @param {string} s @param {number} n */
  const cap = (s, n) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
  lib.clean = clean;
  lib.cap = cap;

  /**
   * Child nodes in the flat tree: shadow content (open, or closed roots the
   * extension handed over) with slots filled in.
   * @param {Node} node
   * @returns {Node[]}
   */
  lib.kids = (node) => {
    const el = /** @type {any} */ (node);
    const root = el.shadowRoot || lib.closedRoots?.get(el);
    if (root) return [...root.childNodes];
    if (el.localName === "slot" && el.assignedNodes) {
      const assigned = el.assignedNodes({ flatten: false });
      if (assigned.length) return assigned;
    }
    return [...node.childNodes];
  };

  /** @param {Element} el */
  lib.roleOf = (el) => {
    const explicit = el.getAttribute("role");
    if (explicit) {
      for (const r of explicit.trim().split(/\s+/)) if (KNOWN_ROLES.has(r)) return r;
    }
    const tag = el.tagName;
    if (tag === "A" || tag === "AREA") return el.hasAttribute("href") ? "link" : "generic";
    if (tag === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "hidden") return "none";
      if (INPUT_ROLES[type]) return INPUT_ROLES[type];
      return el.hasAttribute("list") ? "combobox" : "textbox";
    }
    if (tag === "SELECT") {
      return /** @type {any} */ (el).multiple || Number(el.getAttribute("size")) > 1 ? "listbox" : "combobox";
    }
    if (tag === "HEADER") return el.closest("article,aside,main,nav,section") ? "generic" : "banner";
    if (tag === "FOOTER") return el.closest("article,aside,main,nav,section") ? "generic" : "contentinfo";
    if (tag === "SECTION") return el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby") ? "region" : "generic";
    if (tag === "SUMMARY") return el.parentElement?.tagName === "DETAILS" ? "button" : "generic";
    if (tag === "OPTION") return el.closest("select") ? "none" : "option";
    const implicit = IMPLICIT[tag];
    if (implicit) return implicit;
    const html = /** @type {HTMLElement} */ (el);
    if (html.isContentEditable && !html.parentElement?.isContentEditable) return "textbox";
    if (el.hasAttribute("onclick") && !lib.wrapsContent?.(el)) return "button"; // page-clickable.js: not a page-wide wrapper
    return "generic";
  };

  /** @param {string} role */
  lib.isInteractiveRole = (role) => INTERACTIVE.has(role);

  /** Roles whose naming ARIA 1.2 prohibits: an aria-label on them is ignored. */
  const NAMING_PROHIBITED = new Set(["caption", "code", "deletion", "emphasis", "generic", "insertion", "paragraph",
    "presentation", "none", "strong", "subscript", "superscript"]);
  /** @param {Element} el whether ARIA 1.2 prohibits naming it (its aria-label is ignored) */
  lib.namingProhibited = (el) => NAMING_PROHIBITED.has(lib.roleOf(el));

  /** @type {string[] | null} the attribute texts (an aria-label, an alt, a title) the name being made holds */
  let unseenParts = null;
  /** @param {string} text @returns {string} text, noted as a part of the name nobody sees painted */
  const unseen = (text) => {
    if (unseenParts && text.trim()) unseenParts.push(clean(text));
    return text;
  };

  /**
   * Visible text of a subtree as a screen reader would read it (aria-label
   * and alt of descendants included), with only what a person sees of it
   * (page-seen.js judges each node as extract's walker does).
   * @param {Node} node
   * @param {number} [depth]
   * @param {Node | null} [skip] the control being named (left out of its own label)
   * @returns {string}
   */
  lib.contentText = (node, depth = 0, skip = null) => {
    if (node.nodeType === 3) return lib.seenData(node);
    if ((node.nodeType !== 1 && node.nodeType !== 11) || node === skip) return "";
    const el = /** @type {any} */ (node);
    let iconLabel = "";
    if (node.nodeType === 1) {
      const st = lib.seenState(el);
      if (!st) return "";
      const shows = !st.invisible && !st.hideText;
      // A descendant's aria-label stands for its content; on a role that prohibits naming (ARIA 1.2: a generic
      // box, a paragraph) only when it shows no text (an icon): a sentence over visible words is shown to nobody.
      if (depth > 0 && !st.invisible) {
        const label = el.getAttribute("aria-label");
        if (label && label.trim()) {
          if (!lib.namingProhibited(el)) return ` ${unseen(label)} `;
          iconLabel = ` ${label} `;
        }
      }
      if (el.tagName === "IMG") return shows ? unseen(el.getAttribute("alt") || "") : "";
      if (el.tagName === "INPUT") return depth > 0 && shows && TEXT_INPUTS.has(el.type) ? ` ${el.value} ` : "";
      if (el.tagName === "TEXTAREA") return depth > 0 && shows ? ` ${el.value} ` : "";
      if (el.tagName === "SELECT") return depth > 0 && shows ? ` ${el.selectedOptions?.[0]?.label ?? ""} ` : "";
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE" || el.tagName === "TEMPLATE") return "";
    }
    let out = "";
    for (const kid of lib.kids(node)) {
      const text = lib.contentText(kid, depth + 1, skip);
      const block = kid.nodeType === 1 && !INLINE_TAGS.has(/** @type {Element} */ (kid).tagName);
      out += block ? ` ${text} ` : text;
      if (out.length > 400) break;
    }
    return iconLabel && !out.trim() ? unseen(iconLabel) : out;
  };

  /** @param {Element} el */
  const labelledBy = (el) => {
    const ids = el.getAttribute("aria-labelledby");
    if (!ids) return "";
    const root = /** @type {any} */ (el.getRootNode());
    return ids.trim().split(/\s+/)
      .map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id))
      .filter(Boolean)
      .map((ref) => lib.contentText(ref, 0))
      .join(" ");
  };

  /** @type {Map<Node, Map<Element, Element[]>> | null} labels per control, per tree scope, during a pass */
  let labelIndex = null;

  /**
   * Run `fn` (a pass over many elements: a walk, a search) with labels
   * looked up in one index per tree scope. An element's own `labels` list
   * makes Chrome search its whole tree scope the first time it is read:
   * for the controls of a 10,000-element page that was 250 ms of a first
   * extract (the lists are cached, so later extracts did not show it).
   * @template T
   * @param {() => T} fn
   * @returns {T}
   */
  lib.indexingLabels = (fn) => {
    if (labelIndex) return fn();
    labelIndex = new Map();
    try {
      return fn();
    } finally {
      labelIndex = null;
    }
  };

  /**
   * The labels of a control, in tree order: `el.labels`, and also for
   * form-associated custom elements (whose `labels` needs ElementInternals),
   * as Chrome's accessibility tree names them.
   * @param {any} el
   * @returns {Element[]}
   */
  const labelsOf = (el) => {
    if (!labelIndex) return el.labels ? [...el.labels] : [];
    const root = /** @type {any} */ (el.getRootNode());
    let byControl = labelIndex.get(root);
    if (!byControl) {
      byControl = new Map();
      for (const label of root.querySelectorAll ? root.querySelectorAll("label") : []) {
        const control = /** @type {any} */ (label).control;
        if (!control) continue;
        const list = byControl.get(control);
        if (list) list.push(label);
        else byControl.set(control, [label]);
      }
      labelIndex.set(root, byControl);
    }
    return byControl.get(el) || [];
  };

  /** @param {any} el */
  const nativeLabel = (el) => {
    const labels = labelsOf(el);
    if (labels.length) {
      return labels.map((l) => lib.contentText(l, 0, el)).join(" ");
    }
    if (el.tagName === "INPUT") {
      const type = (el.getAttribute("type") || "text").toLowerCase();
      if (type === "submit" || type === "reset" || type === "button") {
        return el.value || (type === "submit" ? "Submit" : type === "reset" ? "Reset" : "");
      }
      if (type === "image") return unseen(el.getAttribute("alt") || "") || "Submit";
    }
    if (el.tagName === "IMG") return unseen(el.getAttribute("alt") || "");
    if (el.tagName === "FIELDSET") {
      const legend = el.querySelector("legend");
      return legend ? lib.contentText(legend, 0) : "";
    }
    if (el.tagName === "TABLE") return el.caption ? lib.contentText(el.caption, 0) : "";
    return "";
  };

  /**
   * @param {Element} el
   * @param {string} role
   * @returns {string}
   */
  lib.nameOf = (el, role) => {
    const outer = unseenParts;
    unseenParts = [];
    try {
      const name = nameMade(el, role);
      (lib.factsOf(/** @type {Window} */ (el.ownerDocument.defaultView)).unseenParts ??= new WeakMap()).set(el, unseenParts);
      return name;
    } finally {
      unseenParts = outer;
    }
  };

  /**
   * The parts of the name nameOf made last for el in this call that come from attributes, not painted text (an
   * aria-label, a title, an image's alt, inside the control or on it): page-visibility.js shownName caps and marks them.
   * @param {Element} el @returns {string[]}
   */
  lib.unseenPartsOf = (el) => lib.factsOf(/** @type {Window} */ (el.ownerDocument.defaultView)).unseenParts?.get(el) ?? [];

  /** @param {Element} el @param {string} role */
  const nameMade = (el, role) => {
    lib.iconNamed.delete(el);
    let name = clean(labelledBy(el));
    if (!name) name = clean(unseen(el.getAttribute("aria-label") || ""));
    if (!name && el.namespaceURI === SVG_NS && el.localName !== "svg") {
      name = lib.svgLabel(el); // page-svg.js: a drawn control's title or text
    }
    if (!name) name = clean(nativeLabel(el));
    let ligature = "";
    if (!name && NAME_FROM_CONTENT.has(role)) {
      const content = clean(lib.contentText(el, 0));
      ligature = content && lib.ligatureOf(el, content);
      if (!ligature) name = content;
    }
    if (!name) name = clean(unseen(el.getAttribute("title") || ""));
    if (!name) name = clean((lib.placeholderShows(el) ? el.getAttribute("placeholder") : "") || unseen(el.getAttribute("aria-placeholder") || ""));
    // An icon-only control: named from its icon (page-icon-name.js), marked `icon-name` by statesOf.
    if (!name && (ligature || INTERACTIVE.has(role) || role === "clickable")) name = lib.iconName(el, ligature);
    return cap(name, MAX_NAME);
  };

  /**
   * The value a control shows: none when its text cannot be seen (a transparent field), a contenteditable's
   * seen text (page-seen.js).
   * @param {any} el
   */
  const valueOf = (el) => {
    const st = lib.seenState(el);
    if (!st || st.hideText || st.invisible) return "";
    if (el.tagName === "SELECT") return [...el.selectedOptions].map((o) => o.label).join(", ");
    if (el.tagName === "INPUT" || el.tagName === "TEXTAREA") {
      if ((el.getAttribute("type") || "").toLowerCase() === "password") return el.value ? "••••" : "";
      return el.value;
    }
    if (el.isContentEditable) return lib.shownText(el);
    return el.getAttribute("aria-valuetext") || el.getAttribute("aria-valuenow") || "";
  };

  /** @param {any} option whether a select's list shows it (page-visibility.js optionListed) */
  const listed = (option) => lib.optionListed(option);

  /**
   * State flags worth showing, as short words: checked (absent = not
   * checked), disabled, expanded/collapsed … and value="…" where the element
   * holds a value (passwords masked).
   * @param {any} el
   * @param {string} role
   * @param {string} name
   * @returns {string[]}
   */
  lib.statesOf = (el, role, name) => {
    /** @type {string[]} */
    const out = [];
    const aria = (/** @type {string} */ a) => el.getAttribute(a);
    if (["textbox", "searchbox", "combobox", "spinbutton", "slider", "listbox"].includes(role) || lib.hasFormat(el)) {
      const value = valueOf(el) || "";
      if (value) out.push(lib.fieldValue(value));
      else {
        const placeholder = lib.placeholderShows(el) ? clean(el.getAttribute("placeholder") || "") : "";
        if (placeholder && placeholder !== name) out.push(`placeholder=${JSON.stringify(cap(placeholder, 40))}`);
      }
      if (role === "slider" && (el.min || aria("aria-valuemin"))) {
        out.push(`range=${el.min || aria("aria-valuemin")}..${el.max || aria("aria-valuemax")}`);
      }
      if (el.tagName === "SELECT" && role === "combobox") {
        const labels = [...el.options].filter(listed).map((o) => o.label);
        const shown = labels.slice(0, 8).join("|");
        out.push(`options=${JSON.stringify(labels.length > 8 ? `${shown}|…${labels.length - 8} more` : shown)}`);
      }
    }
    if (el.tagName === "INPUT") out.push(...lib.fieldType(el));
    if (["checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"].includes(role)) {
      const state = el.tagName === "INPUT" ? (el.indeterminate ? "mixed" : String(el.checked)) : aria("aria-checked");
      if (state === "true" || state === "mixed") out.push(state === "true" ? "checked" : "mixed");
    }
    if (aria("aria-pressed") === "true") out.push("pressed");
    const expanded = el.tagName === "SUMMARY" ? String(!!el.parentElement?.open) : aria("aria-expanded");
    if (expanded === "true") out.push("expanded");
    else if (expanded === "false") out.push("collapsed");
    if (aria("aria-selected") === "true" || (role === "option" && el.selected)) out.push("selected");
    if (aria("aria-current") && aria("aria-current") !== "false") out.push("current");
    if (el.matches(":disabled") || el.closest("[aria-disabled='true']")) out.push("disabled");
    if (el.required || aria("aria-required") === "true") out.push("required");
    if (el.readOnly || aria("aria-readonly") === "true") out.push("readonly");
    if (aria("aria-invalid") && aria("aria-invalid") !== "false") out.push("invalid");
    if (name && lib.iconNamed.has(el)) out.push("icon-name");
    return out;
  };

  /**
   * role, name and states of one element (for an action's target).
   * @param {Element} el
   */
  lib.describe = (el) => {
    const role = lib.roleOf(el);
    const name = lib.nameOf(el, role);
    return { role, name, states: lib.statesOf(el, role, name) };
  };
}
