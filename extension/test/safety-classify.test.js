import { test } from "node:test";
import assert from "node:assert/strict";

import { classifyControl, classifyPage, executableDownload, formFieldReason, keyMode, labelCategory } from "../src/safety/classify.js";
import { Confirmations, canonical } from "../src/safety/confirmations.js";

/** @param {Partial<import("../src/safety/page-facts.js").ControlFacts>} facts */
const control = (facts) => ({ tag: "button", role: "", type: "", label: "", editable: false, submits: false, href: "",
  download: null, form: null, ...facts });
const field = (facts) => ({ type: "text", autocomplete: "", name: "", label: "", ...facts });

const SENSITIVE = {
  en: [["Pay now", "pay"], ["Place order", "pay"], ["Proceed to checkout", "pay"], ["Buy", "pay"], ["Send", "send"],
    ["Publish", "send"], ["Post", "send"], ["Delete account", "delete"], ["Remove", "delete"], ["Move to trash", "delete"],
    ["Cancel subscription", "delete"], ["Close account", "delete"], ["Transfer", "transfer"], ["Withdraw", "transfer"],
    ["Change password", "account"], ["Change email", "account"], ["Disable two-factor", "account"],
    ["Secure checkout", "pay"], ["Transfer funds", "transfer"], ["Post comment", "send"], ["Delete history", "delete"]],
  es: [["Pagar ahora", "pay"], ["Finalizar compra", "pay"], ["Enviar", "send"], ["Publicar", "send"], ["Eliminar cuenta", "delete"],
    ["Cancelar suscripción", "delete"], ["Transferir", "transfer"], ["Cambiar contraseña", "account"], ["Mover a la papelera", "delete"]],
  de: [["Jetzt kaufen", "pay"], ["Zahlungspflichtig bestellen", "pay"], ["Zur Kasse", "pay"], ["Absenden", "send"],
    ["Konto löschen", "delete"], ["Abo kündigen", "delete"], ["Überweisen", "transfer"], ["Passwort ändern", "account"]],
  ja: [["今すぐ購入", "pay"], ["注文を確定する", "pay"], ["送信", "send"], ["削除", "delete"], ["退会する", "delete"],
    ["振込", "transfer"], ["パスワードを変更", "account"], ["ゴミ箱に移動", "delete"]],
  fr: [["Payer", "pay"], ["Passer la commande", "pay"], ["Envoyer", "send"], ["Supprimer le compte", "delete"],
    ["Résilier", "delete"], ["Effectuer un virement", "transfer"], ["Modifier le mot de passe", "account"]],
  pt: [["Comprar agora", "pay"], ["Finalizar pedido", "pay"], ["Enviar", "send"], ["Excluir conta", "delete"],
    ["Cancelar assinatura", "delete"], ["Sacar", "transfer"], ["Alterar senha", "account"]],
  ru: [["Купить сейчас", "pay"], ["Оформить заказ", "pay"], ["Отправить", "send"], ["Удалить", "delete"],
    ["Переместить в корзину", "delete"], ["Перевести деньги", "transfer"], ["Выполнить перевод", "transfer"], ["Изменить пароль", "account"]],
  it: [["Acquista ora", "pay"], ["Procedi all'acquisto", "pay"], ["Invia", "send"], ["Elimina", "delete"],
    ["Sposta nel cestino", "delete"], ["Esegui bonifico", "transfer"], ["Cambia password", "account"]],
  nl: [["Nu kopen", "pay"], ["Afrekenen", "pay"], ["Versturen", "send"], ["Verwijderen", "delete"], ["Geld overmaken", "transfer"],
    ["Wachtwoord wijzigen", "account"]],
  pl: [["Kup teraz", "pay"], ["Zamawiam i płacę", "pay"], ["Wyślij", "send"], ["Usuń", "delete"], ["Wykonaj przelew", "transfer"],
    ["Zmień hasło", "account"]],
  tr: [["Satın al", "pay"], ["Siparişi tamamla", "pay"], ["Gönder", "send"], ["SİL", "delete"], ["Para gönder", "transfer"],
    ["Şifreyi değiştir", "account"]],
  fa: [["پرداخت", "pay"], ["ثبت سفارش", "pay"], ["ارسال", "send"], ["حذف", "delete"], ["انتقال وجه", "transfer"],
    ["تغییر رمز عبور", "account"]],
  zh: [["立即购买", "pay"], ["提交订单", "pay"], ["发送", "send"], ["删除", "delete"], ["注销账户", "delete"],
    ["转账", "transfer"], ["修改密码", "account"]],
  vi: [["Mua ngay", "pay"], ["Thanh toán", "pay"], ["Gửi", "send"], ["Xóa", "delete"], ["Xoá", "delete"], ["Chuyển tiền", "transfer"],
    ["Đổi mật khẩu", "account"]],
  id: [["Beli sekarang", "pay"], ["Bayar", "pay"], ["Kirim", "send"], ["Hapus", "delete"], ["Tarik tunai", "transfer"],
    ["Ubah kata sandi", "account"]],
  cs: [["Koupit", "pay"], ["Dokončit objednávku", "pay"], ["Odeslat", "send"], ["Smazat", "delete"], ["Převést peníze", "transfer"],
    ["Změnit heslo", "account"]],
  ko: [["구매하기", "pay"], ["결제", "pay"], ["보내기", "send"], ["삭제", "delete"], ["송금하기", "transfer"], ["비밀번호 변경", "account"]],
  uk: [["Купити", "pay"], ["Оформити замовлення", "pay"], ["Надіслати", "send"], ["Видалити", "delete"], ["Переказати", "transfer"],
    ["Змінити пароль", "account"]],
  ar: [["اشتر الآن", "pay"], ["إتمام الطلب", "pay"], ["إرسال", "send"], ["ارسال", "send"], ["حذف", "delete"], ["تحويل", "transfer"],
    ["تغيير كلمة المرور", "account"]],
  hi: [["अभी खरीदें", "pay"], ["भुगतान करें", "pay"], ["भेजें", "send"], ["हटाएं", "delete"], ["पैसे भेजें", "transfer"],
    ["पासवर्ड बदलें", "account"]],
};

