/**
 * extract {tab_id?, selector?, max_chars?, changes?} → {url, title, markdown, elements, text, note?}
 *   or, with `changes: true`, {url, title, changes: {summary, markdown?, elements?}, note?} (changesSince)
 *
 * What the model receives, and why the fields do not repeat each other:
 * - `markdown`: the page as markdown (headings, paragraphs, lists, GFM tables,
 *   form labels, dialogs), navigation/footer/cookie banners/overlays left
 *   out, an open modal dialog first. Interactive elements stand inline as
 *   `[View](e4)` (with their visible text) or `[e5]` (no text: inputs, icon
 *   buttons), so prose and handles line up.
 * - `elements`: the index of the interactive elements in all frames and
 *   shadow roots, saying only what the markdown does not. An element the
 *   markdown names inline (`[Save](e12)`) gets its role and states alone
 *   (`e12 button disabled`; `e4 e5 e6 button`), a link none; one it shows
 *   without its name (a field `[e5]`) gets role, name and states
 *   (`e5 textbox "Email" value="a@b.c"`), its place in the markdown being
 *   its context. Elements of stripped regions are listed here whole (they
 *   are not in the markdown), with a context where role and name repeat;
 *   their links share a line per region, `navigation "Main": [Jobs](e2)
 *   [Help](e3)` (element-lines.js, page-index.js).
 * - `text`: only when the markdown caught little of the page's text (odd
 *   markup): the visible text that neither the markdown nor the index says
 *   (page-reading.js, fallback-text.js); otherwise "" — never a second copy.
 * - `note`: present only when something was left out: what, how much, and
 *   the selector (or max_chars) to read on; or when the page shows nothing.
 * The result as the model receives it (serialised, inside the envelope and
 * page-data markers of the model's view) stays within max_chars (default
 * 24,000); markdown and elements are cut at the same place of the page (budget.js).
 */

import { fit, truncationNote, VIEW_RESERVE } from "./budget.js";
import { outOfViewNote } from "./pixel-judge.js";
import { notSaid } from "./fallback-text.js";
import { indexLines, joinFacts } from "./element-lines.js";
import { indexRules } from "./page-index.js";
import { renderBlocks } from "./markdown.js";
import { diffSnapshots } from "./diff.js";
import { framedLines } from "./framed.js";

/**
 * @typedef {import("./element-lines.js").ElementRecord} ElementRecord
 * @typedef {{url: string, title: string, markdown: string, elements: string, text: string, note?: string,
 *   hidden_chars?: number, not_judged?: string, frames?: {url: string, text: string}[]}} ExtractResult `frames`: the
 *   markdown's and the index's lines that frames of other origins show, by origin (framed.js) (the app's data-flow
 *   memory remembers them under the frame's site)
 * @typedef {{url: string, title: string, changes: import("./diff.js").ChangeList, note?: string}} ChangesResult
 */

/**
 * extract {changes: true}: the change list since the task's previous extract of this tab (and selector), or the
 * full extract, saying why, when there is none, the tab loaded a new document, or the change is larger than
 * the page.
 * @param {import("./diff.js").Snapshot | undefined} before
 * @param {import("./diff.js").Snapshot} now
 * @param {ExtractResult} full
 * @param {number} maxChars
 * @returns {ExtractResult | ChangesResult}
 */
export function changesSince(before, now, full, maxChars) {
  /** @param {string} why */
  const whole = (why) => ({ ...full, changes: { summary: `${why}: this is a full extract`, full: true } });
  if (!before) return whole("no earlier extract of this tab in this task");
  if (before.doc !== now.doc) {
    // No URL here: `summary` is bua's own words (the result builder marks page text by key; `url` carries it).
    return whole("the tab loaded a new document since the previous extract; uids from before it are gone");
  }
  const list = diffSnapshots(before, now);
  const size = list ? JSON.stringify(list).length : Infinity;
  if (!list || size >= JSON.stringify(full).length || size > maxChars) {
    return whole(`the change is larger than the page (${list ? `${size} characters of changes` : "too many edits to list"})`);
  }
  /** @type {ChangesResult} */
  const result = { url: now.url, title: now.title, changes: list };
  if (full.note) result.note = `changes are tracked over what a full extract shows; it was cut: ${full.note}`;
  return result;
}

/** Rounds of shrinking the budget until the serialised result fits max_chars. */
const FIT_ROUNDS = 6;

/**
 * Whether the markdown names an element inline (page-index.js): its token shows its name, or it has none.
 * @param {ElementRecord} record
 * @param {string} label the text of its inline token ("" for none)
 */
const namedInline = (record, label) => indexRules.namedInline(record.name, label);

/**
 * Whether the index has nothing to add to the markdown's token of an element it names: a link with no state.
 * @param {ElementRecord} record
 */
const saysAll = (record) => !indexRules.inlineFacts(record.role, record.states ?? "");

/**
 * Render, fit into the budget and add the note. max_chars bounds the result as
 * the model receives it: serialised (keys, quotes and escapes counted), with
 * room for the envelope and page-data markers the model's view adds (VIEW_RESERVE).
 * @param {import("./collect.js").Collected} page
 * @param {number} maxChars
 * @param {Rendered} [rendered] the page already rendered
 * @returns {ExtractResult}
 */
