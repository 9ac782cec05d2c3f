import { test } from "node:test";
import assert from "node:assert/strict";

import { classifyControl } from "../src/safety/classify.js";
import { labelCategory } from "../src/safety/label-rules.js";
import { formFieldReason, isCardField, isCardNumber } from "../src/safety/card-fields.js";

/** @param {Partial<import("../src/safety/page-facts.js").ControlFacts>} facts */
const control = (facts) => ({ tag: "button", role: "", type: "", label: "", editable: false, submits: false, href: "",
  download: null, form: null, ...facts });
const field = (facts) => ({ type: "text", autocomplete: "", name: "", label: "", placeholder: "", nearby: "", inputmode: "",
  maxlength: 0, pattern: "", value: "", ...facts });

test("labels are read folded: invisible characters, soft hyphens, confusable letters, compatibility forms", () => {
  for (const label of ["Pa\u200By now", "Pur\u00ADchase", "Рау now", "ΡΑΥ NOW", "Ｐａｙ　ｎｏｗ", "P\u2060ay", "DEL\u200DETE"]) {
    assert.notEqual(labelCategory(label), null, JSON.stringify(label));
  }
});

test("phrase rules: a verb at a label's head is a command, the same word as a noun modifier is not", () => {
  const topics = ["Post code lookup", "Pay slips", "Buy-back policy", "Checkout guide", "Transfer history", "Pay rates",
    "Transfer window", "Purchase history", "Post office", "How to pay", "Why buy from us", "Learn about transfers",
    "Checkout FAQ", "Pay-per-view guide", "Historial de pagos", "Historique des virements", "История переводов",
    "購入履歴", "支払い方法", "결제 내역", "支付方式", "Lịch sử thanh toán", "Riwayat transfer", "تاریخچه خرید"];
  for (const label of topics) assert.equal(labelCategory(label), null, label);
  const commands = [["Pay", "pay"], ["Pay now", "pay"], ["Pay 49.90 EUR", "pay"], ["Transfer funds", "transfer"],
    ["Buy it now", "pay"], ["Secure checkout", "pay"], ["Post", "send"], ["Delete history", "delete"],
    ["Yes, delete it", "delete"], ["Save & pay", "pay"], ["今すぐ支払う", "pay"], ["결제하기", "pay"]];
  for (const [label, category] of commands) assert.equal(labelCategory(label), category, label);
});

test("long labels are read like short ones: a command near a clause's head or at its end counts, prose further in does not", () => {
  assert.equal(labelCategory("Confirm and pay 500 EUR for your annual Premium subscription right now"), "pay");
  assert.equal(labelCategory("Remove filter"), null, "an exempt word in the command's clause");
  assert.notEqual(labelCategory("Buy now · Preview"), null, "an exempt word in another clause cancels nothing");
  assert.notEqual(labelCategory("Filters | Delete all"), null);
  assert.equal(labelCategory("Your order is ready: place order and get it delivered tomorrow morning for free"), "pay");
  assert.equal(labelCategory("Premium gives you more storage and lets you send large files to anyone, anywhere"), null);
  assert.equal(labelCategory("Learn how to delete your account and what happens to your data afterwards"), null);
  assert.equal(labelCategory("Three items for 120 EUR with free delivery and returns within thirty days — 500 EUR, pay"), "pay");
});

test("compose words open a composer; they send only when the control submits a form", () => {
  for (const label of ["Reply", "Reply all", "Forward", "Compose", "New message", "Antworten", "Rispondi", "返信", "답장"]) {
    assert.equal(classifyControl(control({ label }), "click"), null, label);
    assert.equal(classifyControl(control({ label, submits: true, form: { fields: [], submit: label, name: "" } }), "click")?.category,
      "send", `${label} submitting`);
  }
  assert.equal(classifyControl(control({ tag: "textarea", editable: true, label: "Write a reply…" }), "submit")?.category, "send");
});

test("a destination deletes as a drop target or a button, not as a link to its folder", () => {
  const trash = { label: "Trash", readings: ["Trash"] };
  assert.equal(classifyControl(control({ ...trash, tag: "div" }), "drop")?.category, "delete");
  assert.equal(classifyControl(control({ ...trash, tag: "a", href: "https://mail.test/#trash", link: true }), "drop")?.category, "delete");
  assert.equal(classifyControl(control(trash), "click")?.category, "delete");
  assert.equal(classifyControl(control({ ...trash, tag: "a", href: "https://mail.test/#trash", link: true }), "click"), null);
  assert.equal(classifyControl(control({ tag: "div", label: "Papierkorb" }), "drop")?.category, "delete");
  assert.equal(classifyControl(control({ tag: "div", label: "휴지통" }), "drop")?.category, "delete");
});

test("every reading counts and the more sensitive wins; a text-less control is read by its icon's names", () => {
  const aria = control({ label: "Pay 500 EUR", readings: ["Open details", "Pay 500 EUR"] });
  assert.equal(classifyControl(aria, "click")?.category, "pay");
  const both = control({ label: "Remove", readings: ["Remove", "Buy now"] });
  assert.equal(classifyControl(both, "click")?.category, "pay", "pay outranks delete");
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "btn icon-paper-plane" }), "click")?.category, "send");
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "toolbarTrashCan" }), "click")?.category, "delete");
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "icon-menu hamburger" }), "click"), null);
  assert.equal(labelCategory("paper plane"), null, "icon names count only in hints: a product may be called that");
});