const ORDINARY = {
  en: ["View", "Next", "Previous", "Search", "Edit", "Open", "Close", "Remove filter", "Sort by date", "Show more", "Sign in",
    "Home", "Posts", "Payments history", "Sender", "Deleted items", "Transfers overview", "Accept all", "Reject", "Filter",
    "Learn how to delete your account and what happens to your data afterwards", "Reply", "Reply all", "Forward", "Compose",
    "New message", "Post code lookup", "Pay slips", "Buy-back policy", "Checkout guide", "Transfer history", "How to pay",
    "Transfer limits", "Pay rates", "Post office locations", "Why buy from us", "Checkout help", "Purchase history",
    "Trash", "Premium gives you unlimited storage and lets you send large files to anyone"],
  es: ["Siguiente", "Anterior", "Buscar", "Ver", "Quitar filtro", "Mostrar más", "Editar", "Responder", "Historial de pagos",
    "Cómo pagar"],
  de: ["Weiter", "Zurück", "Suchen", "Anzeigen", "Filter entfernen", "Mehr anzeigen", "Bearbeiten", "Antworten", "Weiterleiten"],
  ja: ["次へ", "前へ", "検索", "表示", "編集", "もっと見る", "返信", "転送", "購入履歴", "支払い方法"],
  fr: ["Suivant", "Précédent", "Rechercher", "Voir", "Retirer le filtre", "Afficher plus", "Modifier", "Répondre", "Transférer",
    "Historique des virements"],
  pt: ["Próximo", "Anterior", "Pesquisar", "Ver", "Remover filtro", "Mostrar mais", "Editar", "Responder", "Encaminhar"],
  ru: ["Далее", "Назад", "Поиск", "Ответить", "Переслать", "История переводов", "Как оплатить", "Перевод", "Перевести страницу"],
  it: ["Avanti", "Indietro", "Cerca", "Rispondi", "Inoltra", "Ordina per prezzo"],
  nl: ["Volgende", "Zoeken", "Beantwoorden", "Doorsturen"],
  pl: ["Dalej", "Szukaj", "Odpowiedz", "Przekaż dalej", "Jak zapłacić"],
  tr: ["İleri", "Ara", "Yanıtla", "İlet"],
  fa: ["بعدی", "جستجو", "پاسخ", "تاریخچه خرید", "افزودن به سبد خرید", "ارسال رایگان", "هزینه ارسال"],
  zh: ["下一页", "上一页", "搜索", "查看", "编辑", "更多", "回复", "转发", "购买记录", "支付方式"],
  vi: ["Tiếp theo", "Tìm kiếm", "Trả lời", "Chuyển tiếp", "Đăng nhập", "Lịch sử thanh toán"],
  id: ["Berikutnya", "Cari", "Balas", "Teruskan", "Riwayat transfer"],
  cs: ["Další", "Hledat", "Odpovědět", "Přeposlat"],
  ko: ["다음", "검색", "답장", "전달", "결제 내역", "구매내역", "내보내기"],
  uk: ["Далі", "Пошук", "Відповісти", "Переслати"],
  ar: ["التالي", "بحث", "رد", "إعادة توجيه", "سجل المدفوعات"],
  hi: ["अगला", "खोजें", "जवाब दें", "आगे भेजें"],
};

