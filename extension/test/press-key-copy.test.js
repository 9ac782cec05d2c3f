// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";

import { copiesSelection, parseKeyCombo, pastesClipboard } from "../src/input/keys.js";

test("copy and cut chords copy the selection; paste and ordinary keys do not", () => {
  for (const key of ["Control+C", "Control+c", "Meta+C", "Control+X", "Control+Insert", "Shift+Delete", "ControlOrMeta+C"]) {
    assert.equal(copiesSelection(parseKeyCombo(key)), true, key);
  }
  assert.equal(copiesSelection(parseKeyCombo("Meta+C", { mac: true })), true);
  for (const key of ["c", "Shift+C", "Control+V", "Shift+Insert", "Delete", "Alt+C", "Enter", "Control+A"]) {
    assert.equal(copiesSelection(parseKeyCombo(key)), false, key);
  }
});

test("paste chords paste the clipboard; copy chords and ordinary keys do not", () => {
  for (const key of ["Control+V", "Control+v", "Meta+V", "Shift+Insert", "ControlOrMeta+V"]) {
    assert.equal(pastesClipboard(parseKeyCombo(key)), true, key);
  }
  for (const key of ["v", "Shift+V", "Control+C", "Control+Insert", "Insert", "Alt+V", "Control+Shift+Insert"]) {
    assert.equal(pastesClipboard(parseKeyCombo(key)), false, key);
  }
});
