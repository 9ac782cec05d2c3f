import { test } from "node:test";
import assert from "node:assert/strict";

import { present } from "../src/extract/extract-action.js";

const rec = (/** @type {number} */ n, name = "View", context = "") => ({ uid: `e${n}`, role: "button", name, states: "", context });

/** @param {any[]} blocks @param {Partial<import("../src/extract/collect.js").Collected>} [extra] */
function page(blocks, extra = {}) {
  return { blocks, omitted: { els: 0, rows: 0, chars: 0 }, url: "http://x/", title: "T", modal: false, ...extra };
}

test("fields: markdown with inline uids, elements in markdown order, empty text, no note", () => {
  const nav = rec(9, "Jobs");
  const view = rec(2, "View", "row: Jane");
  const result = present(page([{ p: [{ u: nav, x: "Jobs", s: 1 }] }, { p: ["Jane ", { u: view, x: "View" }] }]), 24000);
  assert.deepEqual(result, {
    url: "http://x/", title: "T", markdown: "Jane [View](e2)",
    elements: 'e9 button "Jobs"\ne2 button "View" (row: Jane)', text: "",
  });
});

test("text only when the walker sent it, and within the budget", () => {
  const result = present(page([{ p: ["tiny"] }], { text: "t".repeat(5000) }), 3000);
  assert.equal(result.text.length, 1000);
  assert.ok(result.markdown.length + result.elements.length + result.text.length <= 3000);
});

test("a cut table gives counts and a selector that continues at the first row left out", () => {
  const rows = Array.from({ length: 400 }, (_, i) => [i + 1, [`Person ${i + 1}`], [{ u: rec(i + 1), x: "View" }]]);
  const result = present(page([{ t: [[1, ["Name"], ["Actions"]], ...rows], hd: 1, sel: "#t > tbody" }]), 5000);
  const total = result.markdown.length + result.elements.length + result.text.length + (result.note?.length ?? 0);
  assert.ok(total <= 5000, `${total}`);
  const shown = result.markdown.split("\n").length - 2;
  assert.equal(result.elements.split("\n").length, shown);
  assert.match(result.note ?? "", new RegExp(`${400 - shown} more table rows, ${400 - shown} more interactive elements`));
  assert.match(result.note ?? "", new RegExp(`selector="#t > tbody > tr:nth-child\\(n\\+${shown + 1}\\)"`));
});

test("what the walker only counted is added to the note", () => {
  const result = present(page([{ p: ["x"] }], { omitted: { els: 5, rows: 3, chars: 1200 } }), 24000);
  assert.match(result.note ?? "", /3 more table rows, 5 more interactive elements, ~1,200 more characters of text omitted/);
});