test("card fields are recognised by what a person sees, by shape and by value", () => {
  assert.ok(isCardNumber("4242 4242 4242 4242") && isCardNumber("4111-1111-1111-1111") && isCardNumber("378282246310005"));
  for (const value of ["4242 4242 4242 4241", "0000000000000000", "492817", "9400111899223100012345", "+44 20 7946 0958"]) {
    assert.equal(isCardNumber(value), false, value);
  }
  assert.ok(isCardField(field({ name: "pan", nearby: "Credit card" })));
  assert.ok(isCardField(field({ name: "x", placeholder: "1234 1234 1234 1234" })));
  assert.ok(isCardField(field({ name: "e", placeholder: "MM / YY" })));
  assert.ok(isCardField(field({ name: "n", pattern: "[0-9]{13,19}" })));
  assert.ok(isCardField(field({ name: "n", inputmode: "numeric", maxlength: 19 })));
  assert.ok(isCardField(field({ name: "n", value: "4242424242424242" })));
  assert.ok(isCardField(field({ label: "Номер карты" })) && isCardField(field({ label: "카드 번호" })) && isCardField(field({ label: "Kart numarası" })));
  for (const f of [field({ name: "code", inputmode: "numeric", maxlength: 6 }), field({ name: "phone", type: "tel", maxlength: 15 }),
    field({ name: "q", placeholder: "Search" }), field({ name: "zip", pattern: "[0-9]{5}" })]) {
    assert.equal(isCardField(f), false, JSON.stringify(f));
  }
  const plain = { fields: [field({ name: "ref" })], submit: "Continue", name: "" };
  assert.equal(formFieldReason(plain), null);
  assert.match(formFieldReason(plain, ["4242 4242 4242 4242"]) ?? "", /payment-card/);
  assert.match(classifyControl(control({ tag: "input", editable: true, form: plain }), "submit", ["4242424242424242"])?.reason ?? "", /payment-card/);
});

test("a text-less control's hints are read against icon names alone, and a trash can on a link opens a folder", () => {
  for (const hint of ["post-like-button", "comment-count icon", "card-actions share", "transfer-list-toggle"]) {
    assert.equal(classifyControl(control({ label: "", readings: [], hint }), "click"), null, hint);
  }
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "icon-trash", tag: "a", href: "https://m.test/#trash", link: true }), "click"), null);
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "icon-trash" }), "click")?.category, "delete");
  assert.equal(classifyControl(control({ label: "", readings: [], hint: "sendButton" }), "click")?.category, "send");
});

test("a command joined by a conjunction to an exempt word is its own command, in each of the 20 languages", () => {
  // [coordinated: asks, the exempt word governing the command: does not ask]
  /** @type {Record<string, [string, string]>} */
  const cases = {
    en: ["Preview and pay", "Remove filter"], es: ["Buscar y comprar ahora", "Eliminar filtro"],
    de: ["Suchen und jetzt kaufen", "Filter entfernen"], ja: ["検索して購入", "フィルターを削除"],
    fr: ["Rechercher et payer", "Supprimer le filtre"], pt: ["Pesquisar e comprar agora", "Remover filtro"],
    ru: ["Поиск и купить сейчас", "Удалить фильтр"], it: ["Cerca e paga ora", "Elimina filtro"],
    nl: ["Zoeken en nu betalen", "Filter verwijderen"], pl: ["Szukaj i kup teraz", "Usuń filtr"],
    tr: ["Ara ve satın al", "Filtre sil"], fa: ["جستجو و پرداخت کنید", "حذف فیلتر"],
    zh: ["搜索并立即购买", "删除筛选"], vi: ["Tìm kiếm và thanh toán ngay", "Xóa bộ lọc"],
    id: ["Cari dan bayar sekarang", "Hapus filter"], cs: ["Hledat a koupit nyní", "Odstranit filtr"],
    ko: ["검색하고 결제하기", "필터 삭제"], uk: ["Пошук і купити зараз", "Видалити фільтр"],
    ar: ["بحث ثم ادفع الآن", "حذف فلتر"], hu: ["Keresés és fizetés most", "Szűrő törlése"],
    hi: ["खोजें और अभी भुगतान करें", "फ़िल्टर हटाएं"],
  };
  for (const [lang, [coordinated, governed]] of Object.entries(cases)) {
    assert.notEqual(labelCategory(coordinated), null, `${lang}: ${coordinated}`);
    assert.equal(labelCategory(governed), null, `${lang}: ${governed}`);
  }
  for (const label of ["Preview and pay", "Pay now and search", "Search, then delete", "Sort or remove all", "Filter and buy"]) {
    assert.notEqual(labelCategory(label), null, label);
  }
  for (const label of ["Pay slips and transfer history", "Checkout guide", "Post code lookup", "Buy-back policy",
    "Transfer history and search", "Remove filters and sort", "How to pay and search"]) {
    assert.equal(labelCategory(label), null, label);
  }
  for (const label of ["Reply and search", "Search and forward"]) {
    assert.equal(classifyControl(control({ label }), "click"), null, `${label}: a composer opener`);
  }
});