for (const [language, cases] of Object.entries(SENSITIVE)) {
  test(`sensitive labels in ${language}`, () => {
    for (const [label, category] of cases) {
      assert.equal(labelCategory(label), category, label);
      const finding = classifyControl(control({ label }), "click");
      assert.equal(finding?.category, category, label);
      assert.match(finding.element, new RegExp(label.slice(0, 3)));
    }
  });
}

for (const [language, labels] of Object.entries(ORDINARY)) {
  test(`ordinary labels in ${language} never ask`, () => {
    for (const label of labels) {
      assert.equal(labelCategory(label), null, label);
      assert.equal(classifyControl(control({ label, tag: "a", href: "https://example.com/next" }), "click"), null, label);
    }
  });
}

test("switches, checkboxes, tabs and options name a setting, not a command", () => {
  for (const role of ["switch", "checkbox", "tab", "option"]) {
    assert.equal(classifyControl(control({ role, label: "Publish immediately" }), "click"), null, role);
  }
  assert.equal(classifyControl(control({ tag: "input", type: "checkbox", label: "Delete after reading" }), "click"), null);
  assert.equal(classifyControl(control({ role: "button", label: "Publish" }), "click").category, "send");
});

test("a submit button of a form with a card, password or ID field asks, whatever it says", () => {
  const card = { fields: [field({ name: "name" }), field({ autocomplete: "cc-number", name: "x" })], submit: "Continue", name: "" };
  assert.match(classifyControl(control({ label: "Continue", submits: true, form: card }), "click").reason, /payment-card/);
  const cvc = { fields: [field({ name: "cvc" })], submit: "OK", name: "" };
  assert.match(formFieldReason(cvc), /payment-card/);
  const password = { fields: [field({ type: "password", name: "pw" })], submit: "Save", name: "" };
  assert.match(classifyControl(control({ label: "Save", submits: true, form: password }), "click").reason, /password/);
  const ssn = { fields: [field({ label: "Social security number" })], submit: "Next", name: "" };
  assert.match(formFieldReason(ssn), /ID-number/);
  assert.match(formFieldReason({ fields: [field({ label: "Número de tarjeta" })], submit: "", name: "" }), /payment-card/);
  assert.match(formFieldReason({ fields: [field({ label: "マイナンバー" })], submit: "", name: "" }), /ID-number/);
  // The same button outside such a form, or a plain button that does not submit, does not ask.
  const search = { fields: [field({ type: "search", name: "q", label: "Search" })], submit: "Go", name: "" };
  assert.equal(classifyControl(control({ label: "Go", submits: true, form: search }), "click"), null);
  assert.equal(classifyControl(control({ label: "Show card", submits: false, form: password }), "click"), null);
});

test("type with submit and Enter read the field's form, its button and the field's own label", () => {
  const comment = { fields: [field({ name: "body" })], submit: "Post comment", name: "" };
  assert.equal(classifyControl(control({ tag: "textarea", editable: true, form: comment }), "submit").category, "send");
  assert.equal(classifyControl(control({ tag: "textarea", editable: true, label: "Write a reply…" }), "submit").category, "send");
  const search = { fields: [field({ type: "search" })], submit: "Search", name: "" };
  assert.equal(classifyControl(control({ tag: "input", editable: true, label: "Search", form: search }), "submit"), null);
  const login = { fields: [field({ name: "user" }), field({ type: "password" })], submit: "Sign in", name: "" };
  assert.match(classifyControl(control({ tag: "input", editable: true, form: login }), "submit").reason, /password/);
});

