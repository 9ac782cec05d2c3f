// Issue 19's "declared, not named" for the extension's confirmation: a throwaway action, declared here only (its
// sensitive_by and its fields' carriers, as app/protocol/actions/*.py would generate them), is read by the
// confirmation path (safety/confirmations.js through declared-effect.js and effect-readers.js) with no other edit: what it types, whether
// it submits, which form fields it fills, and it reaches the page read; its typed card number makes the form ask.
import { test } from "node:test";
import assert from "node:assert/strict";

import { ACTIONS } from "../src/protocol.js";
import { Confirmations } from "../src/safety/confirmations.js";
import { needsRead } from "../src/safety/effect-readers.js";
import { effectOf } from "../src/safety/declared-effect.js";
import { classifyControl } from "../src/safety/classify.js";

const CARD = "4242 4242 4242 4242";
/** Throwaway declarations, beside the generated ones: none of their names or field names appear in extension/src. */
const DECLARED = Object.freeze({
  ...ACTIONS,
  dictate_probe: { sensitive_by: "typing", carries: { words: "typed_text", send_it: "submits" } },
  tap_probe: { sensitive_by: "pointer", carries: {} },
  form_probe: { sensitive_by: "fields", carries: { entries: "form_fields", "entries[].said": "typed_text", go: "submits" } },
  look_probe: { sensitive_by: null, carries: { words: "typed_text" } },
});

/** A ctx of one session tab whose first CDP command throws: reaching it shows the page would be read. */
const PAGE_READ = "the confirmation read the page";
const TAB = 5;
const ctx = /** @type {any} */ ({ taskId: "t1", sessions: { get: (/** @type {number} */ id) => id === TAB },
  debugger: { isAttached: () => false, onDetach: () => () => {}, send: async () => { throw new Error(PAGE_READ); } } });

test("a throwaway action's declared fields are what the confirmation reads", () => {
  const dictate = effectOf("dictate_probe", { uid: "e3", words: CARD, send_it: true }, DECLARED);
  assert.deepEqual(dictate, { by: "typing", submits: true, typed: [CARD], keys: [], forms: [], scripts: [] });
  const form = effectOf("form_probe", { entries: [{ selector: "#a", said: "x" }, { selector: "#card", said: CARD }], go: true },
    DECLARED);
  assert.deepEqual(form?.typed, ["x", CARD]);
  assert.equal(form?.forms.at(-1)?.at(-1)?.selector, "#card", "the form submitted is its last field's");
  assert.equal(effectOf("look_probe", { words: CARD }, DECLARED), null, "declared never sensitive: never checked");
  assert.equal(effectOf("dictate_probe", { uid: "e3", words: CARD }), null, "unknown to the generated declarations");
  assert.equal(needsRead(/** @type {any} */ (effectOf("dictate_probe", { words: "hi" }, DECLARED)), { words: "hi" }), false,
    "typing without submit or a target only writes text");
  assert.equal(needsRead(/** @type {any} */ (effectOf("form_probe", { entries: [{ selector: "#a", said: "x" }] }, DECLARED)),
    {}), false, "form fields without submit only write text");
});

test("the generated declarations read the same way: type's text and submit, fill's fields, press_key's key", () => {
  assert.deepEqual(effectOf("type", { selector: "#q", text: "teapot", submit: true }),
    { by: "typing", submits: true, typed: ["teapot"], keys: [], forms: [], scripts: [] });
  assert.deepEqual(effectOf("fill", { fields: [{ selector: "#n", value: CARD }], submit: false })?.typed, [CARD]);
  assert.deepEqual(effectOf("press_key", { key: "Enter" })?.keys, ["Enter"]);
  assert.deepEqual(effectOf("evaluate", { expression: "1" })?.scripts, ["1"]);
});

test("the confirmation runs a throwaway action's check through its declaration, and what it types decides", async () => {
  const confirmations = new Confirmations({ actions: DECLARED });
  await confirmations.check("dictate_probe", {}, { tab_id: TAB, words: "hello" }, ctx, undefined);
  await confirmations.check("look_probe", {}, { tab_id: TAB, uid: "e3", words: CARD }, ctx, undefined);
  await confirmations.check("form_probe", {}, { tab_id: TAB, entries: [{ said: CARD }] }, ctx, undefined);
  for (const [type, run] of /** @type {[string, Record<string, unknown>][]} */ ([
    ["dictate_probe", { tab_id: TAB, uid: "e3", words: CARD, send_it: true }],
    ["tap_probe", { tab_id: TAB, selector: "#buy" }],
    ["form_probe", { tab_id: TAB, entries: [{ said: CARD }], go: true }],
  ])) {
    await assert.rejects(confirmations.check(type, run, run, ctx, undefined), new RegExp(PAGE_READ), type);
  }
  const plainForm = { tag: "input", role: "", type: "text", label: "Reference", editable: true, submits: false, href: "",
    download: null, form: { name: "", submit: "Continue", fields: [{ type: "text", name: "ref", label: "Reference",
      autocomplete: "", placeholder: "", nearby: "", inputmode: "", maxlength: 0, pattern: "", value: "" }] } };
  const typed = effectOf("dictate_probe", { uid: "e3", words: CARD, send_it: true }, DECLARED)?.typed ?? [];
  assert.equal(classifyControl(/** @type {any} */ (plainForm), "submit", typed)?.category, "form",
    "the card number it declares it types makes submitting a plain form ask");
  assert.equal(classifyControl(/** @type {any} */ (plainForm), "submit", ["see you at noon"]), null);
});
