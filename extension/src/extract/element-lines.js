/**
 * The `elements` field: one line per interactive element (pure; runs under node).
 *
 *   e4 button "View" (row: Jane Doe)
 *   e7 textbox "Email" value="jane@example.com" required
 *   e9 checkbox "Remember me" checked
 *
 * uid, role, accessible name (quoted; left out when empty), states as the
 * page walker spelled them, and a context in parentheses only where role and
 * name repeat.
 */

/**
 * @typedef {object} ElementRecord
 * @property {string} uid
 * @property {string} role
 * @property {string} name
 * @property {string} [states] space-separated, e.g. `checked disabled` or `value="x"`
 * @property {string} [context] e.g. `row: Jane Doe`
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
