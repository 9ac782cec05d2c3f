/**
 * In-page: text the person cannot see never reaches the model (issue 11). The walker asks, per element:
 *
 * - `hiddenBy(el, cs, st)`: the element and everything in it is invisible: opacity 0; clipped to nothing (clip
 *   rect or clip-path of no area); a box of at most 1 px that clips its overflow (zero size, the "sr-only" trick);
 *   off-screen at negative document coordinates (absolute/relative/transformed: no scrolling reaches it; fixed:
 *   outside the viewport). Returns the reason, or "".
 * - `textVisibility(el, cs, ns, st)`: whether the element's own text shows: transparent text, text coloured like
 *   the background behind it (contrast under 1.2 against the nearest opaque background of its ancestors), font
 *   smaller than 4 px, or pushed away by a large negative text-indent (a picture under the text that is not an
 *   ancestor's background — a hero image — is looked for before text is called background-coloured). Sets
 *   ns.hideText (its children decide afresh from their own style) and ns.bg (the background its children sit on).
 * - `hiddenLength(node)`: how many characters an invisible subtree held (counted in the result's hidden_chars).
 * - `shownName(el, name, st)`: an accessible name that comes from an attribute (aria-label, title, alt,
 *   placeholder) rather than visible text is capped at 80 characters and, when it reads like a sentence (over 30
 *   characters or 4 words: an icon's label does not), marked with the state `attr-name`; a control that stays
 *   listed although nothing of it shows (an opacity-0 file input over a styled label) has its name capped at 40 and
 *   the state `invisible`, and none of its text in the markdown.
 *
 * Comments, <template> and <noscript> are never walked (page-walker.js's SKIP). Backgrounds are judged from the
 * element's ancestors only (an image or gradient behind text, or background-clip: text, means "unknown": kept).
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

/**
 * Adds hiddenBy, textVisibility, hiddenLength and shownName to lib.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageVisibility(lib) {
  const MIN_FONT_PX = 4;
  const MIN_CONTRAST = 1.2;
  const MAX_ATTR_NAME = 80;
  const MAX_HIDDEN_NAME = 40;
  const NAME_ATTRS = ["aria-label", "title", "alt", "placeholder", "aria-description"];
  const TRANSPARENT = "rgba(0, 0, 0, 0)";
  const SAME_COLOUR = "text coloured like its background";
  /** @type {Map<string, number[] | null>} */
  const colors = new Map();

  /**
   * "rgb(1, 2, 3)" / "rgba(1, 2, 3, 0.5)" / "rgb(1 2 3 / 50%)" → [r, g, b, a]; null when not rgb (e.g. color()).
   * @param {string} text
   */
  const rgba = (text) => {
    let parsed = colors.get(text);
    if (parsed === undefined) {
      const m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)(?:\s*[,/]\s*([\d.]+)(%)?)?\s*\)$/.exec(text);
      parsed = m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4]) / (m[5] ? 100 : 1)] : null;
      if (colors.size < 500) colors.set(text, parsed);
    }
    return parsed;
  };

  /** @param {number[]} c */
  const luminance = (c) => {
    const [r, g, b] = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };

  /** @param {number[]} a @param {number[]} b */
  const contrast = (a, b) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };

  /** @type {WeakMap<Window, number[] | null>} */
  const roots = new WeakMap();
  /** The canvas colour of a document: html's background, else body's, else white. @param {Window} win */
  const rootBackground = (win) => {
    if (!roots.has(win)) {
      const doc = win.document;
      let bg = [255, 255, 255, 1];
      for (const el of [doc.documentElement, doc.body]) {
        if (!el) continue;
        const cs = win.getComputedStyle(el);
        if (cs.backgroundImage !== "none") {
          bg = /** @type {any} */ (null);
          break;
        }
        const c = rgba(cs.backgroundColor);
        if (c && c[3] >= 0.9) {
          bg = c;
          break;
        }
      }
      roots.set(win, bg);
    }
    return roots.get(win) ?? null;
  };

  /** @param {string} clip a computed `clip` value */
  const clipIsEmpty = (clip) => {
    const m = /^rect\(([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px,?\s*([-\d.]+)px\)$/.exec(clip);
    if (!m) return false;
    const [top, right, bottom, left] = m.slice(1).map(Number);
    return right - left <= 1 || bottom - top <= 1;
  };

  /** @param {string} path a computed `clip-path` value */
  const clipPathIsEmpty = (path) => {
    if (path === "none" || path.startsWith("url(")) return false;
    const inset = /^inset\(([^)]*)\)/.exec(path);
    if (inset) {
      const v = inset[1].split(/\s+round\s+/)[0].trim().split(/\s+/).map((x) => (x.endsWith("%") ? parseFloat(x) : NaN));
      const [t, r = t, b = t, l = r] = v;
      return t + b >= 100 || l + r >= 100;
    }
    if (/^(circle|ellipse)\(\s*0(px|%)?[\s)]/.test(path)) return true;
    const poly = /^polygon\(([^)]*)\)/.exec(path);
    if (poly) return new Set(poly[1].split(",").map((p) => p.trim().replace(/^(nonzero|evenodd)\s*/, ""))).size <= 1;
    return false;
  };

  /**
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {{win: Window}} st
   * @returns {string} why nothing of it can be seen, or ""
   */
  lib.hiddenBy = (el, cs, st) => {
    const opacity = cs.opacity;
    if (opacity !== "1" && parseFloat(opacity) <= 0.01) return "opacity";
    const position = cs.position;
    const clipPath = cs.clipPath;
    if (clipPath !== "none" && clipPathIsEmpty(clipPath)) return "clipped";
    const detached = position === "absolute" || position === "fixed"; // `clip` applies to these only
    if (detached) {
      const clip = cs.clip;
      if (clip !== "auto" && clipIsEmpty(clip)) return "clipped";
    }
    const moved = position !== "static" || cs.transform !== "none";
    const clips = cs.overflow !== "visible"; // one read of the shorthand: "visible" only when both axes are
    if (!clips && !moved) return "";
    const box = el.getBoundingClientRect();
    if (clips && (box.width <= 1 || box.height <= 1)) return "zero size";
    if (!moved) return "";
    const win = st.win;
    if (position === "fixed") {
      if (box.right <= 0 || box.bottom <= 0 || box.left >= win.innerWidth || box.top >= win.innerHeight) return "off-screen";
      return "";
    }
    if (box.bottom + win.scrollY <= 0 || (!rightToLeft(win) && box.right + win.scrollX <= 0)) return "off-screen";
    return "";
  };

  /** @type {WeakMap<Window, boolean>} */
  const rtl = new WeakMap();
  /** Whether the document scrolls right to left (then negative x is reachable). @param {Window} win */
  const rightToLeft = (win) => {
    if (!rtl.has(win)) rtl.set(win, win.getComputedStyle(win.document.documentElement).direction === "rtl");
    return /** @type {boolean} */ (rtl.get(win));
  };

  /**
   * @param {Element} el
   * @param {CSSStyleDeclaration} cs
   * @param {any} ns the element's walk state (gets hideText and bg)
   * @param {any} st the parent's walk state
   * @param {string} [unseen] hiddenBy's reason for a control that stays listed: none of its text shows
   * @param {string} [role] the element's role: a control's whole text (its name) is judged even when it holds no
   *   text of its own; any other element's only when it does (its children judge theirs from their own style)
   */
  lib.textVisibility = (el, cs, ns, st, unseen = "", role = "") => {
    let bg = st.bg === undefined ? rootBackground(st.win) : st.bg;
    const image = cs.backgroundImage !== "none";
    const clipText = image && (cs.backgroundClip === "text" || /** @type {any} */ (cs).webkitBackgroundClip === "text");
    const ownBg = cs.backgroundColor;
    if (image) bg = null;
    else if (ownBg !== TRANSPARENT) {
      const own = rgba(ownBg);
      bg = own && own[3] >= 0.9 ? own : own && own[3] <= 0.1 ? bg : null;
    }
    ns.bg = bg;
    ns.unseen = unseen || st.unseen || "";
    ns.hideText = ns.unseen;
    if (ns.hideText || (!ownText(el) && !lib.isInteractiveRole(role))) return;
    if (parseFloat(cs.fontSize) < MIN_FONT_PX) ns.hideText = "tiny font";
    else if (parseFloat(cs.textIndent) <= -999) ns.hideText = "off-screen text";
    else if (!clipText) {
      const verdict = colourHides(/** @type {any} */ (cs).webkitTextFillColor || cs.color, bg);
      ns.hideText = verdict === SAME_COLOUR && pictureBehind(el, st.win) ? "" : verdict;
    }
  };

  /** @param {Element} el whether it holds text of its own (not only inside child elements) */
  const ownText = (el) => {
    for (let n = el.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3 && /\S/.test(/** @type {Text} */ (n).data)) return true;
    }
    return false;
  };

  const PICTURES = new Set(["IMG", "VIDEO", "CANVAS", "PICTURE", "svg", "IFRAME", "OBJECT", "EMBED"]);
  /**
   * Is a picture what shows behind the element's text (white text on a hero image that is a sibling, not an
   * ancestor's background)? Asked only when the ancestors' background matches the text: the topmost thing under
   * the text's start that paints something decides. Off the viewport nothing can be asked: the text stays hidden.
   * @param {Element} el
   * @param {Window} win
   */
  const pictureBehind = (el, win) => {
    const box = el.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 8);
    const y = box.top + Math.min(box.height / 2, 8);
    if (x < 0 || y < 0 || x >= win.innerWidth || y >= win.innerHeight) return false;
    for (const under of win.document.elementsFromPoint(x, y)) {
      if (under === el || el.contains(under)) continue;
      if (PICTURES.has(under.tagName)) return true;
      const ucs = win.getComputedStyle(under);
      if (ucs.backgroundImage !== "none") return true;
      const c = rgba(ucs.backgroundColor);
      if (c && c[3] > 0.1) return false;
    }
    return false;
  };

  /** @type {Map<string, string>} (text colour, background) → why the text does not show, or "" */
  const verdicts = new Map();
  /**
   * @param {string} colorText the computed text (fill) colour
   * @param {number[] | null} bg the opaque background behind it, null when unknown
   */
  const colourHides = (colorText, bg) => {
    const key = bg ? `${colorText}|${bg.join(",")}` : colorText;
    let verdict = verdicts.get(key);
    if (verdict === undefined) {
      const color = rgba(colorText);
      verdict = !color ? "" : color[3] <= 0.1 ? "transparent text"
        : bg && contrast(color, bg) < MIN_CONTRAST ? SAME_COLOUR : "";
      if (verdicts.size < 1000) verdicts.set(key, verdict);
    }
    return verdict;
  };

  /**
   * An icon's label ("Star", "Open chat") is what attributes are for; a sentence in one is not shown to anybody.
   * @param {string} name
   */
  const sentenceLike = (name) => name.length > 30 || name.split(" ").length > 4;

  /** @param {Node} node */
  lib.hiddenLength = (node) => (node.textContent ?? "").replace(/\s+/g, " ").trim().length;

  /**
   * @param {Element} el
   * @param {string} name the accessible name
   * @param {{hideText?: string}} [st] the element's walk state: a control whose text cannot be seen
   * @returns {[string, string[]]} the name to show, and the states to add
   */
  lib.shownName = (el, name, st) => {
    if (st?.hideText) return [name.length > MAX_HIDDEN_NAME ? `${name.slice(0, MAX_HIDDEN_NAME)}…` : name, ["invisible"]];
    if (!name) return [name, []];
    const head = name.endsWith("…") ? name.slice(0, -1) : name; // nameOf may have capped it already
    for (const attr of NAME_ATTRS) {
      const value = el.getAttribute(attr);
      if (value === null || !value.replace(/\s+/g, " ").trim().startsWith(head)) continue;
      if ((el.textContent ?? "").includes(head) || !sentenceLike(name)) return [name, []];
      return [name.length > MAX_ATTR_NAME ? `${name.slice(0, MAX_ATTR_NAME)}…` : name, ["attr-name"]];
    }
    return [name, []];
  };
}
