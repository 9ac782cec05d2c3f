/**
 * In-page: formulas as text. A formula reads as `$…$` around its TeX (annotation or `alttext`) when it has one,
 * else as the text of its presentation MathML with fractions, scripts, limits, roots and table rows spelled inline.
 *
 * Where a formula shows matters, not where its MathML is: math libraries draw a formula with an aria-hidden
 * rendering (an image whose alt is the TeX, MathJax's or KaTeX's glyph boxes) and keep the MathML beside it hidden
 * (display:none, or clipped to nothing for screen readers). Hidden text is never read in general (issue 11); here
 * the visible rendering stands for the hidden MathML, so the formula is read where the rendering is, once. A
 * MathML element that is itself shown is read where it is, and its aria-hidden neighbour is skipped.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";
import { pageVisibility } from "./page-visibility.js";

definePagePart(pageMath, { uses: [pageAria, pageVisibility] });

/**
 * Adds mathText, isMathImage, formulaBeside and isFormula to lib (needs pageAria, pageVisibility).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageMath(lib) {
  const MATHML_NS = "http://www.w3.org/1998/Math/MathML";
  const MATH_IMAGE = /(?:^|[\s-])(?:math|tex|latex)(?:[\s-]|$)/i;
  const TEX = 'annotation[encoding="application/x-tex"],annotation[encoding="TeX"],annotation[encoding="text/x-tex"]';
  /** A formula's container holds its rendering and its MathML, and little else. */
  const MAX_FORMULA_PARTS = 4;
  /** @param {string} s */
  const wrap = (s) => (s.length > 1 ? `{${s}}` : s);
  /** @param {string} s a subscript ("" for none) */
  const sub = (s) => (s ? `_${wrap(s)}` : "");
  /** @param {string} s a superscript ("" for none) */
  const sup = (s) => (s ? `^${wrap(s)}` : "");
  /** Characters that mark the base they stand over (x˙, a⃗, x̄) rather than raise it to a power. */
  const ACCENTS = new Set([..."˙¨^ˆ~˜¯‾→⃗´`˘ˇ°′"]);
  /**
   * Whether the script of munder/mover is an accent (said so, or one accent character): it reads glued to its
   * base.
   * @param {any} el @param {string} script its text @param {string} attr
   */
  const accent = (el, script, attr) => el.getAttribute(attr) === "true" || ACCENTS.has(script);
  /** Infix forms of MathML layout elements, for formulas without TeX. */
  const JOIN = /** @type {Record<string, (parts: string[], el: any) => string>} */ ({
    mfrac: ([a, b]) => `(${a})/(${b})`,
    msup: ([a, b]) => a + sup(b),
    msub: ([a, b]) => a + sub(b),
    msubsup: ([a, b, c]) => a + sub(b) + sup(c),
    munder: ([a, b], el) => a + (accent(el, b, "accentunder") ? b : sub(b)),
    mover: ([a, b], el) => a + (accent(el, b, "accent") ? b : sup(b)),
    munderover: ([a, b, c]) => a + sub(b) + sup(c),
    msqrt: (parts) => `√(${parts.join("")})`,
    mroot: ([a, b]) => `root${wrap(b)}(${a})`,
    mtable: (rows) => rows.join(" \\\\ "),
    mtr: (cells) => cells.join(" & "),
    mlabeledtr: ([label, ...cells]) => `${cells.join(" & ")} (${label})`,
    mfenced: (parts, el) => {
      const separator = el.getAttribute("separators")?.trim()[0] ?? ",";
      return `${el.getAttribute("open") ?? "("}${parts.join(separator)}${el.getAttribute("close") ?? ")"}`;
    },
  });
  /** Token elements: their text is one word. */
  const TOKENS = new Set(["mi", "mn", "mo", "mtext", "ms"]);
  /** Elements whose children keep their own place (a missing script still counts). */
  const POSITIONAL = new Set(["mfrac", "msup", "msub", "msubsup", "munder", "mover", "munderover", "mroot"]);

  /**
   * The text of presentation MathML (a node of a MathML tree; any object with nodeType, localName, childNodes,
   * data and getAttribute will do).
   * @param {any} node
   * @returns {string}
   */
  const presentation = (node) => {
    if (node.nodeType === 3) return node.data.replace(/\s+/g, " ").trim();
    if (node.nodeType !== 1) return "";
    const name = node.localName;
    if (name === "annotation" || name === "annotation-xml" || name === "mphantom") return "";
    const kids = [...node.childNodes].filter((k) => k.nodeType === 1 || (k.nodeType === 3 && k.data.trim()));
    if (name === "semantics") return kids[0] ? presentation(kids[0]) : "";
    const parts = kids.map(presentation);
    const join = JOIN[name];
    if (join) return join(POSITIONAL.has(name) ? [...parts, "", "", ""] : parts.filter(Boolean), node);
    return parts.filter(Boolean).join(TOKENS.has(name) ? "" : " ");
  };
  lib.mathPresentation = presentation;

  /** TeX without the `{\displaystyle …}` wrapper encyclopedias put around it. @param {string} tex */
  const unwrap = (tex) => tex.trim().replace(/^\{\\(?:display|text)style\s+([\s\S]*)\}$/, "$1").trim();

  /**
   * A formula as text: `$TeX$` from its annotation or alttext (an image: its alt), else its presentation text.
   * @param {Element} math
   * @returns {string}
   */
  lib.mathText = (math) => {
    if (math.tagName === "IMG") return `$${unwrap(math.getAttribute("alt") ?? "")}$`;
    const tex = math.querySelector(TEX)?.textContent?.trim() || math.getAttribute("alttext")?.trim();
    if (tex) return `$${unwrap(tex)}$`;
    return lib.clean(presentation(math));
  };

  /**
   * Whether an image shows a formula and carries its TeX as alt text (by its class: `math`, `tex`, `latex`).
   * @param {Element} el
   */
  lib.isMathImage = (el) => el.tagName === "IMG" && MATH_IMAGE.test(el.className) && !!el.getAttribute("alt")?.trim();

  /** @param {Element} el @returns {Element | null} el when it is a MathML math element, else the first inside it */
  const mathIn = (el) => (el.localName === "math" && el.namespaceURI === MATHML_NS ? el
    : el.getElementsByTagNameNS(MATHML_NS, "math")[0] ?? null);

  /**
   * Whether a MathML element cannot be seen: it, or an ancestor up to `top`, is not displayed or is hidden by
   * the walker's own rule (clipped to nothing, zero size, off-screen, transparent).
   * @param {Element} math
   * @param {Element} top
   * @param {Window} win
   */
  const unseen = (math, top, win) => {
    for (let a = /** @type {Element | null} */ (math); a; a = a.parentElement) {
      const cs = win.getComputedStyle(a);
      if (cs.display === "none" || cs.visibility !== "visible" || lib.hiddenBy(a, cs, { win })) return true;
      if (a === top) break;
    }
    return false;
  };

  /**
   * The formula an aria-hidden element draws, when it is the visible rendering of MathML hidden beside it (an
   * element sibling that is or holds a `math`, in a container of at most a few parts): that formula's text
   * (its TeX, else an image's alt, else its presentation text); "" for anything else. The caller still checks
   * that the rendering itself can be seen.
   * @param {Element} el an aria-hidden element
   * @param {Window} win
   * @returns {string}
   */
  lib.formulaBeside = (el, win) => {
    const parent = el.parentElement;
    if (!parent || parent.childElementCount > MAX_FORMULA_PARTS) return "";
    if (!el.ownerDocument.getElementsByTagNameNS(MATHML_NS, "math").length) return "";
    for (const sib of [el.previousElementSibling, el.nextElementSibling]) {
      const math = sib && mathIn(sib);
      if (!math || !unseen(math, /** @type {Element} */ (sib), win)) continue;
      const text = lib.mathText(math);
      if (text && text !== "$$") return text;
      return el.tagName === "IMG" && el.getAttribute("alt")?.trim() ? lib.mathText(el) : "";
    }
    return "";
  };

  /**
   * Whether an element is a formula's container: it holds MathML and all its text is in the MathML or in an
   * aria-hidden rendering. Math libraries make it focusable (tabindex=0) and listen on it for their menu; it is
   * read as text, not listed as a control.
   * @param {Element} el
   */
  lib.isFormula = (el) => {
    const math = mathIn(el);
    if (!math || math === el) return false;
    const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!/\S/.test(/** @type {Text} */ (n).data)) continue;
      const holder = n.parentElement?.closest('math, [aria-hidden="true"]');
      if (!holder || !el.contains(holder)) return false;
    }
    return true;
  };
}
