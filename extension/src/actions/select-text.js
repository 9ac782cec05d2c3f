/**
 * select_text {uid|selector, text?}: select all of an element's text, or the
 * first occurrence of `text` in it, as a person would by dragging over it: a
 * Range in the page's selection (for an input or textarea, its selection
 * range). Whitespace is matched as extract shows it (runs of spaces and line
 * breaks as one space); case only when no exact match exists.
 * Result: {selected, length, element, in_field?, frames?} (frames: what of it a frame of another origin shows).
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { onTaskTab, targetElement } from "../targets/action-target.js";
import { NODE_MISSING, callOnTarget } from "../targets/element-resolver.js";
import { describeElement, keptFunction } from "../page/functions.js";
import { onElement } from "../tabs/isolated-world.js";
import { readJudgedByPixels } from "../extract/pixel-reads.js";
import { definePageFunction } from "../page/page-code.js";
import { shownBy } from "../extract/framed.js";
import { targetFrameOrigin } from "../extract/frame-origin.js";

/** The selected text in a result is cut here (`length` stays the full length). */
export const MAX_SELECTED_CHARS = 2_000;

/**
 * @param {import("./support/context.js").ActionOf<"select_text">} action
 * @param {import("./support/context.js").ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"select_text">>}
 */
export async function selectText(action, ctx) {
  const text = action.text ?? null;
  return onTaskTab(action, ctx, async (tabId) => {
    const target = { uid: action.uid, selector: action.selector };
    // The text it selects is page text: the pixels decide what page code could not (pixel-reads.js).
    /** @type {string | undefined} */
    let sessionId;
    // Nothing is selected while texts wait for the pixels (a selection paints over every text's colour, and they
    // would judge it): the read selects once they are judged, or is made once more to select with their verdicts held.
    const select = async (/** @type {import("../extract/run-in-page.js").Pixels | undefined} */ pixels, /** @type {boolean} */ force) => {
      const found = await callOnTarget(ctx, tabId, target, keptFunction(selectInPage), [text, force], pixels);
      if (found !== NODE_MISSING) return found;
      const element = await targetElement(action, ctx, tabId);
      sessionId = element.sessionId;
      return onElement(ctx, tabId, element, selectInPage, [text, force], pixels);
    };
    let out = await readJudgedByPixels(ctx.debugger, tabId, () => sessionId, (pixels) => select(pixels, false), true);
    if (out?.status === "ok" && !out.applied) out = await select(undefined, true);
    const frame = await targetFrameOrigin(ctx, tabId, target);
    if (out?.status === "detached") {
      throw new ActionError(ErrorCode.ELEMENT_STALE, "the element is no longer in the page (it changed); extract again and use the new uid");
    }
    if (out?.status === "empty") {
      throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${out.target} has no text to select; pick the element that holds the text (extract shows it)`,
        { ...quoting(out.target), ...shownBy(frame, [out.target]) });
    }
    if (out?.status === "not_found") {
      throw new ActionError(ErrorCode.INVALID_ACTION, `'text' ${JSON.stringify(clip(text ?? "", 80))} is not in ${out.target}, `
        + `whose text begins ${JSON.stringify(out.sample)}; give text that appears in it, or leave 'text' out to select all of it`,
        { ...quoting(out.target, JSON.stringify(out.sample)), ...shownBy(frame, [out.target, JSON.stringify(out.sample)]) });
    }
    const selected = String(out.selected ?? "");
    /** @type {import("./support/context.js").ResultOf<"select_text">} */
    const result = { selected: clip(selected, MAX_SELECTED_CHARS), length: selected.length, element: out.target };
    if (out.in_field) result.in_field = true;
    Object.assign(result, shownBy(frame, [String(result.selected ?? ""), String(result.element ?? "")]));
    return result;
  });
}

/**
 * @param {string} text
 * @param {number} max
 */
function clip(text, max) {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * In the page: select `text` in `this` (all of its text when null) and answer what is selected. Only the text a
 * person sees of it counts (the library's seenRuns, extract/page-seen.js): it is what `text` is matched in and
 * what the answer quotes; a field whose text does not show has none to select.
 * @this {any}
 * @param {string | null | undefined} text (null may arrive as undefined)
 * @param {boolean} force select even when texts of this call wait for the pixels (their verdicts are held); otherwise
 *   it only reads until they are judged (`applied` says whether it selected)
 */
function selectInPage(text, force) {
  const el = this;
  if (!el.isConnected) return { status: "detached" };
  const lib = globalThis.__bua;
  const target = describeElement(el);
  if (!lib || typeof lib.seenRuns !== "function") return { status: "empty", target };
  const squash = (/** @type {string} */ s) => s.replace(/\s+/g, " ");
  const isField = el.tagName === "TEXTAREA" || (el.tagName === "INPUT" && typeof el.value === "string");
  if (isField) {
    const st = lib.seenState(el);
    if (!st || st.invisible || st.hideText) return { status: "empty", target };
    const value = el.value;
    let start = 0;
    let end = value.length;
    if (text != null) {
      start = value.indexOf(text);
      if (start < 0) start = value.toLowerCase().indexOf(text.toLowerCase());
      if (start < 0) return { status: "not_found", target, sample: squash(value).slice(0, 80) };
      end = start + text.length;
    }
    if (!force && lib.pixelPending() > 0) return { status: "ok", target, selected: value.slice(start, end), in_field: true, applied: false };
    el.focus({ preventScroll: true });
    try {
      el.setSelectionRange(start, end);
    } catch {
      el.select();
      start = 0;
      end = value.length;
    }
    return { status: "ok", target, selected: value.slice(start, end), in_field: true, applied: true };
  }
  // The text it shows as one string with each whitespace run as one space, and where each character came from
  // (text node, offset; null for the space between blocks), so a match maps back to a Range.
  const doc = el.ownerDocument;
  let flat = "";
  /** @type {({node: any, offset: number} | null)[]} */
  const from = [];
  lib.seenRuns(el, (/** @type {string} */ data, /** @type {any} */ node) => {
    if (!node && /\S/.test(data)) return; // an image's alt text: nothing to select
    for (let i = 0; i < data.length; i++) {
      const space = /\s/.test(data[i]);
      if (space && flat.endsWith(" ")) continue;
      flat += space ? " " : data[i];
      from.push(node ? { node, offset: i } : null);
    }
  });
  if (flat.trim() === "") return { status: "empty", target };
  const range = doc.createRange();
  let selected = flat.trim();
  if (text == null) range.selectNodeContents(el);
  else {
    const needle = squash(text.trim());
    let index = flat.indexOf(needle);
    if (index < 0) index = flat.toLowerCase().indexOf(needle.toLowerCase());
    if (index < 0) return { status: "not_found", target, sample: flat.trim().slice(0, 80) };
    const first = from[index];
    const last = from[index + needle.length - 1];
    if (!first || !last) return { status: "not_found", target, sample: flat.trim().slice(0, 80) };
    range.setStart(first.node, first.offset);
    range.setEnd(last.node, last.offset + 1);
    selected = flat.slice(index, index + needle.length);
  }
  if (!force && lib.pixelPending() > 0) return { status: "ok", target, selected, applied: false };
  const selection = doc.defaultView.getSelection();
  selection.removeAllRanges();
  selection.addRange(range);
  return { status: "ok", target, selected, applied: true };
}
definePageFunction(selectInPage, { uses: [describeElement] });

export { selectText as handler };
