import { test } from "node:test";
import assert from "node:assert/strict";

import { indexLines } from "../src/extract/element-lines.js";
import { indexRules, pageIndex } from "../src/extract/page-index.js";
import { present } from "../src/extract/extract-action.js";
import { VIEW_RESERVE } from "../src/extract/budget.js";

const link = (/** @type {number} */ n, name = "", states = "", region = "", regionNo = "1") =>
  ({ uid: `e${n}`, role: "link", name, states, context: "", ...(region ? { region, regionNo } : {}) });

/** @param {any[]} blocks */
const page = (blocks) => ({ blocks, omitted: { els: 0, rows: 0, chars: 0 }, url: "http://x/", title: "T", modal: false });

test("an element is named inline when its text says its name, either of them cut, or it has no name", () => {
  const { namedInline, inlineFacts } = indexRules;
  assert.ok(namedInline("Pricing", "Pricing"));
  assert.ok(namedInline(`${"w".repeat(79)}…`, `${"w".repeat(150)}`), "the name was cut at 80, the text is whole");
  assert.ok(namedInline(`${"w".repeat(79)}…`, `${"w".repeat(299)}…`), "both were cut");
  assert.ok(namedInline("", ""), "no name: `[e5]` says all of it");
  assert.ok(!namedInline("Reply to Ana", "Reply"), "another name");
  assert.ok(!namedInline("Home page", ""), "a name the markdown does not show");
  assert.ok(!namedInline(`${"w".repeat(79)}…`, "v".repeat(150)));
  assert.equal(inlineFacts("link", ""), "", "a bare token is a link");
  assert.equal(inlineFacts("link", "attr-name"), "", "where the name came from adds nothing once it is shown");
  assert.equal(inlineFacts("link", "current"), "link current");
  assert.equal(inlineFacts("button", ""), "button", "a token does not say it is a button");
  assert.equal(inlineFacts("clickable", 'icon-name class="a  icon-name"'), 'clickable class="a  icon-name"', "quoted values whole");
});

test("the walker's estimate charges what the index really spends", () => {
  /** @type {any} */
  const lib = {};
  pageIndex(lib);
  assert.equal(lib.indexCost("link", "Pricing", "", "Pricing", false), 0, "named inline: nothing");
  assert.ok(Math.abs(lib.indexCost("button", "Save", "disabled", "Save", false) - "e12 button disabled\n".length) <= 2, "its facts");
  assert.equal(lib.indexCost("link", "Jobs", "", "", true), "Jobs".length + 10, "a token on its region's line");
  const line = 'e12 button "Save"\n'.length;
  assert.ok(Math.abs(lib.indexCost("button", "Save", "", "Save", false) - line) <= 8, "a line of its own");
});

test("the links of a left-out region share a line; other roles, stated links, shown ones and other regions do not", () => {
  const nav = 'navigation "Main"';
  const els = [link(1, "Jobs", "", nav), link(2, "Candidates", "current", nav), link(3, "Reports", "", nav),
    link(4, "[Beta] tools", "", nav), link(5, "", "", nav),
    { uid: "e6", role: "button", name: "Menu", states: "", context: "in navigation #1", region: nav, regionNo: "1" },
    link(7, "Privacy", "", "footer", "2"), link(8, "Help", "", "footer", "2"), link(9, "Inline", "current"),
    link(10, "Terms", "", "footer", "2"), link(11, "Cookies", "", "footer", "3")];
  const { lines, ends } = indexLines(els, (r) => r.uid === "e9");
  assert.deepEqual(lines, [
    'navigation "Main": [Jobs](e1)',
    'e2 link "Candidates" current',
    'navigation "Main": [Reports](e3) [\\[Beta\\] tools](e4) [e5]',
    'e6 button "Menu" (in navigation #1)',
    "footer: [Privacy](e7) [Help](e8)",
    'e9 link "Inline" current',
    "footer: [Terms](e10)",
    "footer: [Cookies](e11)",
  ]);
  assert.deepEqual(ends, [1, 2, 5, 6, 8, 9, 10, 11]);
});

test("present cuts region lines with the markdown and counts their elements in the note", () => {
  const blocks = [];
  for (let i = 0; i < 60; i++) {
    blocks.push({ p: Array.from({ length: 20 }, (_, k) => ({ u: link(i * 100 + k + 1, `Section ${i} link ${k}`, "", "navigation", `${i}`), s: 1 })) });
    blocks.push({ p: [`Paragraph ${i} `.repeat(20)] });
  }
  const result = present(page(blocks), 8000);
  const lines = result.elements.split("\n");
  assert.ok(lines.every((l) => l.startsWith("navigation: [")), lines[0]);
  const listed = lines.reduce((n, l) => n + (l.match(/\]\(e\d+\)/g) ?? []).length, 0);
  const paragraphs = result.markdown.split("\n").length;
  assert.ok(lines.length >= paragraphs && lines.length <= paragraphs + 1, `${lines.length} lines, ${paragraphs} paragraphs`);
  assert.match(result.note ?? "", new RegExp(`${(1200 - listed).toLocaleString("en-US")} more interactive elements`));
});

test("the result leaves room for the model view's envelope, its page-data boundary and keys", () => {
  const blocks = Array.from({ length: 400 }, (_, i) => ({ p: [`Line ${i} `.repeat(12), { u: link(i + 1, `Other ${i}`), x: "Go" }] }));
  for (const maxChars of [1000, 5000, 24000]) {
    const result = present(page(blocks), maxChars);
    assert.ok(JSON.stringify(result).length <= maxChars - VIEW_RESERVE, `${JSON.stringify(result).length} at ${maxChars}`);
  }
  const boundary = `\n⟦${"k".repeat(5)}⟧`.length;
  const keys = ["title", "markdown", "elements", "changes.elements"].reduce((n, key) => n + `\n${key}: `.length, 0);
  assert.ok(VIEW_RESERVE >= '{"ok":true,"action":"extract","result":}'.length + boundary + keys);
});
