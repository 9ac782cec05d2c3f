// @ts-check
// Every error whose message interpolates the page's text (an element description, a download's file name, a
// thrown exception, what a wait saw) lists that text with `quoting(...)`: the app marks the listed strings as page
// data where the message says them (app/protocol/page_data.py). A message that quotes the page without listing it
// would reach the model unmarked. safety/ is read by the app from the confirmation details instead
// (app/safety/guard.py `_without_token`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

import { ActionError, ErrorCode, quoting, toErrorBody } from "../src/protocol.js";

const SRC = new URL("../src/", import.meta.url).pathname;
/** Interpolations that hold the page's text in this code base. */
const PAGE_VALUES = /\$\{[^}]*(\.target|\bwhat\b|filename|\bcover\b|\.seen|\.sample|\.by\b|\.was\b|\.now\b|\blabels\b)[^}]*\}/;

/** @param {string} dir @returns {string[]} */
function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "generated" || name === "safety" ? [] : files(path);
    return name.endsWith(".js") ? [path] : [];
  });
}

/** The source of each `new ActionError(...)` call (parentheses balanced). @param {string} text */
function errorCalls(text) {
  const calls = [];
  for (let at = text.indexOf("new ActionError("); at >= 0; at = text.indexOf("new ActionError(", at + 1)) {
    let depth = 0;
    let end = at + "new ActionError".length;
    for (; end < text.length; end++) {
      if (text[end] === "(") depth++;
      if (text[end] === ")" && --depth === 0) break;
    }
    calls.push(text.slice(at, end + 1));
  }
  return calls;
}

test("every error message that interpolates page text lists it with quoting()", () => {
  const missing = [];
  for (const path of files(SRC)) {
    for (const call of errorCalls(readFileSync(path, "utf8"))) {
      if (PAGE_VALUES.test(call) && !call.includes("quoting(")) missing.push(`${path.slice(SRC.length)}: ${call.slice(0, 120)}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("the scan finds an unlisted quote, and quoting keeps only real strings", () => {
  const probe = "throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} is covered`);";
  assert.ok(errorCalls(probe).every((c) => PAGE_VALUES.test(c) && !c.includes("quoting(")));
  assert.deepEqual(quoting('button "Pay"', undefined, "", null, 'div "x"'), { page_text: ['button "Pay"', 'div "x"'] });
  const body = toErrorBody(new ActionError(ErrorCode.NOT_INTERACTABLE, 'button "Pay" is hidden', quoting('button "Pay"')));
  assert.deepEqual(body.page_text, ['button "Pay"']);
});
