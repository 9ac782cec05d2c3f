import { test } from "node:test";
import assert from "node:assert/strict";

import { elementLine, elementLines } from "../src/extract/element-lines.js";

test("uid, role, quoted name, states, context in parentheses", () => {
  assert.equal(elementLine({ uid: "e4", role: "button", name: "View", states: "", context: "row: Jane Doe" }),
    'e4 button "View" (row: Jane Doe)');
  assert.equal(elementLine({ uid: "e7", role: "textbox", name: "Email", states: 'value="a@b.c" required' }),
    'e7 textbox "Email" value="a@b.c" required');
});

test("an empty name is left out; quotes in names are escaped", () => {
  assert.equal(elementLine({ uid: "e1", role: "textbox", name: "" }), "e1 textbox");
  assert.equal(elementLine({ uid: "e2", role: "link", name: 'Say "hi"' }), 'e2 link "Say \\"hi\\""');
});

test("one line per element, in order", () => {
  assert.deepEqual(elementLines([{ uid: "e1", role: "link", name: "A" }, { uid: "e2", role: "tab", name: "B", states: "selected" }]),
    ['e1 link "A"', 'e2 tab "B" selected']);
});
