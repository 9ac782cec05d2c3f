/**
 * Key definitions (US layout) and parsing of key names such as `Enter`,
 * `a`, `Control+A`, `Shift+Tab` into the Input.dispatchKeyEvent parameters.
 */

import { ActionError, ErrorCode } from "../protocol.js";

/**
 * @typedef {object} KeyDef
 * @property {string} key DOM `key`
 * @property {string} code DOM `code`
 * @property {number} keyCode windowsVirtualKeyCode
 * @property {string} [text] the text the key inserts
 * @property {number} [location] 1 left, 3 numpad
 *
 * @typedef {object} KeyStroke one key pressed with modifiers held
 * @property {KeyDef[]} modifiers the modifier keys, in press order
 * @property {KeyDef} key
 * @property {number} modifierMask CDP bitmask: Alt 1, Control 2, Meta 4, Shift 8
 * @property {string[]} commands editing commands (macOS shortcuts)
 */

export const MODIFIER_BITS = Object.freeze({ Alt: 1, Control: 2, Meta: 4, Shift: 8 });

/** @type {Record<string, KeyDef>} */
const NAMED = {
  Enter: { key: "Enter", code: "Enter", keyCode: 13, text: "\r" },
  Tab: { key: "Tab", code: "Tab", keyCode: 9 },
  Escape: { key: "Escape", code: "Escape", keyCode: 27 },
  Backspace: { key: "Backspace", code: "Backspace", keyCode: 8 },
  Delete: { key: "Delete", code: "Delete", keyCode: 46 },
  Insert: { key: "Insert", code: "Insert", keyCode: 45 },
  ArrowUp: { key: "ArrowUp", code: "ArrowUp", keyCode: 38 },
  ArrowDown: { key: "ArrowDown", code: "ArrowDown", keyCode: 40 },
  ArrowLeft: { key: "ArrowLeft", code: "ArrowLeft", keyCode: 37 },
  ArrowRight: { key: "ArrowRight", code: "ArrowRight", keyCode: 39 },
  PageUp: { key: "PageUp", code: "PageUp", keyCode: 33 },
  PageDown: { key: "PageDown", code: "PageDown", keyCode: 34 },
  Home: { key: "Home", code: "Home", keyCode: 36 },
  End: { key: "End", code: "End", keyCode: 35 },
  Space: { key: " ", code: "Space", keyCode: 32, text: " " },
  Shift: { key: "Shift", code: "ShiftLeft", keyCode: 16, location: 1 },
  Control: { key: "Control", code: "ControlLeft", keyCode: 17, location: 1 },
  Alt: { key: "Alt", code: "AltLeft", keyCode: 18, location: 1 },
  Meta: { key: "Meta", code: "MetaLeft", keyCode: 91, location: 1 },
  CapsLock: { key: "CapsLock", code: "CapsLock", keyCode: 20 },
  ContextMenu: { key: "ContextMenu", code: "ContextMenu", keyCode: 93 },
};
for (let n = 1; n <= 12; n++) NAMED[`F${n}`] = { key: `F${n}`, code: `F${n}`, keyCode: 111 + n };

/** Other spellings people use, lower-cased. */
const ALIASES = {
  esc: "Escape", return: "Enter", del: "Delete", ins: "Insert", up: "ArrowUp", down: "ArrowDown",
  left: "ArrowLeft", right: "ArrowRight", pgup: "PageUp", pgdn: "PageDown", pagedn: "PageDown",
  ctrl: "Control", control: "Control", cmd: "Meta", command: "Meta", super: "Meta", win: "Meta",
  option: "Alt", opt: "Alt", spacebar: "Space", " ": "Space",
};

/** Punctuation keys: unshifted and shifted character, code and key code. */
const PUNCTUATION = [
  ["-", "_", "Minus", 189], ["=", "+", "Equal", 187], ["[", "{", "BracketLeft", 219],
  ["]", "}", "BracketRight", 221], ["\\", "|", "Backslash", 220], [";", ":", "Semicolon", 186],
  ["'", "\"", "Quote", 222], [",", "<", "Comma", 188], [".", ">", "Period", 190],
  ["/", "?", "Slash", 191], ["`", "~", "Backquote", 192],
];
const SHIFTED_DIGITS = ")!@#$%^&*(";

