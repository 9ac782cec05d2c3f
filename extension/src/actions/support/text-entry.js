/**
 * Entering a value into one field, shared by type and fill (actions/type.js, actions/fill.js): find the field a
 * target stands for, refuse one that cannot take text, enter the text (or choose the option, set the value) and
 * report what the field shows after.
 */

import { ActionError, ErrorCode, quoting } from "../../protocol.js";
import { CdpError } from "../../tabs/debugger-controller.js";
import { nodeError } from "../../targets/action-target.js";
import { describeElement, pageFunction } from "../../page/functions.js";
import { onElement } from "../../tabs/isolated-world.js";
import { pressKey } from "../../input/keyboard.js";
import { chooseOption, focusForTyping, pickEditable, readValue, setValue, takesInputItself } from "../../page/type.js";
import { parseKeyCombo, keyEvents } from "../../input/keys.js";
import { REPORTED_UIDS } from "../../extract/action-changes.js";
import { issuedUid } from "../../extract/uid-map.js";
import { definePageFunction } from "../../page/page-code.js";
import { noteSecret } from "../../safety/network-secrets.js";

/**
 * @typedef {import("./context.js").ActionContext} ActionContext
 * @typedef {import("../../targets/action-target.js").ResolvedElement} ResolvedElement
 * @typedef {ReturnType<typeof import("../../page/type.js").editFacts>} EditFacts what page/type.js reads of a field
 */

const SHOWN_VALUE_CHARS = 200;
/** How long a field has to show inserted text before bua takes it as ignored (a framework may render it late). */
const IGNORED_AFTER_MS = 150;
/** Longest text typed again as key events when the page ignored it inserted. */
const MAX_KEYED_CHARS = 500;

/**
 * The element to type into: the target, or the field a label or wrapper stands for (`instead`: it is not the
 * target, which a result says). One round trip when the target is the field itself.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @returns {Promise<ResolvedElement & {instead: boolean}>}
 */
export async function editableOf(ctx, tabId, element) {
  if (await guarded(onElement(ctx, tabId, element, takesInputItself))) return { ...element, instead: false };
  const reply = await guarded(ctx.debugger.send(tabId, "Runtime.callFunctionOn", {
    objectId: element.objectId, functionDeclaration: pageFunction(pickEditable), returnByValue: false,
  }, element.sessionId));
  if (reply.result?.subtype === "node" && reply.result.objectId) return { ...element, objectId: reply.result.objectId, instead: true };
  const what = await onElement(ctx, tabId, element, describeThis).catch(() => "the element");
  throw new ActionError(ErrorCode.NOT_INTERACTABLE,
    `${what} is not a text field, select or contenteditable and contains none; target the input itself (extract shows it as a textbox or combobox)`,
    quoting(what));
}

/** In the page: a short handle for `this`. @this {any} */
function describeThis() {
  return describeElement(this);
}
definePageFunction(describeThis, { uses: [describeElement] });

/** @param {EditFacts} facts */
export function refuseUnusable(facts) {
  if (facts.disabled) throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} cannot be typed into: ${facts.disabled}`, quoting(facts.target));
  if (facts.readOnly) throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} is read-only; it cannot be typed into`, quoting(facts.target));
  if (facts.kind === "other") {
    const hint = facts.inputType === "checkbox" || facts.inputType === "radio" ? "use click to check it"
      : facts.inputType === "file" ? "use upload with the file's path (from a folder the person allowed)"
        : "use click for buttons";
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} is an <input type=${facts.inputType}>, which takes no text; ${hint}`, quoting(facts.target));
  }
  if (facts.hidden && facts.kind !== "select") {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} is ${facts.hidden}; make it visible first, or extract to find the visible field`, quoting(facts.target));
  }
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {EditFacts} facts
 * @param {string} text
 * @param {boolean} clear
 * @returns {Promise<Record<string, unknown>>}
 */
