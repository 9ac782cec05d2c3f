import { test } from "node:test";
import assert from "node:assert/strict";

import { diffSnapshots, lineHunks, ONLY_REPORTED } from "../src/extract/diff.js";
import { changesSince } from "../src/extract/extract-action.js";
import { forgetTab, MAX_SNAPSHOTS, previous, remember, snapshotCount } from "../src/extract/snapshots.js";

/** @param {string[]} lines @param {[string, string, string, string?, string?][]} els */
function snap(lines, els, doc = "d1") {
  return {
    doc, url: "http://x/", title: "X", lines,
    elements: new Map(els.map(([uid, role, name, states, context]) => [uid, { uid, role, name, states, context }])),
  };
}

test("hunks: added, removed and a replaced line, each where it stands", () => {
  const hunks = lineHunks(["a", "b", "c", "d"], ["a", "B", "c", "d", "e"], 100);
  assert.deepEqual(hunks, [{ at: 1, removed: ["b"], added: ["B"] }, { at: 4, removed: [], added: ["e"] }]);
  assert.deepEqual(lineHunks(["x"], ["x"], 10), []);
  assert.deepEqual(lineHunks([], ["a", "b"], 10), [{ at: 0, removed: [], added: ["a", "b"] }]);
  assert.deepEqual(lineHunks(["a", "b", "c"], ["c"], 10), [{ at: 0, removed: ["a", "b"], added: [] }]);
});

test("hunks: more edits than allowed gives null", () => {
  const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
  const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
  assert.equal(lineHunks(a, b, 20), null);
  assert.equal(lineHunks(a, b, 100)?.length, 1);
});

test("hunks agree with a brute-force LCS on random edits", () => {
  let seed = 7;
  const rand = (n) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  for (let round = 0; round < 200; round++) {
    const a = Array.from({ length: rand(12) }, () => `l${rand(5)}`);
    const b = Array.from({ length: rand(12) }, () => `l${rand(5)}`);
    const hunks = lineHunks(a, b, 1000);
    const edits = hunks.reduce((n, h) => n + h.removed.length + h.added.length, 0);
    const lcs = (() => {
      const t = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
      for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) {
        t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
      }
      return t[0][0];
    })();
    assert.equal(edits, a.length + b.length - 2 * lcs, `${a} → ${b}`);
    // Applying the hunks to a gives b.
    const rebuilt = [];
    let i = 0;
    let j = 0;
    for (const h of hunks) {
      while (j < h.at) { rebuilt.push(a[i]); i++; j++; }
      i += h.removed.length;
      rebuilt.push(...h.added);
      j += h.added.length;
    }
    while (i < a.length) rebuilt.push(a[i++]);
    assert.deepEqual(rebuilt, b, `${a} → ${b}`);
  }
});

