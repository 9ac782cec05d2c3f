import { test } from "node:test";
import assert from "node:assert/strict";

import { HANDLERS } from "../src/actions/index.js";
import { ACTIONS, ACTION_TYPES } from "../src/protocol.js";

test("every declared action has exactly one handler, and every handler a declaration", () => {
  const declared = new Set(ACTION_TYPES);
  const handled = new Set(Object.keys(HANDLERS));
  assert.deepEqual([...declared].filter((t) => !handled.has(t)), [], "declared without a handler");
  assert.deepEqual([...handled].filter((t) => !declared.has(t)), [], "handler without a declaration");
  for (const type of ACTION_TYPES) assert.equal(typeof HANDLERS[type], "function", type);
});

test("every declared action carries its flags and required fields", () => {
  for (const type of ACTION_TYPES) {
    const spec = /** @type {Record<string, any>} */ (ACTIONS)[type];
    assert.ok(Array.isArray(spec.required), type);
    for (const flag of ["may_navigate", "needs_input_focus", "opens_session", "needs_tab", "read_only", "may_be_sensitive"]) {
      assert.equal(typeof spec[flag], "boolean", `${type}.${flag}`);
    }
  }
});
