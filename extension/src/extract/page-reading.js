/**
 * In-page: what the walker needs to read real pages whole — tables used for
 * layout rather than data, and why a page shows nothing (formulas: page-math.js).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageContext } from "./page-context.js";
import { pageControls } from "./page-controls.js";
import { pageMath } from "./page-math.js";
import { pageRender } from "./page-render.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageReading, { uses: [pageAria, pageContext, pageControls, pageMath, pageRender, pageVisibility] });

/**
 * Adds isLayoutTable, mayShow, imageText, frameSeen, frameNote, originOf, blankReason, fallbackText and footerBlock
 * to lib (needs pageMath; fallbackText and footerBlock pageContext and pageVisibility).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageReading(lib) {
  /** Content that makes a table cell a page section rather than a datum. */
  const BLOCKS = "table,p,h1,h2,h3,h4,h5,h6,ul,ol,dl,blockquote,pre,form,article,section";
  /** Rows looked at to classify a table (the head of a long data table says enough). */
  const SAMPLE_ROWS = 50;
  /**
   * Whether a table lays out a page rather than holding data: one column;
   * cells holding tables (a markdown table cannot hold one: the inner tables
   * keep their rows only when the outer one reads as blocks); or (without
   * header cells) cells holding paragraphs, headings or lists.
   * @param {HTMLTableElement} table
   */
  lib.isLayoutTable = (table) => {
    const rows = [...table.rows].slice(0, SAMPLE_ROWS);
    if (!rows.length) return false;
    if (rows.every((row) => row.cells.length <= 1)) return true;
    if (rows.some((row) => [...row.cells].some((c) => c.querySelector("table")))) return true;
    if (table.tHead || rows.some((row) => [...row.cells].some((c) => c.tagName === "TH"))) return false;
    return rows.some((row) => [...row.cells].some((c) => c.querySelector(BLOCKS)));
  };

  /**
   * Whether an element of a kind the walker skips (pictures) may still show as text: an image with alt text not
   * marked decorative, or an aria-hidden SVG (a formula's drawing, page-math.js).
   * @param {Element} el
   */
  lib.mayShow = (el) => (el.tagName === "svg" ? el.getAttribute("aria-hidden") === "true"
    : el.tagName === "IMG" && !!el.getAttribute("alt")?.trim()
      && !["presentation", "none"].includes(el.getAttribute("role") ?? ""));

  /** Longest alt text shown; an image under this size (px, either side) is an icon, shown by nothing. */
  const MAX_ALT = 100;
  const MIN_IMAGE_PX = 16;
  /** Alt texts that say nothing about the picture: a word for "image" or "loading", a number. */
  const EMPTY_ALT = new RegExp(`^(?:an? |the )?(?:${["image", "img", "photo", "photograph", "picture", "pic", "graphic",
    "icon", "logo", "banner", "thumbnail", "thumb", "placeholder", "spacer", "avatar", "alt", "null", "undefined",
    "untitled", "blank", "loading"].join("|")})?(?: ?\\d+)?$`, "i");
  /** …a file or camera name, or one token that is a slug (`0225-getty-01`, `red_bar`), a CamelCase or Latin word. */
  const FILE_ALT = /\.(?:jpe?g|png|gif|webp|svg|bmp|avif|tiff?|ico|heic)$|^(?:img|dsc|dscn|pxl|screenshot)[\s_-]?\d/i;
  const TOKEN_ALT = /^\S*[-_/]\S*$|^\S*[a-z][A-Z]\S*$|^[A-Za-z]+$/;
  /** Ancestors whose text is looked through for the alt said already (a headline beside its picture). */
  const NEAR_LEVELS = 3;
  const NEAR_CHARS = 2000;

  /**
   * An image's alt text as it is shown (`[image: a heron on a post]`), "" when it says nothing about the picture.
   * @param {string} alt
   */
  lib.altText = (alt) => {
    const text = alt.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim().replace(/[[\]]/g, "")
      .replace(/^(?:image|photo|picture)\s*[:-]\s*/i, "");
    if (!text || EMPTY_ALT.test(text) || FILE_ALT.test(text) || TOKEN_ALT.test(text)) return "";
    return `[image: ${text.length > MAX_ALT ? `${text.slice(0, MAX_ALT - 1)}…` : text}]`;
  };

  /**
   * What an image shows as text: a formula image its TeX (page-math.js); a content image its alt text when the
   * alt says something, the image is not icon-sized, and neither the page's title nor the text around it (its
   * figure's caption, the headline beside it) says the same already. An image inside a link or button is named
   * by it: the walker never reaches it.
   * @param {Element} el
   */
  lib.imageText = (el) => {
    if (lib.isMathImage(el)) return lib.mathText(el);
    const text = lib.altText(el.getAttribute("alt") ?? "");
    if (!text) return "";
    const box = el.getBoundingClientRect();
    if (box.width < MIN_IMAGE_PX || box.height < MIN_IMAGE_PX) return "";
    const said = text.slice("[image: ".length, text.endsWith("…]") ? -2 : -1);
    if (el.ownerDocument.title.includes(said)) return "";
    let near = el.closest("figure") ?? el.parentElement;
    for (let level = 0; near && level < NEAR_LEVELS; level++, near = near.parentElement) {
      const around = near.textContent ?? "";
      if (around.length > NEAR_CHARS) break;
      if (around.replace(/\s+/g, " ").includes(said)) return "";
    }
    return text;
  };

  /** A frame this transparent (effective opacity) shows nothing legible. */
  const MIN_FRAME_ALPHA = 0.1;

  /**
   * Whether a frame can show anything: its box, after clipping and within what can show (page-render.js), holds
   * one legible glyph (a 3×3 tracking or ad-sync frame does not), and it is not all but transparent.
   * @param {Element} el
   * @param {any} [st] the frame element's walk state (its render context)
   */
  lib.frameSeen = (el, st) => {
    const win = /** @type {Window} */ (el.ownerDocument.defaultView);
    if (st?.rc && st.rc.alpha <= MIN_FRAME_ALPHA) return false;
    return !lib.boxesShow([el.getBoundingClientRect()], 1, st?.rc, st?.win ?? win, 16);
  };

  /**
   * Where a URL points, without its path and query (an ad frame's query runs to hundreds of characters):
   * `https://host:port`, or the scheme alone for an opaque origin (`data:`); "" when it is no URL.
   * @param {string | null} url
   * @param {string} [base]
   */
  lib.originOf = (url, base) => {
    if (!url?.trim()) return "";
    try {
      const u = new URL(url, base);
      return u.origin === "null" ? u.protocol : u.origin;
    } catch {
      return "";
    }
  };

  /** @param {Element} el a frame whose document cannot be read: the note that stands for it */
  lib.frameNote = (el) => `iframe ${lib.originOf(el.getAttribute("src"), el.ownerDocument.baseURI)} could not be read`
    .replace("  ", " ");

  /**
   * Why a page whose walk found nothing shows nothing: the body (or the root)
   * is hidden, transparent or not displayed; "" when it is simply empty.
   */
  lib.blankReason = () => {
    for (const el of [document.documentElement, document.body]) {
      if (!el) continue;
      const cs = getComputedStyle(el);
      const name = el.tagName.toLowerCase();
      if (cs.display === "none") return `${name} has display:none`;
      if (cs.visibility !== "visible") return `${name} has visibility:${cs.visibility}`;
      if (cs.opacity === "0") return `${name} has opacity:0`;
    }
    return "";
  };

  /**
   * The text a person sees under `root`, as lines (a block's edges end a line, table cells are tab-separated),
   * judged as the walker judges each node (page-visibility.js: hiddenBy, textVisibility, textSeen) — hidden
   * mega-menus, clipped and transparent text stay out — but read where the walker does not read (odd markup:
   * content a site marked aria-hidden though it shows). Regions the markdown leaves out (navigation, footer,
   * banners, overlays: page-context.js) are left out; so are controls' own texts when `controls` is false
   * (a footer's links are on its index line already).
   * @param {Node} root whose children are read
   * @param {any} st the walk's state at root
   * @param {number} limit characters read at most
   * @param {boolean} controls whether the text of links and buttons is read
   * @returns {string[]}
   */
  const visibleLines = (root, st, limit, controls) => {
    /** @type {string[]} */
    const lines = [];
    let line = "";
    let size = 0;
    const end = () => {
      const text = line.replace(/[ \n\r\f\v]+/g, " ").replace(/ *\t */g, "\t").replace(/^\t+|\t+$/g, "").trim();
      if (text) lines.push(text);
      line = "";
    };
    /** @param {Node} node @param {any} st */
    const visit = (node, st) => {
      if (size > limit) return;
      if (node.nodeType === 3) {
        const data = /** @type {Text} */ (node).data;
        if (!st.invisible && !st.hideText && data.trim() && !lib.textSeen(node, st)) {
          line += lib.shownData(node, st.rc, st.win);
          size += data.length;
        }
        return;
      }
      if (node.nodeType !== 1) return;
      const el = /** @type {Element} */ (node);
      if (lib.SKIP_TAGS.has(el.tagName)) return;
      if (el.tagName === "BR") return end();
      const cs = st.win.getComputedStyle(el);
      const role = lib.roleOf(el);
      if (cs.display === "none" || lib.hiddenBy(el, cs, st) || lib.stripReason(el, role, cs)) return;
      if (!controls && lib.isInteractiveRole(role)) return void (line += " ");
      const ns = { ...st, invisible: cs.visibility !== "visible" };
      lib.textVisibility(el, cs, ns, st);
      const cell = cs.display === "table-cell";
      const block = !cell && !cs.display.startsWith("inline") && cs.display !== "contents";
      if (block) end();
      if (cell) line += "\t";
      for (const kid of lib.kids(el)) visit(kid, ns);
      if (block) end();
    };
    for (const kid of lib.kids(root)) visit(kid, st);
    end();
    return lines;
  };

  /**
   * The text fallback (page-walker.js asks for it when the walk caught little of a page's text): the page's
   * visible lines (visibleLines). The worker keeps only the lines the markdown and index do not say
   * (fallback-text.js).
   * @param {any} base the walk's starting state (window, what paints over text)
   * @param {number} limit characters read at most
   * @returns {string}
   */
  lib.fallbackText = (base, limit) => (document.body ? visibleLines(document.body, base, limit, true).join("\n").slice(0, limit) : "");

  /**
   * A line without the separators left standing where its links were read out (`Phone 123 · · ·` → `Phone 123`).
   * @param {string} line
   */
  const withoutStraySigns = (line) => line.replace(/(?:\s[\p{Pd}·•|/,;:])+(?=\s|$)/gu, (m) => m.slice(0, 2))
    .replace(/^(?:[\p{Pd}·•|/,;:](?:\s|$))+|(?:(?:^|\s)[\p{Pd}·•|/,;:])+$/gu, "").trim();

  /** Most characters of a page footer's text the markdown shows (the rest is counted, with the selector). */
  const FOOTER_CHARS = 300;

  /**
   * A page footer (left out of the markdown as chrome, its links on the index's footer line) as one compact
   * block: its visible text other than its controls' (`© 2024 Hireline · Musterstraße 1, Berlin`), cut at
   * FOOTER_CHARS, with how much more there is and the selector that reads it whole; null when it shows no text.
   * @param {Element} el
   * @param {any} st the walk's state inside it
   * @returns {{ft: string, more: number, sel: string} | null}
   */
  lib.footerBlock = (el, st) => {
    const text = visibleLines(el, st, FOOTER_CHARS * 4, false).map(withoutStraySigns).filter(Boolean).join(" · ");
    if (!text) return null;
    const cut = text.length > FOOTER_CHARS ? text.slice(0, text.lastIndexOf(" ", FOOTER_CHARS) + 1 || FOOTER_CHARS).trimEnd() : text;
    return { ft: cut, more: text.length - cut.length, sel: lib.cssPath(el) };
  };
}
