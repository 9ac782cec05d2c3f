import { test } from "node:test";
import assert from "node:assert/strict";

import { renderBlocks, renderRuns } from "../src/extract/markdown.js";

/** Elements are plain records here; place() numbers them in the order markdown meets them. */
function placer() {
  /** @type {any[]} */
  const order = [];
  const place = (/** @type {any} */ u) => {
    let index = order.indexOf(u);
    if (index < 0) index = order.push(u) - 1;
    return { uid: u.uid, index };
  };
  return { order, place };
}

const el = (/** @type {string} */ uid, /** @type {string} */ x = "", extra = {}) => ({ u: { uid }, x, ...extra });
const text = (/** @type {any[]} */ blocks) => renderBlocks(blocks, placer().place).map((l) => l.text).join("\n");

test("elements inline: [text](uid) when they show text, [uid] when not, spaced from words", () => {
  const { place } = placer();
  const runs = ["Search", el("e5"), " ", el("e6", "Go"), el("e7", "Next [2]")];
  assert.equal(renderRuns(runs, place, { upto: 0 }), "Search [e5] [Go](e6) [Next \\[2\\]](e7)");
});

test("a word right after an element token is spaced from it; punctuation is not", () => {
  const { place } = placer();
  assert.equal(renderRuns([el("e5"), "Ana Meeting notes", el("e6", "Eget"), ", next"], place, { upto: 0 }),
    "[e5] Ana Meeting notes [Eget](e6), next");
});

test("headings, paragraphs, whitespace collapsed, line breaks kept", () => {
  assert.equal(text([{ h: 1, c: ["  Candidates  "] }, { p: ["3   in\tthe ", "pipeline.\nSecond line"] }]),
    "# Candidates\n3 in the pipeline.\nSecond line");
});

test("nested lists indent and number", () => {
  const blocks = [{ l: 0, i: [[{ p: ["One"] }], [{ p: ["Two"] }, { l: 1, i: [[{ p: ["a"] }], [{ p: ["b"] }]] }]] }];
  assert.equal(text(blocks), "- One\n- Two\n  1. a\n  2. b");
});

test("GFM table: header separator, pipes escaped, short rows padded, continuation info per body row", () => {
  const blocks = [{
    t: [[1, ["Name"], ["Stage"]], [1, ["Jane"], ["A | B"]], [2, ["John"]]],
    hd: 1,
    sel: "#t > tbody",
  }];
  const lines = renderBlocks(blocks, placer().place);
  assert.deepEqual(lines.map((l) => l.text), ["| Name | Stage |", "| --- | --- |", "| Jane | A \\| B |", "| John |  |"]);
  assert.equal(lines[0].row, undefined);
  assert.deepEqual(lines[2].row, { sel: "#t > tbody", i: 1 });
  assert.deepEqual(lines[3].row, { sel: "#t > tbody", i: 2 });
});

test("the lines a frame of another origin shows are told by its origin, the innermost such frame's", () => {
  const blocks = [{ p: ["Page"] }, { c: [{ p: ["Shop line"] }, { l: 0, i: [[{ p: ["Item"] }]] },
    { c: [{ p: ["Pay line"] }], o: "https://pay.example" }], o: "https://shop.example" }, { c: [{ p: ["Same"] }] }];
  const lines = renderBlocks(blocks, placer().place);
  assert.deepEqual(lines.map((l) => [l.text, l.frame]), [["Page", undefined], ["Shop line", "https://shop.example"],
    ["- Item", "https://shop.example"], ["Pay line", "https://pay.example"], ["Same", undefined]]);
});

test("stripped-region markers print nothing but count as passed", () => {
  const { order, place } = placer();
  const nav = el("e1", "Jobs", { s: 1 });
  const lines = renderBlocks([{ p: [nav] }, { p: ["Hello ", el("e2", "World")] }], place);
  assert.deepEqual(lines.map((l) => [l.text, l.upto]), [["Hello [World](e2)", 2]]);
  assert.deepEqual(order.map((u) => u.uid), ["e1", "e2"]);
});

test("modal dialog framed, quotes and code blocks", () => {
  const blocks = [
    { d: "Delete?", m: 1, c: [{ p: [el("e1", "Cancel")] }] },
    { q: [{ p: ["quoted"] }] },
    { pre: "a  b\n  c\n" },
    { note: "iframe x could not be read" },
  ];
  assert.equal(text(blocks), [
    '[dialog "Delete?", modal: the page behind it is inert until it is closed]',
    "[Cancel](e1)",
    "[end of dialog]",
    "> quoted",
    "```",
    "a  b",
    "  c",
    "```",
    "[iframe x could not be read]",
  ].join("\n"));
});

test("blank lines collapse and never lead or trail", () => {
  assert.equal(text([{ p: ["  "] }, { p: ["a"] }, { p: [" "] }, { p: [" "] }, { p: ["b"] }, { p: [""] }]), "a\nb");
});

test("upto grows monotonically with the elements passed", () => {
  const lines = renderBlocks([{ p: [el("e1", "A")] }, { p: ["x"] }, { p: [el("e2", "B"), el("e3", "C")] }], placer().place);
  assert.deepEqual(lines.map((l) => l.upto), [1, 1, 3]);
});

test("a token laid out as text stays glued to the text the page glues to it; a boxed control gets a space", () => {
  const { place } = placer();
  assert.equal(renderRuns(["Our ", el("e7", "MacBook", { g: 3 }), "s and un", el("e8", "do", { g: 3 }), " it"], place, { upto: 0 }),
    "Our [MacBook](e7)s and un[do](e8) it");
  assert.equal(renderRuns(["the", el("e3", "body", { g: 1 }), "may", el("e4", "x", { g: 2 }), "y"], place, { upto: 0 }),
    "the[body](e3) may [x](e4)y", "a link whose own text ends in a space is spaced on that side");
  assert.equal(renderRuns(["Press", el("e9", "Go"), "now"], place, { upto: 0 }), "Press [Go](e9) now");
  assert.equal(renderRuns([el("e1", "A", { g: 3 }), el("e2", "B", { g: 3 })], place, { upto: 0 }), "[A](e1) [B](e2)",
    "two tokens stay apart, so each reads as one");
});

test("a page footer is one line: its text, and when cut how much more and the selector that reads it", () => {
  assert.equal(text([{ p: ["Body"] }, { ft: "© 2024  Hireline", more: 0, sel: "footer" }]), "Body\n[footer: © 2024 Hireline]");
  assert.equal(text([{ ft: "Offices", more: 120, sel: "#site-footer" }]),
    '[footer: Offices … 120 more characters: extract with selector "#site-footer"]');
});
