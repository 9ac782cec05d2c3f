import { test } from "node:test";
import assert from "node:assert/strict";

import { keyDefinition, keyEvents, parseKeyCombo } from "../src/input/keys.js";

const downs = (/** @type {string} */ combo, mac = false) => keyEvents(parseKeyCombo(combo, { mac }))
  .filter((e) => e.type !== "keyUp");

test("named keys carry key, code, key code and text where they type", () => {
  assert.deepEqual(keyEvents(parseKeyCombo("Enter")), [
    { type: "keyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13, modifiers: 0, text: "\r", unmodifiedText: "\r" },
    { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13, nativeVirtualKeyCode: 13, modifiers: 0 },
  ]);
  for (const [name, code, keyCode] of [["Tab", "Tab", 9], ["Escape", "Escape", 27], ["Backspace", "Backspace", 8],
    ["ArrowLeft", "ArrowLeft", 37], ["PageDown", "PageDown", 34], ["Home", "Home", 36], ["F12", "F12", 123]]) {
    const [down] = downs(/** @type {string} */ (name));
    assert.equal(down.type, "rawKeyDown", `${name} types nothing`);
    assert.equal(down.code, code);
    assert.equal(down.windowsVirtualKeyCode, keyCode);
  }
});

test("aliases and any case are accepted for named keys", () => {
  for (const [alias, key] of [["esc", "Escape"], ["RETURN", "Enter"], ["pagedown", "PageDown"], ["Up", "ArrowUp"],
    ["Space", " "], ["del", "Delete"]]) {
    assert.equal(keyDefinition(/** @type {string} */ (alias))?.key, key, alias);
  }
});

test("single characters: letters, digits, shifted punctuation and anything else", () => {
  assert.deepEqual(keyDefinition("a"), { key: "a", code: "KeyA", keyCode: 65, text: "a" });
  assert.deepEqual(keyDefinition("A"), { key: "A", code: "KeyA", keyCode: 65, text: "A" });
  assert.deepEqual(keyDefinition("7"), { key: "7", code: "Digit7", keyCode: 55, text: "7" });
  assert.deepEqual(keyDefinition("?"), { key: "?", code: "Slash", keyCode: 191, text: "?" });
  assert.deepEqual(keyDefinition("é"), { key: "é", code: "", keyCode: 0, text: "é" });
});

test("Control+A holds Control, sends a lower-case a without text, then releases in reverse", () => {
  const events = keyEvents(parseKeyCombo("Control+A"));
  assert.deepEqual(events.map((e) => [e.type, e.key, e.modifiers]), [
    ["rawKeyDown", "Control", 2], ["rawKeyDown", "a", 2], ["keyUp", "a", 2], ["keyUp", "Control", 0],
  ]);
  assert.equal(events[1].text, undefined);
  assert.equal(events[0].location, 1);
});

test("Shift combinations keep their text; modifiers combine", () => {
  assert.deepEqual(downs("Shift+a").map((e) => [e.key, e.modifiers, e.text]), [["Shift", 8, undefined], ["A", 8, "A"]]);
  assert.deepEqual(downs("Shift+Tab").map((e) => [e.type, e.key, e.modifiers]), [["rawKeyDown", "Shift", 8], ["rawKeyDown", "Tab", 8]]);
  assert.deepEqual(downs("Control+Shift+K").map((e) => [e.key, e.modifiers]), [["Control", 2], ["Shift", 10], ["K", 10]]);
  assert.deepEqual(downs("Ctrl+Alt+Delete").at(-1)?.modifiers, 3);
  assert.deepEqual(downs("Control++").map((e) => e.key), ["Control", "+"]);
});

test("ControlOrMeta and Meta shortcuts use editing commands on macOS", () => {
  assert.deepEqual(downs("ControlOrMeta+A").map((e) => e.key), ["Control", "a"]);
  const mac = downs("ControlOrMeta+A", true);
  assert.deepEqual(mac.map((e) => [e.key, e.modifiers]), [["Meta", 4], ["a", 4]]);
  assert.deepEqual(mac[1].commands, ["selectAll"]);
  assert.deepEqual(downs("Meta+Shift+Z", true).at(-1)?.commands, ["redo"]);
  assert.equal(downs("Meta+C").at(-1)?.commands, undefined, "only on macOS");
});

test("a modifier pressed alone sets its own bit", () => {
  assert.deepEqual(downs("Shift").map((e) => [e.key, e.modifiers]), [["Shift", 8]]);
});

test("unknown keys and bad modifiers are invalid_action with examples", () => {
  for (const combo of ["NoSuchKey", "Hyper+Q", "A+B", "Control+", "", 7]) {
    assert.throws(() => parseKeyCombo(combo), (err) => {
      assert.equal(/** @type {any} */ (err).code, "invalid_action");
      assert.match(/** @type {Error} */ (err).message, /Control\+A/);
      return true;
    }, String(combo));
  }
});
