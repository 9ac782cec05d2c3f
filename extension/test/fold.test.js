import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { fold } from "../src/safety/fold.js";

// The same vectors tests/unit/protocol/test_fold.py checks against app/protocol/safety/fold.py: the two folds agree.
const { vectors } = JSON.parse(readFileSync(new URL("./fixtures/fold-vectors.json", import.meta.url), "utf8"));

for (const vector of vectors) {
  test(`fold: ${vector.name}`, () => {
    assert.equal(fold(vector.text), vector.folded);
  });
}

test("fold is stable", () => {
  let sample = "";
  for (let cp = 0x20; cp < 0x3000; cp++) {
    const char = String.fromCodePoint(cp);
    if (/[\p{L}\p{N}\p{P}\p{S}]/u.test(char)) sample += char;
  }
  const once = fold(sample);
  assert.equal(fold(once), once);
});

test("a letter folds alike in either case", () => {
  const differing = [];
  for (let cp = 0x80; cp < 0x20000; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const char = String.fromCodePoint(cp);
    if (char.normalize("NFKC") !== char || fold(char) === "") continue;
    const upper = char.toUpperCase();
    const lower = char.toLowerCase();
    if (upper === char && lower === char) continue;
    if (fold(char) !== fold(upper) || fold(char) !== fold(lower)) differing.push(char);
  }
  assert.deepEqual(differing, []);
});
