import { test } from "node:test";
import assert from "node:assert/strict";

import { fit, NOTE_RESERVE, truncationNote } from "../src/extract/budget.js";

/** @param {number} n @param {number} width */
function table(n, width) {
  return Array.from({ length: n }, (_, i) => ({ text: `|${"x".repeat(width - 2)}|`, upto: i + 1 }));
}

test("everything fits: nothing is cut", () => {
  const md = table(3, 10);
  assert.deepEqual(fit(md, ["e1 a", "e2 b", "e3 c"], 1000), { mdLines: 3, elements: 3, complete: true });
});

test("markdown and elements are cut at the same place, leaving room for the note", () => {
  const md = table(100, 49);
  const elements = Array.from({ length: 100 }, (_, i) => `e${i + 1} button "View" (row: ${i})`.padEnd(29, " "));
  const budget = 3000;
  const cut = fit(md, elements, budget);
  assert.equal(cut.complete, false);
  assert.equal(cut.elements, md[cut.mdLines - 1].upto, "elements stop where the markdown stops");
  const used = md.slice(0, cut.mdLines).reduce((n, l) => n + l.text.length + 1, 0) +
    elements.slice(0, cut.elements).reduce((n, l) => n + l.length + 1, 0);
  assert.ok(used <= budget - NOTE_RESERVE, `${used} chars used`);
  assert.ok(used > budget - NOTE_RESERVE - 100, "and the budget is used");
});

test("elements of stripped regions before the cut stay; those after go", () => {
  const md = [{ text: "a".repeat(100), upto: 5 }, { text: "b".repeat(1000), upto: 6 }];
  const cut = fit(md, ["e1", "e2", "e3", "e4", "e5", "e6"], 900);
  assert.equal(cut.mdLines, 2);
  assert.equal(cut.elements, 6);
  assert.ok(cut.shortenLast && cut.shortenLast < 1000, "a line too long for what is left is shortened");
});

test("the note says what was left out and how to read on", () => {
  const note = truncationNote({ rows: 9000, elements: 9012, chars: 450000, hint: "#t > tbody > tr:nth-child(n+201)", maxChars: 24000 });
  assert.equal(note, "… truncated at max_chars=24000: 9,000 more table rows, 9,012 more interactive elements, " +
    "~450,000 more characters of text omitted. To read on, call extract with " +
    'selector="#t > tbody > tr:nth-child(n+201)" or a larger max_chars (up to 200000).');
  assert.match(truncationNote({ rows: 0, elements: 0, chars: 10, maxChars: 200000 }),
    /~10 more characters of text omitted\. To read more, call extract with a selector for the part you need\.$/);
});
