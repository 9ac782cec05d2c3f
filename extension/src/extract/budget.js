/**
 * Fitting one extract into `max_chars` (pure; runs under node).
 *
 * markdown and elements are cut at the same place of the page: the first k
 * markdown lines and the elements those lines have passed (Line.upto), so
 * prose and handles always cover the same part. Room is kept for the
 * truncation note. A single line too long for what is left is shortened.
 */

import { EXTRACT_BUDGET } from "../protocol.js";

/** What an extract answers in when max_chars is left out (declared in app/protocol/actions/extract.py). */
export const DEFAULT_MAX_CHARS = EXTRACT_BUDGET.default_chars;
/** The largest max_chars the declaration allows, named in the truncation note. */
export const MAX_MAX_CHARS = EXTRACT_BUDGET.max_chars;
/** Characters kept free for the truncation note. */
export const NOTE_RESERVE = 400;

/** The line that opens a result's page text, `⟦k7q2m⟧` and its line break (a task's token is 5 characters:
 * app/agent/page_text/boundary.py), with room for a longer token. */
const BOUNDARY_CHARS = "\n⟦⟧".length + 12;
/** What the region adds per page field, its key line `changes.elements: ` beside the JSON string the result
 * already has (app/agent/page_text/region.py). */
const KEY_CHARS = "\nchanges.elements: ".length;
/** Fields of an extract result that the model's view moves to the region: title, markdown, elements, text (a
 * change list: title, changes.markdown, changes.elements). */
const PAGE_FIELDS = 4;
/** The envelope around the result, and the safety summary added when page text was flagged or defused. */
const ENVELOPE_CHARS = '{"ok":true,"action":"extract","result":}'.length
  + ',"page_safety":{"flagged_lines":9999,"neutralised_forgeries":9999}'.length;
/**
 * What the model's view (app/agent/tools/browser_result.py model_view, rendered by app/agent/results.py) adds to
 * the serialised result: kept free so that what the model receives stays within max_chars. Not counted: the
 * warning put before each line of page text that addresses the agent (rare; its count is in the summary).
 */
export const VIEW_RESERVE = ENVELOPE_CHARS + BOUNDARY_CHARS + PAGE_FIELDS * KEY_CHARS;

/**
 * @typedef {import("./markdown.js").Line} Line
 * @typedef {{mdLines: number, elements: number, shortenLast?: number}} Fit
 *   how many markdown lines and element lines to keep; shortenLast: cut the
 *   last kept markdown line to this many characters
 */

/**
 * @param {Line[]} md
 * @param {string[]} elements
 * @param {number} budget characters for markdown + elements (newlines count)
 * @returns {Fit & {complete: boolean}}
 */
export function fit(md, elements, budget) {
  const mdTotal = md.reduce((n, l) => n + l.text.length + 1, 0);
  const elTotal = elements.reduce((n, l) => n + l.length + 1, 0);
  if (mdTotal + elTotal <= budget) return { mdLines: md.length, elements: elements.length, complete: true };
  const room = budget - NOTE_RESERVE;
  /** @type {number[]} prefix sizes of element lines */
  const elPrefix = [0];
  for (const line of elements) elPrefix.push(elPrefix[elPrefix.length - 1] + line.length + 1);
  let used = 0;
  let k = 0;
  for (; k < md.length; k++) {
    const next = used + md[k].text.length + 1;
    if (next + elPrefix[Math.min(md[k].upto, elements.length)] > room) break;
    used = next;
  }
  const upto = k > 0 ? Math.min(md[k - 1].upto, elements.length) : 0;
  const left = room - used - elPrefix[upto];
  if (k < md.length && left > 200) {
    const extra = Math.min(md[k].upto, elements.length);
    if (used + elPrefix[extra] + 200 <= room) {
      return { mdLines: k + 1, elements: extra, shortenLast: room - used - elPrefix[extra] - 2, complete: false };
    }
  }
  return { mdLines: k, elements: upto, complete: false };
}

/** @param {number} n */
const fmt = (n) => n.toLocaleString("en-US");

/**
 * The honest note appended when an extract was cut.
 * @param {{rows: number, elements: number, chars: number, hint?: string, maxChars: number}} cut
 *   what was left out (table rows, interactive elements, characters of text) and
 *   a selector that continues where the output stopped, when there is one
 * @returns {string}
 */
export function truncationNote({ rows, elements, chars, hint, maxChars }) {
  const parts = [];
  if (rows) parts.push(`${fmt(rows)} more table rows`);
  if (elements) parts.push(`${fmt(elements)} more interactive elements`);
  if (chars) parts.push(`~${fmt(chars)} more characters of text`);
  const what = parts.length ? parts.join(", ") : "the rest of the page";
  let note = `… truncated at max_chars=${maxChars}: ${what} omitted. `;
  note += hint
    ? `To read on, call extract with selector=${JSON.stringify(hint)}`
    : "To read more, call extract with a selector for the part you need";
  if (maxChars < MAX_MAX_CHARS) note += ` or a larger max_chars (up to ${MAX_MAX_CHARS})`;
  return `${note}.`;
}
