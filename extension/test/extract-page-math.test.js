import { test } from "node:test";
import assert from "node:assert/strict";

import { pageMath } from "../src/extract/page-math.js";

/** The MathML reading is self-contained, so it runs under node on plain trees shaped like MathML nodes. */
function presentation() {
  /** @type {any} */
  const lib = { clean: (/** @type {string} */ s) => s.replace(/\s+/g, " ").trim() };
  pageMath(lib);
  return lib.mathPresentation;
}

/**
 * A MathML element (children: elements, or strings for text).
 * @param {string} localName
 * @param {Record<string, string>} attrs
 * @param {...any} kids
 */
const m = (localName, attrs, ...kids) => ({
  nodeType: 1,
  localName,
  getAttribute: (/** @type {string} */ name) => attrs[name] ?? null,
  childNodes: kids.map((k) => (typeof k === "string" ? { nodeType: 3, data: k } : k)),
});
/** @param {string} name @param {string} text */
const t = (name, text) => m(name, {}, text);

test("limits under and over an operator read as sub- and superscripts", () => {
  const read = presentation();
  const sum = m("munderover", {}, t("mo", "∑"), m("mrow", {}, t("mi", "k"), t("mo", "="), t("mn", "1")), t("mi", "n"));
  assert.equal(read(m("math", {}, sum, m("msub", {}, t("mi", "a"), t("mi", "k")))), "∑_{k = 1}^n a_k");
  assert.equal(read(m("munder", {}, t("mo", "lim"), m("mrow", {}, t("mi", "x"), t("mo", "→"), t("mn", "0")))), "lim_{x → 0}");
  assert.equal(read(m("mover", {}, t("mi", "x"), t("mn", "2"))), "x^2");
  assert.equal(read(m("msubsup", {}, t("mo", "∫"), t("mn", "0"), t("mi", "π"))), "∫_0^π");
});

test("accents stay glued to their base", () => {
  const read = presentation();
  assert.equal(read(m("mover", {}, t("mi", "x"), t("mo", "˙"))), "x˙", "an accent character");
  assert.equal(read(m("mover", { accent: "true" }, t("mi", "v"), t("mo", "^"))), "v^");
  assert.equal(read(m("munder", { accentunder: "true" }, t("mi", "y"), t("mo", "_"))), "y_");
});

test("table rows and cells are kept apart", () => {
  const read = presentation();
  const row = (/** @type {string[]} */ ...cells) => m("mtr", {}, ...cells.map((c) => m("mtd", {}, t("mi", c))));
  assert.equal(read(m("mtable", {}, row("a", "b"), row("c", "d"))), "a & b \\\\ c & d");
  assert.equal(read(m("mtable", {}, m("mlabeledtr", {}, m("mtd", {}, t("mtext", "(1)")), m("mtd", {}, t("mi", "x"))))), "x ((1))");
});

test("fractions, roots, fences; phantoms and annotations say nothing", () => {
  const read = presentation();
  assert.equal(read(m("mfrac", {}, t("mi", "a"), m("mrow", {}, t("mi", "b"), t("mo", "+"), t("mn", "1")))), "(a)/(b + 1)");
  assert.equal(read(m("mroot", {}, t("mi", "x"), t("mn", "3"))), "root3(x)");
  assert.equal(read(m("mfenced", { open: "[", close: "]" }, t("mi", "a"), t("mi", "b"))), "[a,b]");
  assert.equal(read(m("mrow", {}, t("mi", "a"), m("mphantom", {}, t("mi", "b")), t("mi", "c"))), "a c");
  const semantics = m("semantics", {}, t("mi", "x"), m("annotation", { encoding: "application/x-tex" }, "x"));
  assert.equal(read(m("math", {}, semantics)), "x");
});

test("a missing script keeps the others in place", () => {
  const read = presentation();
  assert.equal(read(m("munderover", {}, t("mo", "∑"), m("mrow", {}), t("mi", "n"))), "∑^n");
  assert.equal(read(m("msup", {}, t("mi", "x"))), "x", "malformed: a script left out");
});