test("keys: Enter submits a field and activates a control, Space only activates, other keys do nothing", () => {
  const input = control({ tag: "input", editable: true });
  const button = control({ label: "Delete" });
  assert.equal(keyMode("Enter", input), "submit");
  assert.equal(keyMode("Control+Enter", input), "submit");
  assert.equal(keyMode("Space", input), null);
  assert.equal(keyMode("Space", button), "click");
  assert.equal(keyMode("Enter", button), "click");
  assert.equal(keyMode("Tab", button), null);
  assert.equal(keyMode("Enter", null), null);
  assert.equal(classifyControl(control({ tag: "iframe", frame: true }), "submit").category, "unknown");
});

test("downloads: executables ask, documents and links do not", () => {
  for (const href of ["https://x.test/setup.exe", "https://x.test/dl/tool.MSI", "https://x.test/a/b/app.dmg?x=1",
    "https://x.test/install.sh", "https://x.test/x.apk", "https://x.test/My%20App.AppImage"]) {
    assert.ok(executableDownload(control({ tag: "a", href })), href);
    assert.equal(classifyControl(control({ tag: "a", href, label: "Get it" }), "click").category, "download");
  }
  assert.ok(executableDownload(control({ tag: "a", href: "https://x.test/get?id=1", download: "setup.exe" })));
  for (const href of ["https://x.test/report.pdf", "https://x.test/data.csv", "https://shop.app/", "https://x.test/exe"]) {
    assert.equal(executableDownload(control({ tag: "a", href, download: href.endsWith("csv") ? "data.csv" : null })), null, href);
  }
});

test("a link path that reads as a site or a script (example.com, tool.app, app.js) asks only when it says it downloads", () => {
  for (const href of ["https://whois.test/domain/example.com", "https://x.test/out/tool.app", "https://x.test/static/app.js",
    "https://x.test/go/install.run", "https://x.test/fw/image.bin"]) {
    assert.equal(executableDownload(control({ tag: "a", href })), null, href);
    const name = href.split("/").pop();
    assert.equal(executableDownload(control({ tag: "a", href, download: name })), name, `${href} with download`);
  }
  assert.equal(executableDownload(control({ tag: "a", href: "https://x.test/x", download: "Setup.COM" })), "Setup.COM");
});

test("a page asks for evaluate when it holds any sensitive control or form", () => {
  const ordinary = { url: "https://x.test/", controls: ORDINARY.en.map((label) => control({ label, tag: "a", href: "https://x.test/a" })), forms: [] };
  assert.deepEqual(classifyPage(ordinary), []);
  const withDelete = { ...ordinary, controls: [...ordinary.controls, control({ label: "Delete account" })] };
  assert.equal(classifyPage(withDelete)[0].category, "delete");
  const withLogin = { ...ordinary, forms: [{ fields: [field({ type: "password" })], submit: "Sign in", name: "login" }] };
  assert.match(classifyPage(withLogin)[0].reason, /password/);
});

test("an approval token approves exactly the action it was issued for, once, before it expires", async () => {
  let now = 1000;
  const confirmations = new Confirmations({ now: () => now });
  const action = { type: "click", uid: "e4" };
  const token = confirmations.issue("t1", action);
  assert.match(token, /^[0-9a-f]{32}$/);
  assert.equal(confirmations.redeem(token, "t1", { type: "click", uid: "e5" }), false, "another action");
  const again = confirmations.issue("t1", action);
  assert.notEqual(again, token, "a fresh random nonce per request");
  assert.equal(confirmations.redeem(again, "t2", action), false, "another task");
  const third = confirmations.issue("t1", action);
  assert.equal(confirmations.redeem(third, "t1", { uid: "e4", type: "click" }), true, "the same action, keys in any order");
  assert.equal(confirmations.redeem(third, "t1", action), false, "only once");
  const late = confirmations.issue("t1", action);
  now += 16 * 60 * 1000;
  assert.equal(confirmations.redeem(late, "t1", action), false, "expired");
  assert.equal(confirmations.redeem("f".repeat(32), "t1", action), false, "never issued");
  // Actions the declarations do not mark may_be_sensitive are never read, approval or not.
  await confirmations.check("extract", { type: "extract" }, { type: "extract" }, /** @type {any} */ ({ taskId: "t1" }), undefined);
  assert.equal(canonical({ b: 1, a: [1, { d: 2, c: 3 }] }), canonical({ a: [1, { c: 3, d: 2 }], b: 1 }));
});
