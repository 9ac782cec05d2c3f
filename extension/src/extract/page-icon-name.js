/**
 * In-page: a name for a control that shows only an icon (a toolbar's bold / italic buttons, a menu item that is
 * a trash can), where the page gives it no text, label or title — what a person reads off the icon, from what
 * the page says the icon is:
 * - an SVG's own `<title>` or `<desc>` (or its aria-label);
 * - an icon font's ligature: the element's text is a word such as `format_bold` drawn as a glyph by a font
 *   named for icons or symbols (Material Icons / Symbols); it reads "format bold";
 * - a class or sprite hint on the icon (`fa-bold`, `icon-italic`, `bi-trash`, `glyphicon-trash`,
 *   `<use href="#icon-trash">`): by one rule, not a list of libraries — the family prefix (the first part of a
 *   hyphenated token, when short or itself a word for "icon") goes, style and size words go (solid, outline,
 *   lg, 2x …), the words left are the name.
 * Such names are derived, not the page's: statesOf adds `icon-name` (page-aria.js) so the model can tell.
 *
 * Sent to the page as source text (run-in-page.js): self-contained. Pure helpers are on lib for node tests.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";

definePagePart(pageIconName, { uses: [pageAria] });

/**
 * Adds iconName, ligatureOf, iconWords, ligatureWords and iconNamed to lib (needs pageAria's clean, seenState).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageIconName(lib) {
  /** Words of a class token that say how an icon is drawn, not what it is. */
  const STYLE_WORDS = new Set(["icon", "icons", "glyph", "glyphs", "glyphicon", "symbol", "symbols", "solid", "regular",
    "light", "thin", "duotone", "brands", "brand", "fill", "filled", "line", "lined", "outline",
    "outlined", "round", "rounded", "sharp", "twotone", "two", "tone", "alt", "o", "xs", "sm", "md", "lg", "xl", "xxl",
    "fw", "spin", "pulse", "inverse", "border", "flip", "rotate", "horizontal", "vertical", "stack", "inline", "svg",
    "btn", "button", "primary", "secondary", "default", "small", "large", "mini", "active", "disabled", "white",
    "black", "dark", "muted"]);
  /** A family prefix: short (fa, bi, mdi, ql), or a word for icons itself (glyphicon, octicon, ionicon). */
  const FAMILY = /^(?:[a-z]{1,4}|[a-z]*(?:icon|glyph)[a-z]*)$/;
  const SIZE = /^(?:\d+(?:x|px)?|x\d+)$/;

  /**
   * The words a class token (or a sprite's fragment) names an icon by, or "" when it names none.
   * @param {string} token
   * @param {boolean} [anyFamily] the family may be any word (the element also carries it bare: `feather feather-x`)
   * @returns {string}
   */
  lib.iconWords = (token, anyFamily = false) => {
    const parts = token.toLowerCase().replace(/^#/, "").split(/[-_]+/).filter(Boolean);
    if (parts.length < 2 || !(anyFamily ? /^[a-z]+$/ : FAMILY).test(parts[0])) return "";
    const words = parts.slice(1).filter((w) => !STYLE_WORDS.has(w) && !SIZE.test(w) && /^[a-z][a-z0-9]*$/.test(w));
    return words.join(" ");
  };

  /**
   * A ligature's words (`format_bold` → "format bold"), or "" when the text is no ligature-like word.
   * @param {string} text
   */
  lib.ligatureWords = (text) => (/^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/.test(text) ? text.replace(/_/g, " ") : "");

  /** @type {WeakSet<Element>} controls whose name was derived here */
  lib.iconNamed = new WeakSet();

  /** @param {Element} el */
  const svgTitle = (el) => {
    const svg = el.tagName === "svg" ? el : el.querySelector("svg");
    if (!svg) return "";
    const own = [...svg.children].find((c) => c.tagName === "title") || [...svg.children].find((c) => c.tagName === "desc");
    return lib.clean(own?.textContent || svg.getAttribute("aria-label") || "");
  };

  /** @param {Element} el */
  const drawnByIconFont = (el) => /icon|symbol/i.test(el.ownerDocument.defaultView?.getComputedStyle(el).fontFamily || "");

  /**
   * The icon elements of a control: itself and its descendants (the first few), as places to read hints from.
   * @param {Element} el
   */
  const iconsOf = (el) => [...el.querySelectorAll("i, span, svg, use, em, b")].slice(0, 12).concat(el);

  /**
   * Whether the element draws an icon: an `<i>`, a glyph of an icon font, or a pseudo-element's content.
   * @param {Element} el
   */
  const drawsIcon = (el) => {
    if (el.tagName === "I" || drawnByIconFont(el)) return true;
    const win = el.ownerDocument.defaultView;
    return ["::before", "::after"].some((p) => !/^(?:none|normal|""|)$/.test(win?.getComputedStyle(el, p).content || ""));
  };

  /**
   * The words a class of the icon element names it by. A hyphenated class counts where it is plainly an icon's:
   * its family is a word for icons (`glyphicon-`), the element carries the family bare too (`bi bi-trash`), the
   * element draws an icon, or it is the control's own and the only family of its classes (`ql-bold`) — so a
   * utility class (`text-gray-500`, `w-4`) on a plain SVG names nothing.
   * @param {Element} icon
   * @param {boolean} own the control itself
   */
  const classHint = (icon, own) => {
    const classes = (typeof icon.className === "string" ? icon.className : icon.getAttribute("class") || "").split(/\s+/).filter(Boolean);
    const bare = new Set(classes.filter((c) => !/[-_]/.test(c)).map((c) => c.toLowerCase()));
    const families = new Set(classes.filter((c) => /[-_]/.test(c)).map((c) => c.toLowerCase().split(/[-_]/)[0]));
    const drawn = !own && drawsIcon(icon);
    for (const token of classes) {
      const family = token.toLowerCase().split(/[-_]/)[0];
      const plain = /icon|glyph/.test(family) || bare.has(family) || drawn || (own && families.size === 1);
      const words = plain ? lib.iconWords(token, bare.has(family)) : "";
      if (words) return words;
    }
    return "";
  };

  /** @param {Element} el */
  const hintOf = (el) => {
    for (const icon of iconsOf(el)) {
      const sprite = icon.tagName === "use" ? (icon.getAttribute("href") || icon.getAttribute("xlink:href") || "") : "";
      if (sprite.includes("#")) {
        const fragment = sprite.slice(sprite.indexOf("#") + 1);
        const words = lib.iconWords(fragment) || (/^[a-z][a-z0-9]*$/i.test(fragment) ? fragment.toLowerCase() : "");
        if (words) return words;
      }
      const words = classHint(icon, icon === el);
      if (words) return words;
    }
    return "";
  };

  /**
   * The ligature a control's content is (its text drawn as one glyph by an icon font), as words; "" if none.
   * @param {Element} el
   * @param {string} content the control's content text
   */
  lib.ligatureOf = (el, content) => {
    const words = lib.ligatureWords(content);
    if (!words) return "";
    const glyph = [el, ...el.querySelectorAll("*")].find((e) => lib.clean(e.textContent || "") === content && drawnByIconFont(e));
    return glyph ? words : "";
  };

  /**
   * The name an icon-only control's icon gives it, or "": its SVG's title, else its ligature, else a hint.
   * @param {Element} el
   * @param {string} ligature what lib.ligatureOf read of its content
   * @returns {string}
   */
  lib.iconName = (el, ligature) => {
    const name = svgTitle(el) || ligature || hintOf(el);
    if (name) lib.iconNamed.add(el);
    return name;
  };
}
