// Labels read as a person reads them, beyond folding (issue 19): each conjunct judged on its own, inflected words
// read as the phrase words they inflect, commands inside long button sentences, and ASCII look-alikes. Every
// command list here fails on the rules before these readings; the ordinary labels (fixtures/ordinary-labels.json)
// are the false-alarm measure, read as links and as buttons.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

import { classifyControl } from "../src/safety/classify.js";
import { labelCategory } from "../src/safety/label-rules.js";

const ORDINARY = JSON.parse(readFileSync(new URL("./fixtures/ordinary-labels.json", import.meta.url), "utf8")).labels;
const AS_LINK = { destination: false };
const AS_BUTTON = { destination: true, button: true };

/** @param {[string, string][]} commands @param {import("../src/safety/label-rules.js").ReadAs} [as] */
function assertCommands(commands, as) {
  for (const [label, category] of commands) assert.equal(labelCategory(label, as), category, label);
}

/** @param {string[]} labels @param {import("../src/safety/label-rules.js").ReadAs} [as] */
function assertNone(labels, as) {
  for (const label of labels) assert.equal(labelCategory(label, as), null, label);
}

test("each conjunct is judged on its own: a topic word in one does not cancel the command in another", () => {
  assertCommands([["Learn more and buy now", "pay"], ["Learn more or delete account", "delete"],
    ["About us and buy now", "pay"], ["Read the terms and pay 20 EUR", "pay"],
    ["Mehr über das Abo erfahren und jetzt kaufen", "pay"], ["En savoir plus et acheter maintenant", "pay"],
    ["Más información y comprar ahora", "pay"], ["Узнать больше и купить", "pay"], ["See how it works and buy now", "pay"]]);
  assertNone(["How to pay or transfer money", "Learn how to pay and buy insurance", "Why buy from us and save",
    "Historial de pagos y transferencias", "Why pay or transfer with us"]);
  // a question frame's verb slot takes every conjunct of its clause, whatever the first verb
  assertNone(["How to save and pay less", "How to budget and pay off debt", "How do I sign in and delete my data",
    "Wie man spart und weniger bezahlt"], AS_LINK);
});

test("the most sensitive command of a label wins, whichever comes first", () => {
  assertCommands([["Delete and pay", "pay"], ["Send, then transfer funds", "transfer"], ["Remove item and checkout", "pay"]]);
});

test("inflected verbs read as the commands they inflect; plural and gerund nouns stay nouns", () => {
  assertCommands([["Paying…", "pay"], ["Pays now", "pay"], ["Pays 500 EUR", "pay"], ["Deleting…", "delete"],
    ["Deletes account", "delete"], ["Sending message", "send"], ["Transferring", "transfer"], ["Placing order", "pay"],
    ["Supprimez", "delete"], ["Payez maintenant", "pay"], ["Bezahle jetzt", "pay"], ["Lösche alles", "delete"],
    ["Удалите", "delete"], ["Оплатите заказ", "pay"], ["Отправьте", "send"], ["Видаліть", "delete"],
    ["Compre agora", "pay"], ["Elimine", "delete"], ["Acquistate ora", "pay"], ["Ödeyin", "pay"]]);
  assertNone(["Transfers history", "Transfers", "Posts", "All posts by Anna", "Payslip", "Pay slips", "Buying guide",
    "Checkouts per day report", "Überweisungshistorie", "Überweisungen", "Mes commandes", "Overzicht overboekingen",
    "Transfer histories", "Checkout summaries"]);
});

test("languages whose stems change: rewritten and prefixed stems read as the commands (infinitives, imperatives)", () => {
  assertCommands([["Usuń", "delete"], ["Usuwam", "delete"], ["Usunąć", "delete"], ["Usuńcie", "delete"],
    ["Zapłacić", "pay"], ["Kupcie", "pay"], ["Skasować", "delete"], ["Zamknąć konto", "delete"],
    ["Smaž", "delete"], ["Smažte účet", "delete"], ["Zaplaťte", "pay"], ["Zaplatím", "pay"], ["Objednejte", "pay"],
    ["Publikuj", "send"], ["Zrušte předplatné", "delete"], ["Odstraň", "delete"],
    ["Verwijdert", "delete"], ["Bestel nu", "pay"], ["Betaalt", "pay"], ["Doneer", "pay"], ["Publiceer", "send"],
    ["Töröld", "delete"], ["Törölje", "delete"], ["Törölni", "delete"], ["Fizess", "pay"], ["Fizetni", "pay"],
    ["Küldje", "send"], ["Menghapus", "delete"], ["Hapuskan", "delete"], ["Membayar", "pay"], ["Membeli", "pay"],
    ["Mengirim pesan", "send"], ["Menarik dana", "transfer"], ["हटाओ", "delete"], ["हटाइए", "delete"], ["भेजना", "send"],
    ["खरीदो", "pay"], ["भुगतान कीजिए", "pay"], ["सदस्यता रद्द कीजिए", "delete"], ["पासवर्ड बदलो", "account"], ["احذفوا", "delete"], ["بفرستید", "send"], ["بخر", "pay"]],
  AS_BUTTON);
  // statuses and nouns stay what the noun rules make of them
  assertNone(["Usunięte", "Płatności", "Smazáno", "Verwijderd", "Bestellingen", "Törölve", "Fizetések", "Dihapus",
    "Pembayaran", "Tu compra", "La tua paga", "تم الحذف"], AS_BUTTON);
  assertCommands([["Complete your purchase", "pay"], ["Finalizar tu compra", "pay"], ["Compra ora", "pay"]], AS_BUTTON);
});