export async function fill(ctx, tabId, element, facts, text, clear) {
  if (facts.kind === "select") {
    const choice = await onElement(ctx, tabId, element, chooseOption, [text]);
    if (!choice.ok) {
      const labels = choice.labels.map((/** @type {string} */ l) => JSON.stringify(l)).join(", ");
      throw new ActionError(ErrorCode.ELEMENT_NOT_FOUND, choice.disabled
        ? `the option ${JSON.stringify(choice.disabled)} of ${facts.target} is disabled; choose another`
        : `${facts.target} has no option ${JSON.stringify(text)}; its options are: ${labels}`,
      quoting(facts.target, choice.disabled ? JSON.stringify(choice.disabled) : labels));
    }
    return { selected: choice.label, typed_into: facts.target };
  }
  if (facts.kind === "value") {
    const set = await onElement(ctx, tabId, element, setValue, [text]);
    if (!set.ok) {
      throw new ActionError(ErrorCode.INVALID_ACTION,
        `${facts.target} (type=${facts.inputType}) did not accept ${JSON.stringify(text)}; give it as ${set.format}`,
        quoting(facts.target));
    }
    return { typed_into: facts.target };
  }
  const focus = await onElement(ctx, tabId, element, focusForTyping, [clear]);
  if (!focus.focused) {
    throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} did not take the focus (focus is on ${focus.now || "nothing"}); click it first, then type`,
      quoting(facts.target, focus.now));
  }
  if (!focus.caretPlaced) await pressKey(ctx, tabId, "End");
  if (!text) {
    if (clear && facts.value) await pressKey(ctx, tabId, "Backspace");
    return { typed_into: facts.target };
  }
  const was = await onElement(ctx, tabId, element, readValue);
  // a password is a credential wherever the page sends it, whatever it names the field (safety/network-secrets.js)
  if (facts.inputType === "password") noteSecret(String(ctx.taskId ?? ""), text);
  await ctx.debugger.send(tabId, "Input.insertText", { text });
  if (!(await ignored(ctx, tabId, element, was.value, clear && was.value === text))) return { typed_into: facts.target };
  // The page swallowed the inserted text (a terminal, a canvas editor that reads keys): type it as key presses.
  if ([...text].length > MAX_KEYED_CHARS) {
    return { typed_into: facts.target, value_unchanged: true, next_step: `the page ignored the inserted text; type it in parts of at most ${MAX_KEYED_CHARS} characters, which bua then sends as key presses, or press_key` };
  }
  for (const char of text) for (const event of keyEvents(parseKeyCombo(KEY_OF_CHAR[char] ?? char))) await ctx.debugger.send(tabId, "Input.dispatchKeyEvent", event);
  /** @type {Record<string, unknown>} */
  const outcome = { typed_into: facts.target, typed_with: "key presses (the page ignored the text inserted as typing)" };
  if (await ignored(ctx, tabId, element, was.value, false)) {
    outcome.value_unchanged = true;
    outcome.next_step = "the field's value did not change: the page may show what it took elsewhere (a terminal screen, a canvas); extract or screenshot to see it";
  }
  return outcome;
}

/** Characters whose key has a name (keys.js), as typed. */
const KEY_OF_CHAR = /** @type {Record<string, string>} */ ({ " ": "Space", "\n": "Enter", "\r": "Enter", "\t": "Tab" });

/**
 * Whether the field still shows `was` after the page had time to render what it took (a value it should keep,
 * `same`, is no sign).
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {string} was
 * @param {boolean} same
 */
async function ignored(ctx, tabId, element, was, same) {
  if (same) return false;
  for (const wait of [0, IGNORED_AFTER_MS]) {
    if (wait) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = await onElement(ctx, tabId, element, readValue).catch(() => null);
    if (!now || now.value !== was) return false;
  }
  return true;
}

/**
 * The result, marked with the uid of the field it reports on (if the task was shown one), so the change list
 * does not repeat the field's new value (action-changes.js REPORTED_UIDS).
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @param {{key?: {doc: string, id: number} | null} | null} after
 * @param {Record<string, unknown>} result
 */
export function reporting(tabId, element, after, result) {
  const uid = after?.key ? issuedUid(tabId, { sessionId: element.sessionId, ...after.key }) : undefined;
  if (uid) Object.defineProperty(result, REPORTED_UIDS, { value: [uid], enumerable: true });
  return result;
}

/**
 * The value a result quotes: a password's or an unseen field's by its length only (page/type.js's readValue).
 * @param {{value: string, password: boolean, shown?: boolean}} after
 */
export function shownValue(after) {
  if (after.password || after.shown === false) return { value_length: after.value.length };
  return after.value.length > SHOWN_VALUE_CHARS
    ? { value: `${after.value.slice(0, SHOWN_VALUE_CHARS)}…`, value_length: after.value.length }
    : { value: after.value };
}

/**
 * @template T
 * @param {Promise<T>} work
 * @returns {Promise<T>}
 */
export async function guarded(work) {
  try {
    return await work;
  } catch (err) {
    throw err instanceof CdpError ? nodeError(err) : err;
  }
}
