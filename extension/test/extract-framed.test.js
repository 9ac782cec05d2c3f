import { test } from "node:test";
import assert from "node:assert/strict";

import { diffSnapshots } from "../src/extract/diff.js";
import { joinFacts, indexLines } from "../src/extract/element-lines.js";
import { present, render } from "../src/extract/extract-action.js";
import { framesByText } from "../src/extract/framed.js";
import { snapshotOf } from "../src/extract/snapshots.js";

const SHOP = "https://shop.example";

/** @param {any[]} blocks */
const page = (blocks) => ({ blocks, omitted: { els: 0, rows: 0, chars: 0 }, url: "https://mail.example/", title: "Mail", modal: false });

/** @param {string} uid @param {string} name @param {string} [frame] */
const field = (uid, name, frame) => ({ uid, role: "textbox", name, states: 'value="x"', context: "", ...(frame ? { frame } : {}) });

test("a full extract tells the index lines of a frame of another origin's elements by its origin, not the page's", () => {
  const own = field("e1", "Search");
  const framed = field("e2", "Card number 4111", SHOP);
  const result = present(page([{ p: ["Inbox ", { u: own, x: "" }] }, { c: [{ p: ["Pay here ", { u: framed, x: "" }] }], o: SHOP }]), 24000);
  const frameLines = result.frames?.find((f) => f.url === SHOP)?.text.split("\n") ?? [];
  const framedIndexLine = result.elements.split("\n").find((l) => l.startsWith("e2 "));
  assert.ok(framedIndexLine && frameLines.includes(framedIndexLine), result);
  assert.ok(frameLines.includes(result.markdown.split("\n").find((l) => l.startsWith("Pay here"))), result);
  assert.ok(!frameLines.some((l) => l.includes("Search") || l.includes("Inbox")), "the page's own lines stay the page's");
  assert.equal(result.frames?.length, 1, "one entry per origin");
});

test("facts lines of two frames' elements are not joined into one line", () => {
  const { lines, facts, frames } = indexLines([field("e1", "A"), field("e2", "B", SHOP), field("e3", "C", SHOP)],
    () => true, () => true);
  const joined = joinFacts(lines, facts, frames);
  assert.deepEqual(joined.lines, ['e1 textbox value="x"', 'e2 e3 textbox value="x"'], joined);
  assert.deepEqual(joined.frames, [undefined, SHOP]);
});

test("a change list tells which of its lines quote a frame of another origin, by the frame's origin", () => {
  const before = snapshotOf(page([]), render(page([{ p: ["Inbox"] }, { c: [{ p: ["Order 1 ships"] }], o: SHOP }])), "d1");
  const card = field("e2", "Code QX7", SHOP);
  const now = page([{ p: ["Inbox"] }, { p: ["New mail"] }, { c: [{ p: ["Order 2 ships"] }, { p: ["Code ", { u: card, x: "" }] }], o: SHOP }]);
  const list = diffSnapshots(before, snapshotOf(now, render(now), "d1"));
  assert.ok(list, "a change list");
  const frameLines = list.frames?.find((f) => f.url === SHOP)?.text.split("\n") ?? [];
  const said = [...(list.markdown ?? "").split("\n"), ...(list.elements ?? "").split("\n")];
  assert.ok(frameLines.length > 0 && frameLines.every((l) => said.includes(l)), "each exactly as the list says it");
  for (const quoted of ["Order 2 ships", "Order 1 ships", "e2 textbox"]) {
    assert.ok(frameLines.some((l) => l.includes(quoted)), `${quoted}: ${JSON.stringify(list)}`);
  }
  assert.ok(!frameLines.some((l) => l.includes("New mail")), "the page's added line stays the page's");
});

test("a line the page and a frame both show is no frame's alone: it stays the page's", () => {
  const lines = [{ text: "Total 5" }, { text: "Total 5", frame: SHOP }, { text: "Pay", frame: SHOP },
    { text: "Ad", frame: SHOP }, { text: "Ad", frame: "https://ads.example" }];
  assert.deepEqual([...framesByText(lines)], [["Pay", SHOP]]);
});