/** @type {Map<string, KeyDef & {shifted?: boolean}>} every single character on a US keyboard */
const CHARACTERS = new Map();
for (let i = 0; i < 26; i++) {
  const lower = String.fromCharCode(97 + i);
  const upper = lower.toUpperCase();
  const base = { code: `Key${upper}`, keyCode: 65 + i };
  CHARACTERS.set(lower, { ...base, key: lower, text: lower });
  CHARACTERS.set(upper, { ...base, key: upper, text: upper, shifted: true });
}
for (let d = 0; d <= 9; d++) {
  const base = { code: `Digit${d}`, keyCode: 48 + d };
  CHARACTERS.set(String(d), { ...base, key: String(d), text: String(d) });
  CHARACTERS.set(SHIFTED_DIGITS[d], { ...base, key: SHIFTED_DIGITS[d], text: SHIFTED_DIGITS[d], shifted: true });
}
for (const [plain, shifted, code, keyCode] of PUNCTUATION) {
  CHARACTERS.set(/** @type {string} */ (plain), { key: /** @type {string} */ (plain), code: /** @type {string} */ (code), keyCode: /** @type {number} */ (keyCode), text: /** @type {string} */ (plain) });
  CHARACTERS.set(/** @type {string} */ (shifted), { key: /** @type {string} */ (shifted), code: /** @type {string} */ (code), keyCode: /** @type {number} */ (keyCode), text: /** @type {string} */ (shifted), shifted: true });
}

/** macOS handles these shortcuts in the browser, not the page: CDP needs the editing command. */
const MAC_COMMANDS = { a: "selectAll", c: "copy", x: "cut", v: "paste", z: "undo" };

const EXAMPLES = "Enter, Tab, Escape, Backspace, ArrowDown, PageDown, Home, F5, a, A, 7, Control+A, Shift+Tab, Meta+C, ControlOrMeta+V";

/**
 * @param {string} name one key, no modifiers
 * @returns {KeyDef | null}
 */
export function keyDefinition(name) {
  if ([...name].length === 1 && name !== " ") {
    const known = CHARACTERS.get(name);
    if (known) {
      const { shifted: _shifted, ...def } = known;
      return def;
    }
    return { key: name, code: "", keyCode: 0, text: name };
  }
  const canonical = ALIASES[/** @type {keyof typeof ALIASES} */ (name.toLowerCase())]
    ?? Object.keys(NAMED).find((k) => k.toLowerCase() === name.toLowerCase());
  return canonical ? { ...NAMED[canonical] } : null;
}

/**
 * Split `Control+Shift+A` / `Control++` into parts.
 * @param {string} combo
 */
function splitCombo(combo) {
  if (combo === "+") return ["+"];
  const endsWithPlus = combo.endsWith("++");
  const parts = (endsWithPlus ? combo.slice(0, -2) : combo).split("+");
  if (endsWithPlus) parts.push("+");
  return parts.map((p) => (p === " " ? p : p.trim()));
}

/**
 * Parse a key name or combination.
 * @param {unknown} combo e.g. "Enter", "Control+A", "Shift+Tab", "ControlOrMeta+V"
 * @param {{mac?: boolean}} [options] mac: the browser runs on macOS (ControlOrMeta = Meta, editing commands)
 * @returns {KeyStroke}
 * @throws {ActionError} invalid_action naming examples
 */
export function parseKeyCombo(combo, { mac = false } = {}) {
  if (typeof combo !== "string" || combo.length === 0) {
    throw new ActionError(ErrorCode.INVALID_ACTION, `'key' must be a key name such as: ${EXAMPLES}`);
  }
  const parts = splitCombo(combo);
  const last = parts.pop() ?? "";
  /** @type {KeyDef[]} */
  const modifiers = [];
  let mask = 0;
  for (const part of parts) {
    const name = /^controlormeta$/i.test(part) ? (mac ? "Meta" : "Control") : part;
    const def = keyDefinition(name);
    const bit = def ? MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (def.key)] : undefined;
    if (!def || bit === undefined) {
      throw new ActionError(
        ErrorCode.INVALID_ACTION,
        `'${part}' in '${combo}' is not a modifier; modifiers are Control, Shift, Alt, Meta, ControlOrMeta. Examples: ${EXAMPLES}`,
      );
    }
    if (!(mask & bit)) modifiers.push(def);
    mask |= bit;
  }
  let lastName = /^controlormeta$/i.test(last) ? (mac ? "Meta" : "Control") : last;
  if (/^[a-z]$/i.test(lastName) && mask !== 0) {
    lastName = mask & MODIFIER_BITS.Shift ? lastName.toUpperCase() : lastName.toLowerCase();
  }
  let key = keyDefinition(lastName);
  if (!key || last === "") {
    throw new ActionError(ErrorCode.INVALID_ACTION, `unknown key '${last}' in '${combo}'; examples: ${EXAMPLES}`);
  }
  if (mask & ~MODIFIER_BITS.Shift) key = withoutText(key);
  const modifierBit = MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (key.key)];
  if (modifierBit !== undefined) mask |= modifierBit;
  return { modifiers, key, modifierMask: mask, commands: mac ? macCommands(mask, key) : [] };
}