test("a button's sentence is what pressing it does: a command anywhere in it asks", () => {
  const sentences = [["By clicking here you confirm and pay 500 EUR to the seller today", "pay"],
    ["Yes, I understand that this will permanently delete all my photos and videos", "delete"],
    ["I have read the contract and I want to sign and send it to the bank today", "send"],
    ["Click the button below to complete your purchase of 3 items and pay 120 EUR now please", "pay"]];
  assertCommands(/** @type {[string, string][]} */ (sentences), AS_BUTTON);
  const button = (label) => ({ tag: "button", role: "", type: "", label, editable: false, submits: false, href: "",
    download: null, form: null });
  assert.equal(classifyControl(button(sentences[1][0]), "click")?.category, "delete");
  assert.equal(classifyControl({ ...button(sentences[1][0]), tag: "a", href: "https://x.test/", link: true }, "click"), null,
    "a link's sentence is a headline");
});

test("a long link's text counts a command at a conjunct's head, or before the sum it pays, not a teaser's verb", () => {
  assertCommands([["By clicking here you confirm and pay 500 EUR to the seller today", "pay"],
    ["By clicking you agree to pay 500 EUR to the seller today as agreed", "pay"],
    ["By continuing you agree to our terms and authorize payment of 49.99 USD every month", "pay"],
    ["Tap here to send 0.5 BTC to the address shown above after checking it twice", "transfer"]], AS_LINK);
  assertNone(["Premium gives you more storage and lets you send large files to anyone, anywhere",
    "Read how we pay our suppliers fairly", "Our team will review your request within two business days and reply by email"],
  AS_LINK);
});

test("ASCII look-alikes, spaced letters and mixed scripts read as the letters they show", () => {
  assertCommands([["P4y n0w", "pay"], ["De1ete", "delete"], ["Purch@se", "pay"], ["S3nd", "send"], ["$end", "send"],
    ["Rem0ve", "delete"], ["P a y", "pay"], ["P a y n o w", "pay"], ["D.e.l.e.t.e", "delete"],
    ["S-E-N-D", "send"], ["Ρay now", "pay"], ["Ꭰelete", "delete"], ["Ⲣay", "pay"], ["𝐏𝐚𝐲", "pay"], ["Ԁеlеtе", "delete"],
    ["Tr4nsfer funds", "transfer"], ["8uy now", "pay"], ["Ch€ckout", "pay"], ["PayNow", "pay"], ["Buy-now", "pay"],
    ["DeleteAccount", "delete"], ["delete_account", "delete"], ["P̲a̲y̲ n̲o̲w̲", "pay"], ["D̶e̶l̶e̶t̶e̶", "delete"],
    ["\u202Ewon yaP", "pay"]]);
  assertNone(["MP3 downloads", "Web3 explained", "4K videos", "B2B solutions", "Windows 11", "Yahoo!", "A B testing guide",
    "F.A.Q.", "U.S.A. shipping", "1Password integration", "Check-out time", "PayPal", "Buy-now-pay-later explained",
    "Cómo pagar", "Xóa bộ lọc", "フィルターを削除"]);
});

test("a dash between clauses breaks them as its folded form too (fold.js makes an em dash 'ー')", () => {
  assertCommands([["Your payment is ready — click here to pay securely with your card today", "pay"],
    ["Three items for 120 EUR with free delivery – pay now", "pay"]], AS_LINK);
  assertNone(["Cómo pagar — guía", "ユーザー設定 — ヘルプ"]);
});

test("ordinary labels command nothing, read as links and as buttons (the false-alarm measure)", () => {
  const alarms = [AS_LINK, AS_BUTTON].flatMap((as) => ORDINARY.filter((label) => labelCategory(label, as)));
  assert.deepEqual(alarms, []);
  assert.ok(ORDINARY.length > 190);
});