test("what an action quotes of an element in a frame of another origin is that frame's; the page's element, none", async () => {
  const { targetFrameOrigin } = await import("../src/extract/frame-origin.js");
  const { uidFor, clearTab } = await import("../src/extract/uid-map.js");
  const { shownBy } = await import("../src/extract/framed.js");
  const tabId = 9101;
  const children = [{ sessionId: "s-shop", url: `${SHOP}/checkout?x=1` }, { sessionId: "s-same", url: "https://mail.example/pane" }];
  const ctx = /** @type {any} */ ({ debugger: { childTargets: () => children },
    tabs: { get: async () => ({ url: "https://mail.example/inbox" }) } });
  const at = (/** @type {string | undefined} */ sessionId, /** @type {number} */ id) =>
    uidFor(tabId, { sessionId, frameId: "f", doc: "d", id, role: "button", name: "x" });
  const [inShop, inSame, own] = [at("s-shop", 1), at("s-same", 2), at(undefined, 3)];
  assert.equal(await targetFrameOrigin(ctx, tabId, { uid: inShop }), SHOP);
  assert.equal(await targetFrameOrigin(ctx, tabId, { uid: inSame }), undefined, "a frame of the page's own origin");
  assert.equal(await targetFrameOrigin(ctx, tabId, { uid: own }), undefined);
  assert.equal(await targetFrameOrigin(ctx, tabId, {}), undefined, "a selector: the top document's");
  assert.deepEqual(shownBy(SHOP, ["Code QX7\nships", 'button "Pay"', ""]), { frames: [{ url: SHOP, text: 'Code QX7\nships\nbutton "Pay"' }] });
  assert.deepEqual(shownBy(undefined, ["Code QX7"]), {});
  clearTab(tabId);
});

/** @param {string[]} lines @param {string[]} framed the lines a frame of SHOP shows */
const snap = (lines, framed) => ({ doc: "d1", url: "https://mail.example/", title: "Mail", lines, elements: new Map(),
  framed: new Map(framed.map((line) => [line, SHOP])) });

test("a change list's relabel line and the heading of a dialog or section it collapses are the frame's that shows them", () => {
  const section = ["## Parcel PX9913", ...Array.from({ length: 7 }, (_, i) => `step ${i}`)];
  const dialog = ['[dialog "Gift GC4471"]', "Redeem", "[end of dialog]"];
  const before = snap(["Inbox", "[Track](e4)", "[Mail](e5)", ...section, "Sent", ...dialog, "Drafts"],
    ["[Track](e4)", ...section, ...dialog]);
  const after = snap(["Inbox", "[Track TR51](e4)", "[Mail 3](e5)", "Sent", "Drafts"], ["[Track TR51](e4)"]);
  const list = diffSnapshots(before, after);
  assert.ok(list?.markdown, "a change list");
  const md = list.markdown.split("\n");
  const frameLines = list.frames?.find((f) => f.url === SHOP)?.text.split("\n") ?? [];
  for (const quoted of ["[Track TR51](e4)", "PX9913", "GC4471"]) {
    const line = md.find((l) => l.includes(quoted));
    assert.ok(line && frameLines.includes(line), `${quoted} is the frame's: ${JSON.stringify(list)}`);
  }
  const own = md.find((l) => l.includes("[Mail 3](e5)"));
  assert.ok(own && !own.includes("TR51") && !frameLines.includes(own), "the page's relabel stays the page's, on its own line");
});

test("a result's texts each by the frame that shows them; a control read in a frame of another origin is its", async () => {
  const { shownByEach, shownAt } = await import("../src/extract/framed.js");
  const ADS = "https://ads.example";
  assert.deepEqual(shownByEach([{ text: 'button "Grip KQ1"', frame: SHOP }, { text: 'region "Bin"' }, { text: "", frame: ADS },
    { text: 'div "Zone ZZ2"', frame: ADS }]), { frames: [{ url: SHOP, text: 'button "Grip KQ1"' }, { url: ADS, text: 'div "Zone ZZ2"' }] });
  assert.deepEqual(shownByEach([{ text: 'button "Grip"' }]), {});
  assert.deepEqual(shownAt(`${SHOP}/pay?x=1`, "https://mail.example/inbox", ['button "Pay 40"', "it pays"]),
    { frames: [{ url: SHOP, text: 'button "Pay 40"\nit pays' }] });
  assert.deepEqual(shownAt("https://mail.example/pane", "https://mail.example/inbox", ['button "Pay"']), {}, "the page's own origin");
});