/** @param {KeyDef} key */
function withoutText(key) {
  const { text: _text, ...rest } = key;
  return rest;
}

/**
 * @param {number} mask
 * @param {KeyDef} key
 */
function macCommands(mask, key) {
  if (!(mask & MODIFIER_BITS.Meta)) return [];
  const letter = key.key.toLowerCase();
  if (letter === "z" && mask & MODIFIER_BITS.Shift) return ["redo"];
  const command = MAC_COMMANDS[/** @type {keyof typeof MAC_COMMANDS} */ (letter)];
  return command ? [command] : [];
}

/**
 * The keyDown/keyUp events of one stroke, in order, as Input.dispatchKeyEvent params.
 * @param {KeyStroke} stroke
 * @returns {Record<string, unknown>[]}
 */
export function keyEvents(stroke) {
  /** @type {Record<string, unknown>[]} */
  const events = [];
  let held = 0;
  for (const mod of stroke.modifiers) {
    held |= MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (mod.key)];
    events.push(eventOf("rawKeyDown", mod, held));
  }
  const { key } = stroke;
  const down = eventOf(key.text ? "keyDown" : "rawKeyDown", key, stroke.modifierMask);
  if (stroke.commands.length > 0) down.commands = stroke.commands;
  events.push(down, eventOf("keyUp", key, stroke.modifierMask));
  for (const mod of [...stroke.modifiers].reverse()) {
    held &= ~MODIFIER_BITS[/** @type {keyof typeof MODIFIER_BITS} */ (mod.key)];
    events.push(eventOf("keyUp", mod, held));
  }
  return events;
}

/**
 * @param {string} type
 * @param {KeyDef} key
 * @param {number} modifiers
 */
function eventOf(type, key, modifiers) {
  /** @type {Record<string, unknown>} */
  const event = {
    type,
    key: key.key,
    code: key.code,
    windowsVirtualKeyCode: key.keyCode,
    nativeVirtualKeyCode: key.keyCode,
    modifiers,
  };
  if (key.location) event.location = key.location;
  if (type === "keyDown" && key.text) {
    event.text = key.text;
    event.unmodifiedText = key.text;
  }
  return event;
}

/**
 * The clipboard command a key stroke is, as Chrome's editing shortcuts read it: "copy" (Control/Meta+C or X,
 * Control+Insert, Shift+Delete), "paste" (Control/Meta+V, Shift+Insert), or "" for any other stroke.
 * @param {KeyStroke} stroke
 * @returns {"copy" | "paste" | ""}
 */
export function clipboardCommand(stroke) {
  const command = (stroke.modifierMask & (MODIFIER_BITS.Control | MODIFIER_BITS.Meta)) !== 0;
  const shiftOnly = stroke.modifierMask === MODIFIER_BITS.Shift;
  const name = stroke.key.key.toLowerCase();
  if ((command && (name === "c" || name === "x" || name === "insert")) || (shiftOnly && name === "delete")) return "copy";
  if ((command && name === "v") || (shiftOnly && name === "insert")) return "paste";
  return "";
}

/** Whether a key stroke copies the selection to the clipboard (`clipboardCommand`). @param {KeyStroke} stroke */
export const copiesSelection = (stroke) => clipboardCommand(stroke) === "copy";

/** Whether a key stroke pastes the clipboard (`clipboardCommand`). @param {KeyStroke} stroke */
export const pastesClipboard = (stroke) => clipboardCommand(stroke) === "paste";
