import { test } from "node:test";
import assert from "node:assert/strict";

import { classifyChoice, classifyControl, labelCategory } from "../src/safety/classify.js";

/** @param {Partial<import("../src/safety/page-facts.js").ControlFacts>} facts */
const control = (facts) => ({ tag: "button", role: "", type: "", label: "", editable: false, submits: false, href: "",
  download: null, form: null, ...facts });

test("deleting a selection, a draft or a tag asks (the words no longer exempt it)", () => {
  for (const label of ["Delete selection", "Delete draft", "Delete tag", "Discard draft and delete", "Entwurf löschen",
    "Supprimer la sélection", "Eliminar borrador", "Excluir rascunho", "删除草稿", "下書きを削除"]) {
    assert.equal(labelCategory(label), "delete", label);
  }
  for (const label of ["Remove filter", "Sort by date", "Clear search", "Save draft", "Select all", "Add tag", "Edit draft"]) {
    assert.equal(labelCategory(label), null, label);
  }
});

test("choosing an option of a <select> is classified by the option and by a form it submits on change", () => {
  const select = control({ tag: "select", role: "", label: "Account actions" });
  assert.equal(classifyChoice(select, "Delete my account")?.category, "delete");
  assert.match(classifyChoice(select, "Delete my account")?.element ?? "", /option “Delete my account”/);
  assert.equal(classifyChoice(select, "Pay with card")?.category, "pay");
  assert.equal(classifyChoice(select, "Blue"), null, "an ordinary option");
  assert.equal(classifyChoice(control({ tag: "input", editable: true }), "Delete my account"), null, "typing text");
  const card = { fields: [{ type: "text", autocomplete: "cc-number", name: "card", label: "" }], submit: "Continue", name: "" };
  const submitting = control({ tag: "select", label: "Payment method", changeSubmits: true, form: card });
  assert.match(classifyChoice(submitting, "Visa ending 4242")?.reason ?? "", /submits its form: .*payment-card/);
  const search = { fields: [{ type: "text", autocomplete: "", name: "q", label: "Search" }], submit: "Go", name: "" };
  assert.equal(classifyChoice(control({ tag: "select", changeSubmits: true, form: search }), "Newest first"), null);
  assert.equal(classifyChoice(control({ tag: "select", form: card }), "Visa"), null, "a select that does not submit");
  assert.equal(classifyControl(control({ tag: "select", label: "Delete" }), "click")?.category, "delete",
    "clicking is classified as before");
});
