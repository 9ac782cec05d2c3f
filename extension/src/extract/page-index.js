/**
 * What the element index lists, and what it costs: one definition for the walker's size estimate (in the page,
 * page-walker.js) and the index itself (in the worker, extract-action.js and element-lines.js). The index says
 * only what the markdown does not (each fact once):
 *
 * - An element the markdown shows as `[text](e12)` whose text says its name (either may have been cut: the name
 *   at 80 characters, the inline text at the walker's INLINE_TEXT), or as `[e12]` when it has no name, is named
 *   inline: its line carries only the facts the token cannot show, its role and states (`e12 button disabled`,
 *   `e3 tab selected`, `e9 button value="#3366cc" type=color`), never the name again, nor a context (the markdown
 *   places it). A link is what a bare token is, so a link with no state has no line at all; `attr-name` and
 *   `icon-name` (where the name came from) add nothing once the text shown is the name. Consecutive lines of
 *   equal facts share one line, `e4 e5 e6 button` (element-lines.js joinFacts).
 * - Every other element the markdown shows (a field, `[e5]`, whose label stands beside it; a token whose text is
 *   not its name) keeps its line with its name, without a context: the markdown places it.
 * - A link without a state in a region the markdown leaves out (navigation, footer, cookie banner, overlay) is
 *   listed compactly on its region's line, `navigation "Main": [Jobs](e1) [Reports](e3) [e4]` (`[e4]`: no name);
 *   every other element there keeps a line of its own, with its context.
 *
 * Sent to the page as source text (run-in-page.js): self-contained; also called in the worker (pure).
 */

import { definePagePart } from "../page/page-code.js";
import { pageAria } from "./page-aria.js";

definePagePart(pageIndex, { uses: [pageAria] });

/**
 * Adds namedInline, inlineFacts, grouped, indexCost and regionLabel to lib.
 * @param {any} lib the in-page library object (globalThis.__bua), or any object (worker)
 */
export function pageIndex(lib) {
  const CUT = "…";
  /** What a line of its own costs beyond its name, role and states: uid, quotes, spaces, newline. */
  const LINE_CHARS = 16;
  /** What a facts line costs beyond its facts: uid, space, newline. */
  const FACT_LINE_CHARS = 6;
  /** What a region line's token costs beyond its name: `[`, `](`, uid, `) `. */
  const TOKEN_CHARS = 10;
  /** Longest region name on a region line. */
  const REGION_NAME_CHARS = 40;
  /** States that say where a name came from: nothing to add once the markdown shows the name. */
  const NAME_SOURCES = ["attr-name", "icon-name"];
  /** One state of a space-separated list: a word, or `key="a quoted value"` kept whole. */
  const STATE = /(?:[^\s"]+|"(?:[^"\\]|\\.)*")+/g;

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

  /**
   * Whether the markdown, showing an element inline with `label`, already says its name: the token's text is
   * its name, or it has none (`[e12]`).
   * @param {string} name
   * @param {string} label the text of its inline token ("" for `[e12]`)
   */
  lib.namedInline = (name, label) => !name || (!!label && sameText(label, name));

  /**
   * What the index adds about an element the markdown names inline: its role and states, or "" for a link
   * with no state (a bare token is a link).
   * @param {string} role
   * @param {string} states
   */
  lib.inlineFacts = (role, states) => {
    const facts = (states.match(STATE) ?? []).filter((s) => !NAME_SOURCES.includes(s)).join(" ");
    if (!facts) return role === "link" ? "" : role;
    return `${role} ${facts}`;
  };

  /**
   * Whether an element of a left-out region goes on its region's line.
   * @param {string} role
   * @param {string} name
   * @param {string} states
   */
  lib.grouped = (role, name, states) => role === "link" && !states;

  /**
   * The characters the index spends on an element (an estimate: contexts are not known yet; a facts line
   * joined with its neighbours costs less).
   * @param {string} role
   * @param {string} name
   * @param {string} states
   * @param {string} label its inline text ("" when none or not shown)
   * @param {boolean} stripped it stands in a region the markdown leaves out
   */
  lib.indexCost = (role, name, states, label, stripped) => {
    if (stripped && lib.grouped(role, name, states)) return name.length + TOKEN_CHARS;
    if (!stripped && lib.namedInline(name, label)) {
      const facts = lib.inlineFacts(role, states);
      return facts ? facts.length + FACT_LINE_CHARS : 0;
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
export const indexRules = /** @type {{namedInline: (name: string, label: string) => boolean,
 *   inlineFacts: (role: string, states: string) => string, grouped: (role: string, name: string, states: string) => boolean}} */ ((() => {
  /** @type {any} */
  const rules = {};
  pageIndex(rules);
  return rules;
})());
