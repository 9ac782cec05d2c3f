import { test } from "node:test";
import assert from "node:assert/strict";

import { endpointKindOf } from "../src/safety/network-words.js";
import { localReasons } from "../src/safety/network-judge.js";

const kind = (/** @type {string} */ path) => endpointKindOf(path.split("/").map(decodeURIComponent))?.[0] ?? null;

test("endpoint commands of every language the label check reads, in the forms slugs take", () => {
  for (const [path, expected] of /** @type {[string, string][]} */ ([
    ["/de/bezahlen", "a payment"], ["/api/pagar", "a payment"], ["/fr/supprimer", "deleting"], ["/api/loeschen", "deleting"],
    ["/api/löschen", "deleting"], ["/ru/oplata", "a payment"], ["/ru/udalit", "deleting"], ["/ru/otpravit", "sending"],
    ["/ua/vidalyty", "deleting"], ["/%D1%83%D0%B4%D0%B0%D0%BB%D0%B8%D1%82%D1%8C", "deleting"], ["/cart/place-order", "a payment"],
    ["/api/%E5%88%A0%E9%99%A4", "deleting"], ["/it/acquista", "a payment"], ["/pl/przelew", "a transfer"], ["/nl/verwijderen", "deleting"],
    ["/api/sendMoney", "a transfer"], ["/tr/sil", "deleting"], ["/id/hapus", "deleting"], ["/profile/edit", "account changes"],
  ])) assert.equal(kind(path), expected, path);
});

test("ordinary endpoints and look-alike words are not commands", () => {
  for (const path of ["/api/notes", "/search", "/api/postal-code", "/stereo", "/gui/items", "/api/v1/update", "/api/save",
    "/upload", "/api/stats", "/collect", "/api/items/3", "/de/suche", "/ru/poisk"]) {
    assert.equal(kind(path), null, path);
  }
});

test("a body field named in another language counts as a request's endpoint word; values do not", () => {
  const by = (/** @type {string} */ url, /** @type {string} */ body) => localReasons({ method: "POST", url, resourceType: "Fetch", body });
  assert.match(by("https://shop.example/api/x", "{\"bezahlen\": true}").join(";"), /payment \(“bezahlen”\)/);
  assert.deepEqual(by("https://shop.example/api/notes", "note=bezahlen+supprimer"), []);
});

test("a generic verb places an order next to a cart word, in any of the 20 languages; either alone says nothing", async () => {
  const { endpointKinds } = await import("../src/safety/network-words.js");
  const kinds = (/** @type {string[]} */ names) => endpointKinds(names).map(([k]) => k);
  for (const names of [["panier", "valider"], ["cart", "confirm"], ["api", "basket", "submit"], ["warenkorb", "bestätigen"],
    ["carrello", "conferma"], ["koszyk", "potwierdź"], ["корзина", "подтвердить"], ["sepet", "onayla"], ["购物车", "确认"],
    ["장바구니", "확인"], ["keranjang", "konfirmasi"], ["gio-hang", "xac-nhan"], ["carrito", "finalizar"], ["basketId", "placeNow"]]) {
    assert.ok(kinds(names).includes("an order"), names.join("/"));
  }
  for (const names of [["search", "validate-query"], ["cart", "items"], ["cart", "add"], ["newsletter", "confirm"],
    ["panier", "ajouter"], ["account", "email", "confirmation"], ["bag", "confirm"], ["cart", "isComplete"], ["cart", "process"]]) {
    assert.ok(!kinds(names).includes("an order"), names.join("/"));
  }
});
