/**
 * A pointer action's result with the note of what received it, when the aim and the receiver differ
 * (input/aim.js `receiver`), shared by click and hover; and, when the aimed element stands in a frame of another
 * origin and received it, its description as that frame's (`frames`, extract/framed.js). A receiver other than
 * the aim may stand anywhere: its description stays the page's.
 */

import { shownBy } from "../../extract/framed.js";

/**
 * @template {Record<string, unknown>} T
 * @param {T} result
 * @param {string} note
 * @param {{frame?: string, receiver: string}} [aimed] the aimed element's frame (withPointer) and the receiver's
 *   description
 * @returns {T & {note?: string, frames?: import("../../extract/framed.js").Framed[]}}
 */
export function withNote(result, note, aimed = { receiver: "" }) {
  return note ? { ...result, note } : { ...result, ...shownBy(aimed.frame, [aimed.receiver]) };
}