export function present(page, maxChars, rendered = render(page)) {
  const { md: mdByElement, elements, shownInline, namedShown, all } = rendered;
  if (page.text) { // fallback-text.js: only what the markdown and the index do not say
    page = { ...page, text: notSaid(page.text, [...mdByElement.map((l) => l.text), ...[...all.values()].map((r) => r.name)]) };
  }
  const index = indexLines(elements, (record) => shownInline.has(record), (record) => namedShown.has(record));
  const { lines: elLines, ends } = index;
  const md = byLines(mdByElement, ends);
  const textBudget = page.text ? Math.min(page.text.length, Math.floor(maxChars / 3)) : 0;
  const bound = maxChars - VIEW_RESERVE;
  let budget = bound - textBudget - 200;
  let result = fitted(page, md, index, budget, textBudget, maxChars);
  for (let round = 0; round < FIT_ROUNDS; round++) {
    const over = JSON.stringify(result).length - bound;
    if (over <= 0) break;
    budget -= over + 100 * (round + 1);
    result = fitted(page, md, index, budget, Math.floor(textBudget / (round + 2)), maxChars);
  }
  return result;
}

/**
 * Markdown lines with `upto` (elements passed) turned into index lines passed: a line of several elements
 * counts as passed once its first element is.
 * @param {import("./markdown.js").Line[]} md
 * @param {number[]} ends
 * @returns {import("./markdown.js").Line[]}
 */
function byLines(md, ends) {
  /** @type {number[]} linesFor[u]: index lines that start before element u */
  const linesFor = [0];
  let line = 0;
  for (let u = 1; u <= (ends[ends.length - 1] ?? 0); u++) {
    if (line < ends.length && (line === 0 ? 0 : ends[line - 1]) < u) line++;
    linesFor.push(line);
  }
  return md.map((l) => ({ ...l, upto: linesFor[Math.min(l.upto, linesFor.length - 1)] }));
}

/**
 * @typedef {{md: import("./markdown.js").Line[], elements: ElementRecord[], shownInline: Set<ElementRecord>,
 *   namedShown: Set<ElementRecord>, all: Map<string, ElementRecord>}} Rendered
 *   elements: the index (every element but a link the markdown names with no state to add); namedShown: those
 *   the markdown names inline (their lines give role and states only); all: every element by uid (snapshots.js)
 */

/**
 * The page's markdown lines and element index, before any budget.
 * @param {import("./collect.js").Collected} page
 * @returns {Rendered}
 */
export function render(page) {
  /** @type {ElementRecord[]} */
  const elements = [];
  /** @type {Map<ElementRecord, number>} */
  const placed = new Map();
  /** @type {Set<ElementRecord>} elements the markdown shows where they stand */
  const shownInline = new Set();
  /** @type {Set<ElementRecord>} elements the markdown names where they stand */
  const namedShown = new Set();
  /** @type {Map<string, ElementRecord>} */
  const all = new Map();
  const md = renderBlocks(page.blocks, (/** @type {ElementRecord} */ record, /** @type {string} */ label, /** @type {boolean} */ shown) => {
    all.set(record.uid, record);
    let index = placed.get(record);
    if (index === undefined) {
      const named = shown && namedInline(record, label);
      if (named && saysAll(record)) return { uid: record.uid, index: elements.length - 1 };
      index = elements.length;
      placed.set(record, index);
      elements.push(record);
      if (named) namedShown.add(record);
    }
    if (shown) shownInline.add(record);
    return { uid: record.uid, index };
  });
  return { md, elements, shownInline, namedShown, all };
}

/**
 * One attempt: markdown and elements cut to `budget` characters, the text to `textBudget`, and the note.
 * @param {import("./collect.js").Collected} page
 * @param {import("./markdown.js").Line[]} md markdown lines, `upto` counted in index lines
 * @param {ReturnType<typeof indexLines>} index the index lines, how many elements they cover up to each line, and
 *   which are facts lines
 * @param {number} budget
 * @param {number} textBudget
 * @param {number} maxChars
 * @returns {ExtractResult}
 */
function fitted(page, md, index, budget, textBudget, maxChars) {
  const { lines: elLines, ends, facts, frames: elFrames } = index;
  const cut = fit(md, elLines, Math.max(budget, 0));
  const listed = joinFacts(elLines.slice(0, cut.elements), facts, elFrames);
  const kept = md.slice(0, cut.mdLines).map((l) => l.text);
  if (cut.shortenLast !== undefined && kept.length) {
    kept[kept.length - 1] = `${kept[kept.length - 1].slice(0, cut.shortenLast)}…`;
  }
  const omitted = page.omitted;
  /** @type {ExtractResult} */
  const result = {
    url: page.url,
    title: page.title,
    markdown: kept.join("\n"),
    elements: listed.lines.join("\n"),
    text: page.text ? page.text.slice(0, textBudget) : "",
  };
  if (!cut.complete || omitted.els || omitted.rows || omitted.chars) {
    const cutLines = md.slice(cut.mdLines);
    const lastKept = md[cut.mdLines - 1];
    const hintRow = cut.complete ? lastKept?.row && { ...lastKept.row, i: lastKept.row.i + 1 } : cutLines[0]?.row;
    result.note = truncationNote({
      rows: omitted.rows + cutLines.filter((l) => l.row).length,
      elements: omitted.els + (ends[ends.length - 1] ?? 0) - (ends[cut.elements - 1] ?? 0),
      chars: omitted.chars + cutLines.reduce((n, l) => n + (l.row ? 0 : l.text.length), 0),
      hint: hintRow ? `${hintRow.sel} > tr:nth-child(n+${hintRow.i})` : undefined,
      maxChars,
    });
  } else if (page.blank) {
    result.note = page.blank;
  }
  if (omitted.hidden) result.hidden_chars = omitted.hidden; // text the person cannot see, left out (page-visibility.js)
  if (omitted.deferred) result.not_judged = outOfViewNote(omitted.deferred); // counted in hidden_chars too
  const frames = framedLines([...kept.map((text, i) => ({ text, frame: md[i].frame })),
    ...listed.lines.map((text, i) => ({ text, frame: listed.frames[i] }))]);
  if (frames.length) result.frames = frames;
  return result;
}
