import { test } from "node:test";
import assert from "node:assert/strict";

import { pageBlocks } from "../src/extract/page-blocks.js";

/** The in-page builders are self-contained, so they run under node too. */
function blocks() {
  /** @type {any} */
  const lib = {};
  pageBlocks(lib);
  return lib.blocks;
}

test("a sink collects text into a paragraph; empty paragraphs are dropped", () => {
  const { sink, flush, addText } = blocks();
  const s = sink();
  assert.equal(addText(s, "Hello"), true);
  assert.equal(addText(s, " "), true);
  assert.equal(addText(s, " "), false, "no double spaces");
  addText(s, "world");
  flush(s);
  addText(s, "  ");
  flush(s);
  assert.deepEqual(s.blocks, [{ p: ["Hello world"] }]);
});

test("an element-only paragraph is kept (it carries a uid)", () => {
  const { sink, flush } = blocks();
  const s = sink();
  s.runs.push({ e: 0, x: "" });
  flush(s);
  assert.deepEqual(s.blocks, [{ p: [{ e: 0, x: "" }] }]);
});

test("flatRuns squeezes any blocks into one cell line", () => {
  const { flatRuns, plain } = blocks();
  const cell = flatRuns([
    { h: 3, c: ["Title"] },
    { p: ["a ", { e: 1, x: "View" }] },
    { l: 0, i: [[{ p: ["x"] }], [{ p: ["y"] }]] },
    { t: [[1, ["c1"], ["c2"]]], hd: 0 },
    { pre: "code" },
    { d: "", m: 0, c: [{ p: ["in dialog"] }] },
  ]);
  assert.equal(plain(cell), "Title a View x y c1 c2 code in dialog");
  assert.deepEqual(cell.filter((r) => typeof r !== "string"), [{ e: 1, x: "View" }]);
});
