/**
 * The `elements` field: what the markdown does not say about the interactive elements (pure; runs under node).
 *
 *   e7 textbox "Email" value="jane@example.com" required
 *   e9 checkbox "Remember me" checked
 *   e12 button disabled
 *   e4 e5 e6 button
 *   e20 button "Open chat" (in overlay)
 *   navigation "Main": [Jobs](e1) [Reports](e3) [e5]
 *
 * uid, role, accessible name (quoted; left out when empty), states as the page walker spelled them, and a
 * context in parentheses only where role and name repeat and the markdown does not place the element. An
 * element the markdown names inline (`[Save](e12)`) gets only its role and states, and consecutive such lines
 * with the same facts share one line (`e4 e5 e6 button`); a link named inline with no state gets none. The
 * links of a region the markdown leaves out share one line, headed by the region, as markdown tokens (`[e5]`:
 * no name). page-index.js says which element gets which.
 */

import { escapeLabel } from "./markdown.js";
import { indexRules } from "./page-index.js";

/**
 * @typedef {object} ElementRecord
 * @property {string} uid
 * @property {string} role
 * @property {string} name
 * @property {string} [states] space-separated, e.g. `checked disabled` or `value="x"`
 * @property {string} [context] e.g. `row: Jane Doe`
 * @property {string} [region] the region the markdown leaves out that it stands in, e.g. `navigation "Main"`
 * @property {string} [regionNo] which region that is (two regions with one label are two lines)
 * @property {string} [frame] the origin of the frame of another origin that shows it (collect.js): its lines are
 *   that site's page text (the result's `frames`)
 */

/**
 * @param {ElementRecord} e
 * @returns {string}
 */
export function elementLine(e) {
  let line = `${e.uid} ${e.role}`;
  if (e.name) line += ` ${JSON.stringify(e.name)}`;
  if (e.states) line += ` ${e.states}`;
  if (e.context) line += ` (${e.context})`;
  return line;
}

/**
 * @param {ElementRecord[]} elements
 * @returns {string[]}
 */
export function elementLines(elements) {
  return elements.map(elementLine);
}

/**
 * An element the markdown shows where it stands needs no context: the markdown puts it in its row, item or
 * section, in page order.
 * @param {ElementRecord} record
 * @returns {ElementRecord}
 */
const placed = (record) => (record.context ? { ...record, context: "" } : record);

/**
 * The index as lines, how many elements the lines up to each one cover (budget.js cuts by lines), and which
 * lines are facts lines (joinFacts joins them once cut).
 * @param {ElementRecord[]} elements the listed elements, in page order
 * @param {(record: ElementRecord) => boolean} shown whether the markdown shows it where it stands
 * @param {(record: ElementRecord) => boolean} [named] whether the markdown names it inline (page-index.js
 *   namedInline): its line gives only its role and states
 * @returns {{lines: string[], ends: number[], facts: (string | undefined)[], frames: (string | undefined)[]}} ends[i]:
 *   how many elements lines 0…i cover; facts[i]: what line i says after its uid, when it is a facts line; frames[i]:
 *   the origin of the frame of another origin whose elements line i names (a line names one frame's alone)
 */
export function indexLines(elements, shown, named = () => false) {
  /** @type {(string | undefined)[]} */
  const frames = [];
  /** @type {string[]} */
  const lines = [];
  /** @type {number[]} */
  const ends = [];
  /** @type {(string | undefined)[]} */
  const facts = [];
  /** @type {string | undefined} the region whose line is the last one */
  let open;
  elements.forEach((record, i) => {
    const inline = shown(record);
    if (inline && named(record)) {
      const said = indexRules.inlineFacts(record.role, record.states ?? "");
      if (!said) { // nothing to add: the lines so far cover it
        if (ends.length) ends[ends.length - 1] = i + 1;
        return;
      }
      lines.push(`${record.uid} ${said}`);
      ends.push(i + 1);
      facts.push(said);
      frames.push(record.frame);
      open = undefined;
      return;
    }
    const grouped = !inline && !!record.region && indexRules.grouped(record.role, record.name, record.states ?? "");
    const token = record.name ? `[${escapeLabel(record.name)}](${record.uid})` : `[${record.uid}]`;
    if (grouped && open !== undefined && record.regionNo === open && frames[frames.length - 1] === record.frame) {
      lines[lines.length - 1] += ` ${token}`;
      ends[ends.length - 1] = i + 1;
      return;
    }
    lines.push(grouped ? `${record.region}: ${token}` : elementLine(inline ? placed(record) : record));
    ends.push(i + 1);
    facts.push(undefined);
    frames.push(record.frame);
    open = grouped ? record.regionNo ?? "" : undefined;
  });
  return { lines, ends, facts, frames };
}

/**
 * Consecutive facts lines that say the same join into one, their uids first: `e4 button` and `e5 button` are
 * `e4 e5 button`. Done once the index is cut (budget.js counts a line per element, never less than this).
 * Lines of two frames' elements stay apart: each says one site's page text.
 * @param {string[]} lines indexLines' lines, or the first of them
 * @param {(string | undefined)[]} facts indexLines' facts
 * @param {(string | undefined)[]} [frames] indexLines' frames
 * @returns {{lines: string[], frames: (string | undefined)[]}} the joined lines and each one's frame
 */
export function joinFacts(lines, facts, frames = []) {
  /** @type {string[]} */
  const out = [];
  /** @type {(string | undefined)[]} */
  const outFrames = [];
  /** @type {string[]} the uids of the last line out, when it is a facts line */
  let uids = [];
  lines.forEach((line, i) => {
    const said = facts[i];
    const uid = said === undefined ? "" : line.slice(0, line.length - said.length - 1);
    if (said !== undefined && uids.length && facts[i - 1] === said && frames[i - 1] === frames[i]) {
      uids.push(uid);
      out[out.length - 1] = `${uids.join(" ")} ${said}`;
      return;
    }
    uids = said === undefined ? [] : [uid];
    out.push(line);
    outFrames.push(frames[i]);
  });
  return { lines: out, frames: outFrames };
}
