// Labels and endpoints in the 20 most used content languages of the web: per language, button labels that
// command (pay, buy, order, delete, send, transfer, confirm payment, sign), labels that only name a topic or open
// a composer, and endpoint names as slugs, field names and compounds write them, sensitive and ordinary. The
// cases were written before the words were checked against them (issue 19's red team writes its own).
import { test } from "node:test";
import assert from "node:assert/strict";

import { classifyControl } from "../src/safety/classify.js";
import { labelCategory } from "../src/safety/label-rules.js";
import { endpointKinds } from "../src/safety/network-words.js";
import { localReasons } from "../src/safety/network-judge.js";

/**
 * @typedef {{commands: [string, string][], topics: string[], composers: string[], icons: [string, string][],
 *   endpoints: [string, string][], ordinary: string[]}} Language
 * `commands`: [label, category]; `topics`: labels that name a topic (no ask); `composers`: open a composer;
 * `icons`: [aria-label of an icon-only button, category]; `endpoints`: [path, kind]; `ordinary`: paths that ask nothing
 */

/** @type {Record<string, Language>} */
const LANGUAGES = {
  en: {
    commands: [["Pay $12.00", "pay"], ["Buy now", "pay"], ["Place your order", "pay"], ["Delete message", "delete"],
      ["Send", "send"], ["Transfer money", "transfer"], ["Confirm payment", "pay"], ["Sign and submit", "send"]],
    topics: ["Pay slips", "Transfer history", "Payment methods FAQ", "Order history", "Sign in", "Purchase history"],
    composers: ["Reply", "Forward", "Reply all"],
    icons: [["Send message", "send"], ["Delete", "delete"]],
    endpoints: [["/api/orders/submit", "an order"], ["/v1/payments/confirm", "a payment"], ["/mail/send", "sending"],
      ["/account/close", "account changes"], ["/api/payouts", "a transfer"]],
    ordinary: ["/api/search", "/api/notes/12", "/analytics/collect", "/api/postcode-lookup", "/api/view"],
  },
  es: {
    commands: [["Pagar ahora", "pay"], ["Comprar", "pay"], ["Realizar pedido", "pay"], ["Eliminar", "delete"],
      ["Enviar", "send"], ["Transferir", "transfer"], ["Confirmar pago", "pay"], ["Firmar", "send"]],
    topics: ["Historial de pagos", "Historial de transferencias", "Cómo pagar"],
    composers: ["Responder", "Reenviar"],
    icons: [["Enviar mensaje", "send"], ["Eliminar", "delete"]],
    endpoints: [["/es/pago", "a payment"], ["/api/pedidos", "an order"], ["/carrito/comprar", "a payment"],
      ["/mensajes/enviar", "sending"], ["/api/transferencia", "a transfer"]],
    ordinary: ["/es/buscar", "/productos/ver", "/api/categorias", "/ayuda/preguntas"],
  },
  de: {
    commands: [["Jetzt bezahlen", "pay"], ["Kaufen", "pay"], ["Zahlungspflichtig bestellen", "pay"], ["Löschen", "delete"],
      ["Senden", "send"], ["Überweisen", "transfer"], ["Zahlung bestätigen", "pay"], ["Unterschreiben", "send"]],
    topics: ["Wie bezahlen?", "Überweisung Verlauf", "Zahlungsarten", "Bestellhistorie"],
    composers: ["Antworten", "Weiterleiten"],
    icons: [["Nachricht senden", "send"], ["Löschen", "delete"]],
    endpoints: [["/de/zahlung", "a payment"], ["/bestellung/abschicken", "an order"], ["/api/zahlungsabwicklung", "a payment"],
      ["/konto/loeschen", "account changes"], ["/api/sofortueberweisung", "a transfer"], ["/warenkorb/bestellvorgang", "an order"],
      ["/api/bestellungAbsenden", "an order"]],
    ordinary: ["/de/suche", "/kassel/wetter", "/api/zahlungsverlauf", "/bestellnummer/pruefen", "/produkte/ansehen", "/wissenschaft"],
  },
  ja: {
    commands: [["今すぐ購入", "pay"], ["支払う", "pay"], ["注文を確定する", "pay"], ["削除", "delete"], ["送信", "send"],
      ["送金する", "transfer"], ["署名する", "send"]],
    topics: ["購入履歴", "支払い方法", "送金履歴"],
    composers: ["返信", "転送"],
    icons: [["送信", "send"], ["削除", "delete"]],
    endpoints: [["/api/kessai", "a payment"], ["/chumon/kakutei", "an order"], ["/api/削除", "deleting"], ["/mail/soushin", "sending"],
      ["/furikomi", "a transfer"]],
    ordinary: ["/api/kensaku", "/shohin/ichiran", "/ヘルプ"],
  },
  fr: {
    commands: [["Payer", "pay"], ["Acheter maintenant", "pay"], ["Valider la commande", "pay"], ["Supprimer", "delete"],
      ["Envoyer", "send"], ["Effectuer un virement", "transfer"], ["Confirmer le paiement", "pay"], ["Signer", "send"]],
    topics: ["Historique des virements", "Bulletins de paie", "Comment payer"],
    composers: ["Répondre", "Transférer"],
    icons: [["Envoyer", "send"], ["Supprimer", "delete"]],
    endpoints: [["/fr/paiement", "a payment"], ["/commande/valider", "an order"], ["/api/supprimer", "deleting"],
      ["/messages/envoyer", "sending"], ["/api/virement", "a transfer"]],
    ordinary: ["/fr/recherche", "/produits/voir", "/aide/faq"],
  },
  pt: {
    commands: [["Pagar agora", "pay"], ["Comprar", "pay"], ["Finalizar pedido", "pay"], ["Excluir", "delete"], ["Enviar", "send"],
      ["Transferir", "transfer"], ["Confirmar pagamento", "pay"], ["Assinar e enviar", "send"]],
    topics: ["Histórico de transferências", "Como pagar"],
    composers: ["Responder", "Encaminhar"],
    icons: [["Enviar mensagem", "send"], ["Excluir", "delete"]],
    endpoints: [["/pt/pagamento", "a payment"], ["/api/pedido", "an order"], ["/conta/excluir", "account changes"],
      ["/api/pix", "a transfer"], ["/mensagem/enviar", "sending"]],
    ordinary: ["/pt/busca", "/produtos/detalhes", "/ajuda"],
  },
  ru: {
    commands: [["Оплатить", "pay"], ["Купить", "pay"], ["Оформить заказ", "pay"], ["Удалить", "delete"], ["Отправить", "send"],
      ["Перевести деньги", "transfer"], ["Подтвердить оплату", "pay"], ["Подписать", "send"]],
    topics: ["История переводов", "История заказов", "Как оплатить"],
    composers: ["Ответить", "Переслать"],
    icons: [["Отправить", "send"], ["Удалить", "delete"]],
    endpoints: [["/ru/oplata", "a payment"], ["/api/zakazy", "a payment"], ["/udalit", "deleting"], ["/api/perevod", "a transfer"],
      ["/%D0%BE%D0%BF%D0%BB%D0%B0%D1%82%D0%B0", "a payment"]],
    ordinary: ["/ru/poisk", "/perevodchik", "/api/tovary", "/novosti"],
  },
  it: {
    commands: [["Paga ora", "pay"], ["Acquista", "pay"], ["Conferma ordine", "pay"], ["Elimina", "delete"], ["Invia", "send"],
      ["Esegui bonifico", "transfer"], ["Conferma pagamento", "pay"], ["Firma e invia", "send"]],
    topics: ["Cronologia bonifici", "Busta paga", "Come pagare"],
    composers: ["Rispondi", "Inoltra"],
    icons: [["Invia messaggio", "send"], ["Elimina", "delete"]],
    endpoints: [["/it/pagamento", "a payment"], ["/api/ordine", "an order"], ["/api/elimina", "deleting"], ["/bonifico", "a transfer"]],
    ordinary: ["/it/cerca", "/prodotti/dettagli", "/aiuto"],
  },
  nl: {
    commands: [["Nu betalen", "pay"], ["Kopen", "pay"], ["Bestelling plaatsen", "pay"], ["Verwijderen", "delete"],
      ["Versturen", "send"], ["Geld overmaken", "transfer"], ["Betaling bevestigen", "pay"], ["Ondertekenen", "send"]],
    topics: ["Hoe betalen", "Overzicht overboekingen"],
    composers: ["Beantwoorden", "Doorsturen"],
    icons: [["Verstuur", "send"], ["Verwijder", "delete"]],
    endpoints: [["/nl/betaling", "a payment"], ["/api/betaalverzoek", "a payment"], ["/bestelling/plaatsen", "an order"],
      ["/api/verwijderen", "deleting"], ["/overboeking", "a transfer"]],
    ordinary: ["/nl/zoeken", "/producten/bekijken", "/betalingsoverzicht"],
  },
  pl: {
    commands: [["Zapłać", "pay"], ["Kup teraz", "pay"], ["Zamawiam i płacę", "pay"], ["Usuń", "delete"], ["Wyślij", "send"],
      ["Wykonaj przelew", "transfer"], ["Potwierdź płatność", "pay"], ["Podpisz", "send"]],
    topics: ["Historia przelewów", "Jak zapłacić"],
    composers: ["Odpowiedz", "Przekaż dalej"],
    icons: [["Wyślij wiadomość", "send"], ["Usuń", "delete"]],
    endpoints: [["/pl/platnosc", "a payment"], ["/api/zamowienia", "an order"], ["/usun", "deleting"], ["/przelewy", "a transfer"],
      ["/płatność", "a payment"]],
    ordinary: ["/pl/szukaj", "/produkty/lista", "/pomoc"],
  },
  tr: {
    commands: [["Öde", "pay"], ["Satın al", "pay"], ["Siparişi tamamla", "pay"], ["Sil", "delete"], ["Gönder", "send"],
      ["Para gönder", "transfer"], ["Ödemeyi onayla", "pay"], ["İmzala", "send"]],
    topics: ["Sipariş geçmişi"],
    composers: ["Yanıtla", "İlet"],
    icons: [["Gönder", "send"], ["Sil", "delete"]],
    endpoints: [["/tr/odeme", "a payment"], ["/api/siparisler", "an order"], ["/hesap/sil", "deleting"], ["/havale", "a transfer"],
      ["/sipariş-ver", "an order"]],
    ordinary: ["/tr/arama", "/urunler/detay", "/kaldirim", "/api/hesapla"],
  },
  fa: {
    commands: [["پرداخت", "pay"], ["خرید", "pay"], ["ثبت سفارش", "pay"], ["حذف", "delete"], ["ارسال", "send"],
      ["انتقال وجه", "transfer"], ["تأیید پرداخت", "pay"]],
    topics: ["تاریخچه خرید", "روش‌های پرداخت"],
    composers: ["پاسخ", "هدایت"],
    icons: [["ارسال", "send"], ["حذف", "delete"]],
    endpoints: [["/pardakht", "a payment"], ["/api/sefaresh", "an order"], ["/حذف", "deleting"]],
    ordinary: ["/jostojoo", "/mahsoolat"],
  },
  zh: {
    commands: [["立即支付", "pay"], ["立即购买", "pay"], ["提交订单", "pay"], ["删除", "delete"], ["发送", "send"],
      ["转账", "transfer"], ["确认付款", "pay"], ["签署", "send"]],
    topics: ["转账记录", "支付方式", "购买记录"],
    composers: ["回复", "转发"],
    icons: [["发送", "send"], ["删除", "delete"]],
    endpoints: [["/api/zhifu", "a payment"], ["/order/xiadan", "an order"], ["/api/shanchu", "deleting"], ["/zhuanzhang", "a transfer"],
      ["/api/订单/提交", "an order"]],
    ordinary: ["/sousuo", "/shangpin/xiangqing", "/帮助"],
  },
  vi: {
    commands: [["Thanh toán", "pay"], ["Mua ngay", "pay"], ["Đặt hàng", "pay"], ["Xóa", "delete"], ["Gửi", "send"],
      ["Chuyển tiền", "transfer"], ["Xác nhận thanh toán", "pay"], ["Ký tên", "send"]],
    topics: ["Lịch sử chuyển khoản", "Lịch sử thanh toán"],
    composers: ["Trả lời", "Chuyển tiếp"],
    icons: [["Gửi", "send"], ["Xóa", "delete"]],
    endpoints: [["/thanh-toan", "a payment"], ["/dat-hang", "a payment"], ["/api/xoa", "deleting"], ["/chuyen-khoan", "a transfer"]],
    ordinary: ["/tim-kiem", "/san-pham/chi-tiet", "/gui/items"],
  },
  id: {
    commands: [["Bayar sekarang", "pay"], ["Beli", "pay"], ["Buat pesanan", "pay"], ["Hapus", "delete"], ["Kirim", "send"],
      ["Kirim uang", "transfer"], ["Konfirmasi pembayaran", "pay"], ["Tandatangani", "send"]],
    topics: ["Riwayat transfer", "Cara bayar"],
    composers: ["Balas", "Teruskan"],
    icons: [["Kirim pesan", "send"], ["Hapus", "delete"]],
    endpoints: [["/id/pembayaran", "a payment"], ["/api/pesanan", "an order"], ["/hapus", "deleting"], ["/penarikan", "a transfer"]],
    ordinary: ["/cari", "/produk/detail", "/bantuan"],
  },
  cs: {
    commands: [["Zaplatit", "pay"], ["Koupit", "pay"], ["Odeslat objednávku", "pay"], ["Smazat", "delete"], ["Odeslat", "send"],
      ["Převést peníze", "transfer"], ["Potvrdit platbu", "pay"], ["Podepsat", "send"]],
    topics: ["Historie převodů", "Jak zaplatit"],
    composers: ["Odpovědět", "Přeposlat"],
    icons: [["Odeslat", "send"], ["Smazat", "delete"]],
    endpoints: [["/cs/platba", "a payment"], ["/api/objednavky", "an order"], ["/smazat", "deleting"], ["/prevody", "a transfer"]],
    ordinary: ["/hledat", "/produkty/detail", "/napoveda"],
  },
  ko: {
    commands: [["결제하기", "pay"], ["바로 구매", "pay"], ["주문하기", "pay"], ["삭제", "delete"], ["보내기", "send"],
      ["송금하기", "transfer"], ["서명하기", "send"]],
    topics: ["결제 내역", "송금 내역"],
    composers: ["답장", "전달"],
    icons: [["전송", "send"], ["삭제", "delete"]],
    endpoints: [["/api/gyeoljae", "a payment"], ["/주문하기", "a payment"], ["/api/jumun", "an order"], ["/삭제", "deleting"], ["/songgeum", "a transfer"]],
    ordinary: ["/geomsaek", "/결제내역", "/sangpum"],
  },
  uk: {
    commands: [["Оплатити", "pay"], ["Купити", "pay"], ["Оформити замовлення", "pay"], ["Видалити", "delete"], ["Надіслати", "send"],
      ["Переказати кошти", "transfer"], ["Підтвердити оплату", "pay"], ["Підписати", "send"]],
    topics: ["Історія переказів", "Як оплатити"],
    composers: ["Відповісти", "Переслати"],
    icons: [["Надіслати", "send"], ["Видалити", "delete"]],
    endpoints: [["/ua/oplata", "a payment"], ["/api/zamovlennia", "an order"], ["/vydalyty", "deleting"], ["/perekaz", "a transfer"]],
    ordinary: ["/poshuk", "/tovary", "/dopomoha"],
  },
  ar: {
    commands: [["ادفع الآن", "pay"], ["اشتر الآن", "pay"], ["تأكيد الطلب", "pay"], ["حذف", "delete"], ["إرسال", "send"],
      ["تحويل الأموال", "transfer"], ["تأكيد الدفع", "pay"]],
    topics: ["سجل التحويلات", "طرق الدفع"],
    composers: ["رد", "إعادة توجيه"],
    icons: [["إرسال", "send"], ["حذف", "delete"]],
    endpoints: [["/الدفع", "a payment"], ["/api/حذف", "deleting"], ["/تحويل", "a transfer"]],
    ordinary: ["/بحث", "/منتجات"],
  },
  hu: {
    commands: [["Fizetés", "pay"], ["Vásárlás most", "pay"], ["Megrendelés elküldése", "pay"], ["Törlés", "delete"],
      ["Küldés", "send"], ["Átutalás", "transfer"], ["Fizetés megerősítése", "pay"], ["Aláírás és küldés", "send"]],
    topics: ["Fizetési előzmények", "Utalási előzmények", "Rendelés állapota", "Hogyan fizethetek"],
    composers: ["Válasz", "Továbbítás"],
    icons: [["Küldés", "send"], ["Törlés", "delete"]],
    endpoints: [["/hu/fizetes", "a payment"], ["/api/megrendelesek", "an order"], ["/torles", "deleting"], ["/atutalas", "a transfer"],
      ["/rendelesleadas", "an order"], ["/fiok/jelszo", "account changes"]],
    ordinary: ["/kereses", "/termekek/reszletek", "/rendelkezesre-allo", "/fizetesimodok", "/rendelesallapot"],
  },
};

