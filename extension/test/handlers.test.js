import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";

import { ACTION_HANDLERS, HANDLERS } from "../src/actions/index.js";
import { ACTIONS, ACTION_TYPES } from "../src/protocol.js";

/** The module an action's handler lives in: its type in kebab-case (`press_key` → press-key.js). */
const moduleOf = (/** @type {string} */ type) => `${type.replaceAll("_", "-")}.js`;
const ACTIONS_DIR = new URL("../src/actions/", import.meta.url);

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

test("each action's handler is in the module named after it, and every module there is an action's", async () => {
  const modules = readdirSync(ACTIONS_DIR).filter((name) => name.endsWith(".js") && name !== "index.js").sort();
  assert.deepEqual(modules, ACTION_TYPES.map(moduleOf).sort(),
    "src/actions/ holds one <action-type>.js per declared action (shared helpers go in src/actions/support/)");
  for (const type of ACTION_TYPES) {
    const module = await import(new URL(moduleOf(type), ACTIONS_DIR).href);
    assert.equal(typeof module.handler, "function", `actions/${moduleOf(type)} exports its handler as \`handler\``);
    assert.equal(module.handler, ACTION_HANDLERS[type], `${type}'s handler is actions/${moduleOf(type)}'s`);
  }
});

test("a handler is wrapped with the change list exactly when its declaration says so", () => {
  const wrapped = ACTION_TYPES.filter((type) => HANDLERS[type] !== ACTION_HANDLERS[type]);
  assert.deepEqual(wrapped, ACTION_TYPES.filter((type) => ACTIONS[type].change_list));
  assert.ok(wrapped.length > 0);
});

test("handlers trust the validated contract: no action module re-checks a field's type", () => {
  // The app validates every field (app/protocol/actions/, pydantic) and the dispatcher the envelope and required
  // fields (wire/action-dispatcher.js); a handler's action is typed (actions/support/context.js ActionOf).
  const recheck = /typeof action\.\w+|Number\.is\w+\(action\.\w+|\.includes\(action\.\w+\)/;
  for (const dir of ["", "support/"]) {
    for (const name of readdirSync(new URL(dir, ACTIONS_DIR)).filter((n) => n.endsWith(".js"))) {
      const source = readFileSync(new URL(dir + name, ACTIONS_DIR), "utf8");
      assert.doesNotMatch(source, recheck, `actions/${dir}${name} re-checks what the app validated`);
    }
  }
});

test("no action module keeps its own copy of a declared default", () => {
  // A field's default is declared once (the pydantic model) and reaches the extension as ACTIONS[type].defaults;
  // `action.field ?? <literal>` for a field with a declared default is a second copy that drifts.
  const copy = /action\.(\w+) \?\? (["'`\d\-]|true\b|false\b)/g;
  const specs = /** @type {Record<string, {defaults: Record<string, unknown>}>} */ (/** @type {unknown} */ (ACTIONS));
  for (const type of ACTION_TYPES) {
    assert.equal(typeof specs[type].defaults, "object", `${type}.defaults`);
    const source = readFileSync(new URL(moduleOf(type), ACTIONS_DIR), "utf8");
    const copies = [...source.matchAll(copy)].filter((m) => m[1] in specs[type].defaults).map((m) => m[0]);
    assert.deepEqual(copies, [], `actions/${moduleOf(type)}: read the default from ACTIONS.${type}.defaults`);
  }
  assert.equal(specs.navigate.defaults.timeout_ms, 30000, "the declared default (app/protocol/actions/navigate.py)");
});
