/**
 * What the element index lists, and what it costs: one definition for the walker's size estimate (in the page,
 * page-walker.js) and the index itself (in the worker, extract-action.js and element-lines.js).
 *
 * - A link the markdown shows as `[text](e12)` is not listed when its text says what its name says (either may
 *   have been cut: the name at 80 characters, the inline text at the walker's INLINE_TEXT) and it has no state to
 *   add (`attr-name` adds nothing when the text shown is the name). A link with neither name nor state, shown as
 *   `[e12]`, is not listed either: the markdown places it and there is nothing to say.
 * - A link without a state in a region the markdown leaves out (navigation, footer, cookie banner, overlay) is
 *   listed compactly on its region's line, `navigation "Main": [Jobs](e1) [Reports](e3) [e4]` (`[e4]`: no name);
 *   every other element keeps a line of its own (element-lines.js).
 *
 * Sent to the page as source text (run-in-page.js): self-contained; also called in the worker (pure).
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";

definePagePart(pageIndex, { uses: [pageAria] });

/**
 * Adds namedInline, grouped, indexCost and regionLabel to lib.
 * @param {any} lib the in-page library object (globalThis.__bua), or any object (worker)
 */
export function pageIndex(lib) {
  const CUT = "…";
  /** What a line of its own costs beyond its name, role and states: uid, quotes, spaces, newline. */
  const LINE_CHARS = 16;
  /** What a region line's token costs beyond its name: `[`, `](`, uid, `) `. */
  const TOKEN_CHARS = 10;
  /** Longest region name on a region line. */
  const REGION_NAME_CHARS = 40;

  /** @param {string} s */
  const head = (s) => (s.endsWith(CUT) ? s.slice(0, -1) : s);

  /**
   * Whether text shown inline says all a name says; either may have been cut (ending in "…").
   * @param {string} label
   * @param {string} name
   */
  const sameText = (label, name) => {
    if (label === name) return true;
    const l = head(label);
    const n = head(name);
    if (!l || !n) return false;
    return (name.endsWith(CUT) && l.startsWith(n)) || (label.endsWith(CUT) && n.startsWith(l));
  };

  /** @param {string} states */
  const onlyAttrName = (states) => states.split(" ").every((s) => s === "attr-name" || s === "");

  /**
   * Whether the markdown, showing an element inline with `label`, already names it.
   * @param {string} role
   * @param {string} name
   * @param {string} states
   * @param {string} label the text of its inline token ("" for `[e12]`)
   */
  lib.namedInline = (role, name, states, label) => {
    if (role !== "link") return false;
    if (!name) return !states;
    return !!label && sameText(label, name) && onlyAttrName(states);
  };

  /**
   * Whether an element of a left-out region goes on its region's line.
   * @param {string} role
   * @param {string} name
   * @param {string} states
   */
  lib.grouped = (role, name, states) => role === "link" && !states;

  /**
   * The characters the index spends on an element (an estimate: contexts are not known yet).
   * @param {string} role
   * @param {string} name
   * @param {string} states
   * @param {string} label its inline text ("" when none or not shown)
   * @param {boolean} stripped it stands in a region the markdown leaves out
   */
  lib.indexCost = (role, name, states, label, stripped) => {
    if (stripped ? lib.grouped(role, name, states) : lib.namedInline(role, name, states, label)) {
      return stripped ? name.length + TOKEN_CHARS : 0;
    }
    return name.length + states.length + role.length + LINE_CHARS;
  };

  /**
   * The head of a left-out region's line: why it is left out, and its name when it has one
   * (`navigation "Main"`, `footer`). In the page only (needs lib.nameOf).
   * @param {Element} el
   * @param {string} role
   * @param {string} reason lib.stripReason's
   */
  lib.regionLabel = (el, role, reason) => {
    const name = lib.nameOf(el, role);
    return name ? `${reason} ${JSON.stringify(lib.cap(name, REGION_NAME_CHARS))}` : reason;
  };
}

/** The rules in the worker (pure functions of their arguments). */
export const indexRules = /** @type {{namedInline: (role: string, name: string, states: string, label: string) => boolean,
 *   grouped: (role: string, name: string, states: string) => boolean}} */ ((() => {
  /** @type {any} */
  const rules = {};
  pageIndex(rules);
  return rules;
})());
