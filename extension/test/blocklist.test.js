import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { Blocklist, STORAGE_KEY, blockedBy, matches } from "../src/sessions/blocklist.js";

const cases = JSON.parse(readFileSync(new URL("./fixtures/blocklist-cases.json", import.meta.url), "utf8"));

test("matching rule agrees with the shared vectors", () => {
  for (const [pattern, host, expected] of cases.matches) {
    assert.equal(matches(pattern, host), expected, `${pattern} vs ${host}`);
  }
  for (const [patterns, url, expected] of cases.urls) {
    assert.equal(blockedBy(patterns, url), expected, url);
  }
});

test("blocklist persists in storage.local and survives a new instance", async () => {
  /** @type {Record<string, unknown>} */
  const data = {};
  const storage = {
    get: async (/** @type {string} */ key) => ({ [key]: data[key] }),
    set: async (/** @type {Record<string, unknown>} */ obj) => Object.assign(data, obj),
  };
  const first = new Blocklist(storage);
  await first.replace(["Bank.example"]);
  assert.deepEqual(data[STORAGE_KEY], ["bank.example"]);
  const second = new Blocklist(storage);
  assert.equal(await second.check("https://login.bank.example/"), "bank.example");
  assert.equal(await second.check("not a url"), null);
});
