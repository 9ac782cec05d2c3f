// @ts-check
import { test } from "node:test";
import assert from "node:assert/strict";

import { copiesSelection } from "../src/actions/press-key.js";
import { parseKeyCombo } from "../src/input/keys.js";

test("copy and cut chords copy the selection; paste and ordinary keys do not", () => {
  for (const key of ["Control+C", "Control+c", "Meta+C", "Control+X", "Control+Insert", "Shift+Delete", "ControlOrMeta+C"]) {
    assert.equal(copiesSelection(parseKeyCombo(key)), true, key);
  }
  assert.equal(copiesSelection(parseKeyCombo("Meta+C", { mac: true })), true);
  for (const key of ["c", "Shift+C", "Control+V", "Shift+Insert", "Delete", "Alt+C", "Enter", "Control+A"]) {
    assert.equal(copiesSelection(parseKeyCombo(key)), false, key);
  }
});