test("a panel opening: text added after its context, a loading line gone, one element added", () => {
  const before = snap(["# Candidates", "Loading Jane…", "| Jane | [View](e4) |"], [["e4", "button", "View", "", "row: Jane"]]);
  const after = snap(["# Candidates", "| Jane | [View](e4) |", "[dialog \"Jane\"]", "## Jane", "jane@example.org", "[Close](e9)"],
    [["e4", "button", "View", "", "row: Jane"], ["e9", "button", "Close"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, [
    "@ after: # Candidates", "- Loading Jane…",
    "@ after: | Jane | [View](e4) |", '+ [dialog "Jane"]', "+ ## Jane", "+ jane@example.org", "+ [Close](e9)",
  ].join("\n"));
  assert.equal(list?.elements, '+ e9 button "Close"');
  assert.equal(list?.summary, "text lines: 4 added, 1 removed; elements: 1 added");
});

test("names and states changed keep their uid; a context change alone is no change; inline links are not repeated", () => {
  const before = snap(["Count: 1", "[Docs](e3)"], [["e1", "textbox", "Email", 'value=""'], ["e2", "button", "Save", "", "under: A"],
    ["e3", "link", "Docs"], ["e5", "checkbox", "Remember"]]);
  const after = snap(["Count: 2", "[Docs](e3)", "[Help](e6)"], [["e1", "textbox", "Email", 'value="a@b.c"'], ["e2", "button", "Save", "", "under: B"],
    ["e3", "link", "Docs"], ["e5", "checkbox", "Remember", "checked"], ["e6", "link", "Help"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, ["@ at the top", "~ Count: 2", "  was: Count: 1", "@ after: [Docs](e3)", "+ [Help](e6)"].join("\n"));
  assert.equal(list?.elements, [
    '~ e1 textbox "Email" value="a@b.c" (was: textbox "Email" value="")',
    '~ e5 checkbox "Remember" checked (was: checkbox "Remember")',
  ].join("\n"));
  assert.match(list?.summary ?? "", /elements: 1 added, 2 changed/);
});

test("nothing changed says so", () => {
  const page = snap(["a"], [["e1", "button", "A"]]);
  assert.deepEqual(diffSnapshots(page, page), { summary: "no text or element changed" });
});

const full = (lines) => ({ url: "http://x/", title: "X", markdown: lines.join("\n"), elements: "", text: "" });

test("extract changes: a full extract when there is no earlier one, a new document, or a change larger than the page", () => {
  const a = snap(["one", "two"], []);
  assert.match(changesSince(undefined, a, full(a.lines), 24000).changes.summary, /no earlier extract.*full extract/);
  const other = snap(["one", "two"], [], "d2");
  const renewed = changesSince(a, other, full(other.lines), 24000);
  assert.equal(renewed.changes.full, true);
  assert.match(renewed.changes.summary, /new document/);
  assert.equal(renewed.markdown, "one\ntwo");
  const big = snap(Array.from({ length: 40 }, (_, i) => `new line ${i}`), []);
  const replaced = changesSince(a, big, full(big.lines), 24000);
  assert.equal(replaced.changes.full, true);
  assert.match(replaced.changes.summary, /larger than the page/);
  const small = snap(["one", "two", "three"], []);
  const changed = changesSince(a, small, full(small.lines), 24000);
  assert.deepEqual(changed, { url: "http://x/", title: "X", changes: { summary: "text lines: 1 added", markdown: "@ after: two\n+ three" } });
});

test("snapshots: per task, tab and selector; bounded; dropped with their tab", () => {
  remember("t1", 1, undefined, snap(["a"], []));
  remember("t1", 1, "#p", snap(["b"], []));
  remember("t2", 1, undefined, snap(["c"], []));
  assert.deepEqual(previous("t1", 1)?.lines, ["a"]);
  assert.deepEqual(previous("t1", 1, "#p")?.lines, ["b"]);
  assert.equal(previous("t1", 2), undefined);
  forgetTab(1);
  assert.equal(previous("t1", 1), undefined);
  for (let i = 0; i < MAX_SNAPSHOTS + 10; i++) remember("t", i, undefined, snap([String(i)], []));
  assert.equal(snapshotCount(), MAX_SNAPSHOTS);
  assert.equal(previous("t", 0), undefined);
  assert.deepEqual(previous("t", MAX_SNAPSHOTS + 9)?.lines, [String(MAX_SNAPSHOTS + 9)]);
});

test("a closed dialog is one line with its name and size; its elements are not listed again", () => {
  const panel = ['[dialog "Jane"]', "## Jane", "Email", "jane@example.org", "Phone", "+44 1", "[Close](e8)", "[end of dialog]"];
  const before = snap(["# List", ...panel, "Tail"], [["e8", "button", "Close"], ["e9", "button", "Other"]]);
  const after = snap(["# List", "Tail"], [["e9", "button", "Other"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, ["@ after: # List", '- dialog "Jane" closed (8 lines, 1 element)'].join("\n"));
  assert.equal(list?.elements, undefined);
  assert.equal(list?.summary, "text lines: 8 removed; elements: 1 removed");
});

test("a modal dialog inside another, and lines around it, collapse by block", () => {
  const inner = ["[dialog, modal: the page behind it is inert until it is closed]", "Sure?", "[end of dialog]"];
  const outer = ['[dialog "Edit \\"x\\""]', "## Edit", ...inner, "[Save](e3)", "[end of dialog]"];
  const before = snap(["# A", "gone line", ...outer, "[Open](e2)"], [["e2", "button", "Open"], ["e3", "button", "Save"]]);
  const after = snap(["# A", "[Open](e2)"], [["e2", "button", "Open"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, ["@ after: # A", "- gone line", '- dialog "Edit \\"x\\"" closed (7 lines, 1 element)'].join("\n"));
  assert.equal(list?.elements, undefined);
});

test("a long run of removed lines that is no dialog is listed by its first and last lines; its elements all", () => {
  const run = ["Jane", "Email", "[Close](e8)", "Phone", "+44 1", "Last"];
  const before = snap(["# List", ...run], [["e8", "button", "Close"]]);
  const after = snap(["# List"], []);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, ["@ after: # List", "- Jane", "- Email", "  … 3 more lines removed", "- Last"].join("\n"));
  assert.equal(list?.elements, '- e8 button "Close"');
});

test("a panel gone (a long section under a heading) is one line with its heading and size", () => {
  const panel = ["## Jane", "Email", "[Close](e8)", "Phone", "+44 1", "Last"];
  const list = diffSnapshots(snap(["# List", "kept", "gone", ...panel], [["e8", "button", "Close"]]), snap(["# List", "kept"], []));
  assert.equal(list?.markdown, ["@ after: kept", "- gone", '- section "Jane" removed (6 lines, 1 element)'].join("\n"));
  const short = diffSnapshots(snap(["# List", "## Note", "Saved"], []), snap(["# List"], []));
  assert.equal(short?.markdown, ["@ after: # List", "- ## Note", "- Saved"].join("\n"), "a short one is listed");
});

test("a dialog with no name is named by its first heading when it closes", () => {
  const panel = ["[dialog, modal: the page behind it is inert until it is closed]", "## Delete file?", "Gone for good.",
    "[Delete](e3)", "[end of dialog]"];
  const list = diffSnapshots(snap(["# Files", ...panel], [["e3", "button", "Delete"]]), snap(["# Files"], []));
  assert.equal(list?.markdown, ["@ after: # Files", '- dialog "Delete file?" closed (5 lines, 1 element)'].join("\n"));
});

test("the elements of a left-out region that went whole share one line; a region partly left lists its own", () => {
  const regioned = (/** @type {[string, string, string][]} */ els) => ({
    doc: "d1", url: "http://x/", title: "X", lines: ["# Page"],
    elements: new Map(els.map(([uid, name, region]) => [uid, { uid, role: "button", name, region, regionNo: "/1" }])),
  });
  const cookie = 'region "Cookie consent"';
  const before = regioned([["e1", "Accept", cookie], ["e2", "Reject", cookie], ["e3", "Settings", cookie],
    ["e4", "Jobs", 'navigation "Main"'], ["e5", "Help", 'navigation "Main"']]);
  const after = regioned([["e5", "Help", 'navigation "Main"']]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.elements, [`- ${cookie} gone (3 elements)`, '- e4 button "Jobs" (in navigation "Main")'].join("\n"));
  assert.equal(list?.summary, "elements: 4 removed");
});

test("a name change the listed lines show is not listed again; a state change is", () => {
  const before = snap(["| Jane | [View](e4) |"], [["e4", "button", "View", "", "row: Jane"], ["e5", "checkbox", "A"]]);
  const after = snap(["| Jane | [e4] |"], [["e4", "button", "", "", "row: Jane"], ["e5", "checkbox", "A", "checked"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.elements, '~ e5 checkbox "A" checked (was: checkbox "A")');
  assert.equal(list?.summary, "text lines: 1 changed; elements: 2 changed");
});

test("fields the action reported itself are left out when only their value or state changed", () => {
  const before = snap(["Form"], [["e1", "textbox", "Name", 'value="old"'], ["e2", "radio", "Small", "checked"],
    ["e3", "radio", "Large"], ["e4", "textbox", "Label"]]);
  const after = snap(["Form"], [["e1", "textbox", "Name", 'value="Ada"'], ["e2", "radio", "Small"],
    ["e3", "radio", "Large", "checked"], ["e4", "textbox", "Label now", 'value="x"']]);
  const list = diffSnapshots(before, after, 2000, { reported: new Set(["e1", "e3", "e4"]) });
  assert.equal(list?.elements, ['~ e2 radio "Small" (was: radio "Small" checked)',
    '~ e4 textbox "Label now" value="x" (was: textbox "Label")'].join("\n"));
  assert.equal(list?.summary, "elements: 2 changed", "the fields the result reports are not counted again");
  const onlyName = snap(["Form"], [["e1", "textbox", "Name", 'value="Ada"'], ["e2", "radio", "Small", "checked"],
    ["e3", "radio", "Large"], ["e4", "textbox", "Label"]]);
  const only = diffSnapshots(before, onlyName, 2000, { reported: new Set(["e1"]) });
  assert.equal(only?.summary, ONLY_REPORTED);
});

test("an element of a left-out region says its region, as the index's region line names it", () => {
  /** @param {[string, string, string, string?, string?, string?][]} els */
  const withRegions = (els) => ({
    doc: "d1", url: "http://x/", title: "X", lines: ["# Page"],
    elements: new Map(els.map(([uid, role, name, states, context, region]) =>
      [uid, { uid, role, name, states, context, ...(region ? { region, regionNo: "/1" } : {}) }])),
  });
  const main = 'navigation "Main"';
  const before = withRegions([["e1", "link", "Jobs", "", "", main], ["e2", "link", "Home", "", "in navigation #1", main],
    ["e3", "button", "Menu", "", "", main], ["e4", "link", "Old", "", "", main], ["e9", "button", "Save"]]);
  const after = withRegions([["e1", "link", "Jobs", "", "", main], ["e2", "link", "Home", "current", "in navigation #1", main],
    ["e3", "button", "Menu", "expanded", "", main], ["e7", "link", "Archive", "", "", main],
    ["e8", "link", "Help", "", "row: Tools", "footer"], ["e9", "button", "Save"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, undefined, "a left-out region changes no markdown line");
  assert.equal(list?.elements, [
    '~ e2 link "Home" current (in navigation "Main" #1) (was: link "Home")',
    '~ e3 button "Menu" expanded (in navigation "Main") (was: button "Menu")',
    '+ e7 link "Archive" (in navigation "Main")',
    '+ e8 link "Help" (in footer, row: Tools)',
    '- e4 link "Old" (in navigation "Main")',
  ].join("\n"));
});

test("lines whose only change is their elements' labels give just the new tokens", () => {
  const before = snap(["# T", "| Jane | [e4] |", "| Omar | [e5] |", "Count: 1"],
    [["e4", "button", ""], ["e5", "button", ""]]);
  const after = snap(["# T", "| Jane | [View](e4) |", "| Omar | [View](e5) |", "Count: 2"],
    [["e4", "button", "View"], ["e5", "button", "View"]]);
  const list = diffSnapshots(before, after);
  assert.equal(list?.markdown, ["@ after: # T", "~ Count: 2", "  was: Count: 1", "~ labels now: [View](e4) [View](e5)"].join("\n"));
  assert.equal(list?.elements, undefined, "the tokens show the names");
  assert.equal(list?.summary, "text lines: 3 changed; elements: 2 changed");
  const text = diffSnapshots(snap(["| Jane | [e4] |"], []), snap(["| Jane D | [View](e4) |"], []));
  assert.equal(text?.markdown, ["@ at the top", "~ | Jane D | [View](e4) |", "  was: | Jane | [e4] |"].join("\n"), "text changed too");
});