/** @param {Partial<import("../src/safety/page-facts.js").ControlFacts>} facts */
const button = (facts) => ({ tag: "button", role: "", type: "", label: "", editable: false, submits: false, href: "",
  download: null, form: null, ...facts });
/** @param {string} path */
const kinds = (path) => endpointKinds(path.split("/").map(decodeURIComponent)).map(([k]) => k);

for (const [language, cases] of Object.entries(LANGUAGES)) {
  test(`${language}: button labels that command ask, topics and composers do not`, () => {
    for (const [label, category] of cases.commands) assert.equal(labelCategory(label), category, label);
    for (const label of cases.topics) assert.equal(labelCategory(label), null, label);
    for (const label of cases.composers) {
      assert.equal(classifyControl(button({ label, readings: [label] }), "click"), null, label);
      const submitting = button({ label, readings: [label], submits: true, form: { fields: [], submit: label, name: "" } });
      assert.equal(classifyControl(submitting, "click")?.category, "send", `${label} that submits`);
    }
  });

  test(`${language}: an icon-only button named only by its aria-label or title asks`, () => {
    for (const [name, category] of cases.icons) {
      assert.equal(classifyControl(button({ label: name, readings: [name], hint: "icon" }), "click")?.category, category, name);
      assert.equal(classifyControl(button({ label: "", readings: [name], hint: "btn-icon" }), "click")?.category, category, `title ${name}`);
    }
  });

  test(`${language}: endpoint names as slugs and compounds write them`, () => {
    for (const [path, expected] of cases.endpoints) assert.ok(kinds(path).includes(expected), `${path}: ${kinds(path)}`);
    for (const path of cases.ordinary) assert.deepEqual(kinds(path), [], path);
  });
}

