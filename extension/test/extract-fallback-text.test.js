import { test } from "node:test";
import assert from "node:assert/strict";

import { MIN_LEFT, notSaid, plainWords } from "../src/extract/fallback-text.js";

const report = "Quarterly hiring report. Offers accepted: 12. Median time to hire: 31 days, as in every quarter.";

test("lines and table rows the markdown or the index says already are dropped", () => {
  const md = ["# Plans", "| Plan | Price |", "| --- | --- |", "| Basic | 10 EUR |", "Read [the terms](e4) first."];
  const text = ["Plans", "Plan\tPrice", "Basic\t10 EUR", "Read the terms first.", report, "Open chat"].join("\n");
  assert.equal(notSaid(text, [...md, "Open chat"]), report);
});

test("a line said twice in the fallback comes once; a row not in the markdown keeps its cells", () => {
  const text = [report, report, "Gold\t99 EUR"].join("\n");
  assert.equal(notSaid(text, ["| Basic | 10 EUR |"]), `${report}\nGold | 99 EUR`);
});

test("a scrap left over is not worth a field", () => {
  assert.ok("Stray words".length < MIN_LEFT);
  assert.equal(notSaid("Stray words\nBasic", ["Basic"]), "");
  assert.equal(notSaid("", ["x"]), "");
});

test("markdown read as plain words: tokens by their text, marks and pipes gone, case folded", () => {
  assert.equal(plainWords("## Our [MacBook](e7)s \\[new\\] [e8]\n- | A | b |"), "our macbooks [new] a b");
});

test("a line is said only by whole words: a short new line inside a longer word of the markdown stays", () => {
  assert.equal(notSaid(["Keep your eyes open", report, "Yes"].join("\n"), ["Keep your eyes open"]), `${report}\nYes`);
  assert.equal(notSaid(["Yes", "Shop", report].join("\n"), ["Keep your eyes open on shopping"]), `Yes\nShop\n${report}`);
});
