/**
 * In-page: what the walker needs to read real pages whole — formulas
 * (MathML as its TeX annotation or its text, formula images by their TeX
 * alt text), tables used for layout rather
 * than data, and why a page shows nothing.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

/**
 * Adds mathText, isMathImage, isLayoutTable and blankReason to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageReading(lib) {
  const MATH_IMAGE = /(?:^|[\s-])(?:math|tex|latex)(?:[\s-]|$)/i;
  const TEX = 'annotation[encoding="application/x-tex"],annotation[encoding="TeX"],annotation[encoding="text/x-tex"]';
  /** Content that makes a table cell a page section rather than a datum. */
  const BLOCKS = "table,p,h1,h2,h3,h4,h5,h6,ul,ol,dl,blockquote,pre,form,article,section";
  /** Rows looked at to classify a table (the head of a long data table says enough). */
  const SAMPLE_ROWS = 50;
  /** Infix forms of MathML layout elements, for formulas without a TeX annotation. */
  const JOIN = /** @type {Record<string, (parts: string[]) => string>} */ ({
    mfrac: ([a, b]) => `(${a})/(${b})`,
    msup: ([a, b]) => `${a}^${wrap(b)}`,
    msub: ([a, b]) => `${a}_${wrap(b)}`,
    msubsup: ([a, b, c]) => `${a}_${wrap(b)}^${wrap(c)}`,
    msqrt: (parts) => `√(${parts.join("")})`,
    mroot: ([a, b]) => `root${wrap(b)}(${a})`,
  });
  /** @param {string} s */
  const wrap = (s) => (s.length > 1 ? `{${s}}` : s);

  /**
   * A formula as text: `$…$` around its TeX annotation when it has one (or its
   * alttext), else the text of its presentation markup with fractions, powers,
   * indices and roots spelled inline.
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
   * Whether an image shows a formula and carries its TeX as alt text (as encyclopedias render math: the
   * MathML beside it is display:none).
   * @param {Element} el
   */
  lib.isMathImage = (el) => el.tagName === "IMG" && MATH_IMAGE.test(el.className) && !!el.getAttribute("alt")?.trim();

  /** TeX without the `{\displaystyle …}` wrapper encyclopedias put around it. @param {string} tex */
  const unwrap = (tex) => tex.trim().replace(/^\{\\(?:display|text)style\s+([\s\S]*)\}$/, "$1").trim();

  /** @param {Node} node @returns {string} */
  const presentation = (node) => {
    if (node.nodeType === 3) return /** @type {Text} */ (node).data.trim();
    if (node.nodeType !== 1) return "";
    const el = /** @type {Element} */ (node);
    const name = el.localName;
    if (name === "annotation" || name === "annotation-xml") return "";
    if (name === "semantics") return el.firstElementChild ? presentation(el.firstElementChild) : "";
    const parts = [...el.childNodes].map(presentation).filter(Boolean);
    const join = JOIN[name];
    if (join) return join(parts);
    return parts.join(name === "mrow" || name === "math" || name === "mstyle" ? " " : "");
  };

  /**
   * Whether a table lays out a page rather than holding data: one column, or
   * (without header cells) cells holding paragraphs, headings, lists or tables.
   * @param {HTMLTableElement} table
   */
  lib.isLayoutTable = (table) => {
    const rows = [...table.rows].slice(0, SAMPLE_ROWS);
    if (!rows.length) return false;
    if (rows.every((row) => row.cells.length <= 1)) return true;
    if (table.tHead || rows.some((row) => [...row.cells].some((c) => c.tagName === "TH"))) return false;
    return rows.some((row) => [...row.cells].some((c) => c.querySelector(BLOCKS)));
  };

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
}