test("every language of the table is one of the 20 the data must cover", () => {
  assert.equal(Object.keys(LANGUAGES).length, 20);
});

test("a request names its endpoint in a body field or an operation of another language", () => {
  const by = (/** @type {string} */ url, /** @type {string} */ body) => localReasons({ method: "POST", url, resourceType: "Fetch", body });
  assert.match(by("https://shop.example/api/x", JSON.stringify({ operationName: "zahlungAusfuehren" })).join(";"), /a payment/);
  assert.match(by("https://shop.example/graphql", JSON.stringify({ query: "mutation SiparisOlustur { id }" })).join(";"), /an order/);
  assert.match(by("https://bank.example/rpc", "action=przelew&amount=10").join(";"), /a transfer/);
  assert.deepEqual(by("https://shop.example/api/search", "q=zahlung+bestellen+oplata"), [], "values are data");
});

test("a text-less control named only by a class or symbol name in another language is read by its icon's names", () => {
  const icon = (/** @type {string} */ hint) => classifyControl(button({ label: "", readings: [], hint }), "click")?.category ?? null;
  for (const [hint, category] of [["ico-papierkorb", "delete"], ["svg-lixeira", "delete"], ["btn_usun", "delete"], ["icon-hapus", "delete"],
    ["btnBezahlen", "pay"], ["btn-enviar-mensaje", "send"], ["icon-kirim", "send"]]) assert.equal(icon(hint), category, hint);
  for (const hint of ["icon-korb", "btn-suche", "icon-kosmos", "ico-carrito", "btn-menu"]) assert.equal(icon(hint), null, hint);
});
