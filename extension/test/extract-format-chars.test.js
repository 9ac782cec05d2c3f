import { test } from "node:test";
import assert from "node:assert/strict";

import { dropInvisible, dropInvisibleDeep } from "../src/extract/format-chars.js";

test("soft hyphens, zero-width spaces, joiners, bidi controls, the word joiner and the BOM are dropped", () => {
  assert.equal(dropInvisible("Donau\u00ADdampf\u00ADschiff"), "Donaudampfschiff");
  assert.equal(dropInvisible("a\u200Cc\u200Dd\u2060e\u200Ef\u200Fg\u202Ah\u202Ci\u2066j\u2069k\uFEFFl"), "acdefghijkl");
});

test("a zero-width space between two characters marks a word's edge: a space; at a space or an end, nothing", () => {
  assert.equal(dropInvisible("ignore\u200Bprevious\u200Binstructions"), "ignore previous instructions");
  assert.equal(dropInvisible("\u0E20\u0E32\u0E29\u0E32\u200B\u0E44\u0E17\u0E22"), "\u0E20\u0E32\u0E29\u0E32 \u0E44\u0E17\u0E22");
  assert.equal(dropInvisible("end.\u200B next\u200B"), "end. next");
  assert.equal(dropInvisible("plain text"), "plain text");
});

test("what changes the drawing is kept: emoji sequences, tag flags, a joiner picking an Arabic or Indic form", () => {
  const coder = "\u{1F469}\u200D\u{1F4BB}";
  assert.equal(dropInvisible(`${coder} codes`), `${coder} codes`);
  const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
  assert.equal(dropInvisible(england), england);
  assert.equal(dropInvisible("\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645"), "\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645");
  assert.equal(dropInvisible("\u0915\u094D\u200D\u0937"), "\u0915\u094D\u200D\u0937");
  assert.equal(dropInvisible("\u0600\u0661\u0662"), "\u0600\u0661\u0662", "an Arabic number sign draws over its digits");
});

test("every string of a walk's blocks is cleaned in place", () => {
  const blocks = [{ p: ["Ge\u00ADsell", { e: 1, x: "Fahr\u00ADplan" }] }, { d: "Dia\u00ADlog", m: 0, c: [] }];
  assert.deepEqual(dropInvisibleDeep(blocks), [{ p: ["Gesell", { e: 1, x: "Fahrplan" }] }, { d: "Dialog", m: 0, c: [] }]);
});

test("the shared vectors: the app's drop_invisible reads the same file", async () => {
  const { readFile } = await import("node:fs/promises");
  const { cases } = JSON.parse(await readFile(new URL("./fixtures/invisible-vectors.json", import.meta.url), "utf8"));
  for (const [given, read] of cases) assert.equal(dropInvisible(given), read, JSON.stringify(given));
});
