/**
 * A pointer action's result with the note of what received it, when the aim and the receiver differ
 * (input/aim.js `receiver`), shared by click and hover.
 */

/**
 * @template {Record<string, unknown>} T
 * @param {T} result
 * @param {string} note
 * @returns {T & {note?: string}}
 */
export function withNote(result, note) {
  return note ? { ...result, note } : result;
}
