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
    elements: 'e9 button "Jobs"\ne2 button', text: "",
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
  assert.equal(result.elements, `${Array.from({ length: shown }, (_, i) => `e${i + 1}`).join(" ")} button`,
    "the rows' buttons kept, on one facts line");
  assert.match(result.note ?? "", new RegExp(`${400 - shown} more table rows, ${400 - shown} more interactive elements`));
  assert.match(result.note ?? "", new RegExp(`selector="#t > tbody > tr:nth-child\\(n\\+${shown + 1}\\)"`));
});

test("what the walker only counted is added to the note", () => {
  const result = present(page([{ p: ["x"] }], { omitted: { els: 5, rows: 3, chars: 1200 } }), 24000);
  assert.match(result.note ?? "", /3 more table rows, 5 more interactive elements, ~1,200 more characters of text omitted/);
});

test("max_chars bounds the result as serialised: quotes, newlines and keys counted", () => {
  const rows = Array.from({ length: 300 }, (_, i) => ({ p: [`"Quoted" line ${i}\nwith a break `, { u: rec(i + 1, `Say "hi" ${i}`), x: "" }] }));
  for (const maxChars of [1000, 3000, 10000]) {
    const result = present(page(rows), maxChars);
    assert.ok(JSON.stringify(result).length <= maxChars, `${JSON.stringify(result).length} > ${maxChars}`);
    assert.match(result.note ?? "", /truncated at max_chars/);
  }
});

test("a link named inline is not listed again; one with a state gives the state, another name or no text the name", () => {
  const link = (/** @type {number} */ n, name = "Pricing", states = "") => ({ uid: `e${n}`, role: "link", name, states, context: "" });
  const result = present(page([{ p: [
    { u: link(1), x: "Pricing" }, " ", { u: link(2, "Docs", "current"), x: "Docs" }, " ", { u: link(3, "Home page"), x: "Home" },
    " ", { u: link(4, "Logo"), x: "" }, " ", { u: rec(5, "Save"), x: "Save" },
  ] }, { p: [{ u: link(6, "Jobs"), s: 1 }] }]), 24000);
  assert.equal(result.markdown, "[Pricing](e1) [Docs](e2) [Home](e3) [e4] [Save](e5)");
  assert.equal(result.elements, 'e2 link current\ne3 link "Home page"\ne4 link "Logo"\ne5 button\ne6 link "Jobs"');
});

test("a page that shows nothing says why in the note", () => {
  const result = present(page([], { blank: "The page shows nothing: body has visibility:hidden." }), 24000);
  assert.equal(result.note, "The page shows nothing: body has visibility:hidden.");
  assert.equal(result.markdown, "");
});

test("an element shown inline drops its context (the markdown places it); a stripped one keeps its own", () => {
  const search = { uid: "e1", role: "searchbox", name: "Search", states: "", context: "under: Job 1" };
  const view = rec(2, "View", "row: Jane");
  const notes = { uid: "e4", role: "textbox", name: "Notes", states: 'value="ok"', context: "row: Jane" };
  const jobs = { uid: "e3", role: "link", name: "Jobs", states: "", context: "under: Job 1" };
  const result = present(page([{ p: [{ u: search, x: "" }, { u: view, x: "View" }, { u: notes, x: "" }, { u: jobs, s: 1 }] }]), 24000);
  assert.equal(result.elements, 'e1 searchbox "Search"\ne2 button\ne4 textbox "Notes" value="ok"\ne3 link "Jobs" (under: Job 1)');
});

test("an element the markdown names gets its role and states only, exact; equal neighbours share a line", () => {
  const el = (/** @type {number} */ n, role = "button", name = "Go", states = "") => ({ uid: `e${n}`, role, name, states, context: "" });
  const tokens = [el(1, "tab", "Details", "selected"), el(2, "tab", "Notes"), el(3, "tab", "Files"),
    el(4, "button", "Colour", 'value="a  b" type=color'), el(5, "clickable", "Close panel", "icon-name"), el(6, "clickable", "Open"),
    el(7, "link", "Logo", "attr-name"), el(8, "button", "Publish", "disabled"), el(9, "button", "Draft")];
  const runs = tokens.flatMap((u) => [{ u, x: u.name }, " "]);
  const result = present(page([{ p: runs }]), 24000);
  assert.equal(result.markdown, "[Details](e1) [Notes](e2) [Files](e3) [Colour](e4) [Close panel](e5) [Open](e6) [Logo](e7) "
    + "[Publish](e8) [Draft](e9)");
  assert.equal(result.elements, ["e1 tab selected", "e2 e3 tab", 'e4 button value="a  b" type=color', "e5 e6 clickable",
    "e8 button disabled", "e9 button"].join("\n"), "a value's spaces exact; where a name came from says nothing");
});
