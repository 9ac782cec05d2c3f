/**
 * The `elements` field: one line per interactive element (pure; runs under node).
 *
 *   e4 button "View" (row: Jane Doe)
 *   e7 textbox "Email" value="jane@example.com" required
 *   e9 checkbox "Remember me" checked
 *   navigation "Main": [Jobs](e1) [Reports](e3) [e5]
 *
 * uid, role, accessible name (quoted; left out when empty), states as the
 * page walker spelled them, and a context in parentheses only where role and
 * name repeat. The links of a region the markdown leaves out share one line,
 * headed by the region, as markdown tokens (`[e5]`: no name; page-index.js
 * says which).
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
 * An element the markdown shows where it stands needs no "under: <heading>" context: the markdown puts it
 * under that heading. Row and item contexts stay (they say which row, where names repeat).
 * @param {ElementRecord} record
 * @returns {ElementRecord}
 */
const withoutHeading = (record) => (record.context?.startsWith("under: ") ? { ...record, context: "" } : record);

/**
 * The index as lines, and how many elements the lines up to each one cover (budget.js cuts by lines).
 * @param {ElementRecord[]} elements the listed elements, in page order
 * @param {(record: ElementRecord) => boolean} shown whether the markdown shows it where it stands
 * @returns {{lines: string[], ends: number[]}} ends[i]: how many elements lines 0…i cover
 */
export function indexLines(elements, shown) {
  /** @type {string[]} */
  const lines = [];
  /** @type {number[]} */
  const ends = [];
  /** @type {string | undefined} the region whose line is the last one */
  let open;
  elements.forEach((record, i) => {
    const inline = shown(record);
    const grouped = !inline && !!record.region && indexRules.grouped(record.role, record.name, record.states ?? "");
    const token = record.name ? `[${escapeLabel(record.name)}](${record.uid})` : `[${record.uid}]`;
    if (grouped && open !== undefined && record.regionNo === open) {
      lines[lines.length - 1] += ` ${token}`;
      ends[ends.length - 1] = i + 1;
      return;
    }
    lines.push(grouped ? `${record.region}: ${token}` : elementLine(inline ? withoutHeading(record) : record));
    ends.push(i + 1);
    open = grouped ? record.regionNo ?? "" : undefined;
  });
  return { lines, ends };
}
