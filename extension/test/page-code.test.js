/**
 * Every piece of code that runs in the page uses only what travels with it (page/page-code.js): a missing
 * helper, a library member no part provides, or a method called by a name the library does not have would
 * otherwise show only as a ReferenceError or TypeError in Chromium.
 */

import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { freeIdentifiers, libraryMembers, libraryReads, parseModule, walk, boundLocally } from "./page-code-scan.js";
import { PAGE_GLOBALS } from "./page-globals.js";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** @returns {string[]} every module under src/ */
function sourceFiles() {
  /** @type {string[]} */
  const out = [];
  /** @param {string} dir */
  const visit = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) visit(p);
      else if (p.endsWith(".js")) out.push(p);
    }
  };
  visit(SRC);
  return out.sort();
}

const FILES = sourceFiles();
// Importing every module makes every declaration (a module declares its page code when it is imported).
for (const file of FILES) await import(file);
const { allPageCode, declarationOf } = await import("../src/page/page-code.js");
const { LIBRARY_PARTS } = await import("../src/extract/run-in-page.js");

const GLOBALS = new Set(PAGE_GLOBALS);
const CODE = allPageCode();

/** @type {Map<string, string>} library member → the part that adds it */
const PROVIDER = new Map();
for (const part of CODE.filter((c) => c.kind === "part")) {
  for (const name of libraryMembers(part.fn).adds) {
    assert.ok(!PROVIDER.has(name) || PROVIDER.get(name) === part.name,
      `lib.${name} is added by both ${PROVIDER.get(name)} and ${part.name}; one part owns each member`);
    PROVIDER.set(name, part.name);
  }
}
const LIBRARY = new Set(LIBRARY_PARTS.flatMap((p) => [...libraryMembers(p.fn).adds]));

test("there is page code of both kinds to check", () => {
  assert.ok(CODE.filter((c) => c.kind === "function").length >= 30, "the page functions are declared");
  assert.equal(CODE.filter((c) => c.kind === "part").length, fs.readdirSync(path.join(SRC, "extract")).filter((f) => /^page-.*\.js$/.test(f)).length,
    "every extract/page-*.js declares its part");
  assert.deepEqual(new Set(LIBRARY_PARTS.map((p) => p.kind)), new Set(["part"]));
});

/**
 * What is wrong with a page function's declaration.
 * @param {import("../src/page/page-code.js").PageCode} code
 * @returns {string[]}
 */
function functionProblems(code) {
  const declared = new Set(code.uses.map((f) => f.name));
  const free = freeIdentifiers(code.fn);
  const problems = [];
  const stray = [...free].filter((name) => !declared.has(name) && !GLOBALS.has(name));
  if (stray.length) problems.push(`${code.name} uses ${stray.join(", ")}: declare it in uses (or, for a browser global, add it to test/page-globals.js)`);
  const unused = [...declared].filter((name) => !free.has(name));
  if (unused.length) problems.push(`${code.name} declares ${unused.join(", ")} but does not call it`);
  for (const name of libraryReads(code.fn)) if (!LIBRARY.has(name)) problems.push(`${code.name} reads __bua.${name}, which no part of the library adds`);
  return problems;
}

/**
 * What is wrong with a library part's declaration.
 * @param {import("../src/page/page-code.js").PageCode} part
 * @returns {string[]}
 */
function partProblems(part) {
  const problems = [];
  const stray = [...freeIdentifiers(part.fn)].filter((name) => !GLOBALS.has(name));
  if (stray.length) problems.push(`${part.name} uses ${stray.join(", ")}: a part reaches other code only through lib`);
  const { adds, reads, otherUses } = libraryMembers(part.fn);
  if (otherUses.length) problems.push(`${part.name} uses lib other than as lib.name (${otherUses.length}×): name each member it reads`);
  const mayRead = new Set([...adds, ...part.uses.flatMap((u) => [...libraryMembers(u).adds])]);
  for (const name of reads) {
    if (mayRead.has(name)) continue;
    const owner = PROVIDER.get(name);
    problems.push(owner ? `${part.name} reads lib.${name} of ${owner}: add ${owner} to its uses`
      : `${part.name} reads lib.${name}, which no part adds`);
  }
  const needed = new Set([...reads].map((n) => PROVIDER.get(n)));
  for (const used of part.uses) if (!needed.has(used.name)) problems.push(`${part.name} declares ${used.name} but reads nothing of it`);
  return problems;
}

test("a page function uses only its locals, the page functions it declares and allowed globals", () => {
  assert.deepEqual(CODE.filter((c) => c.kind === "function").flatMap(functionProblems), []);
});

test("a library part uses only allowed globals, and reads only members it or a part it declares adds", () => {
  assert.deepEqual(CODE.filter((c) => c.kind === "part").flatMap(partProblems), []);
});

test("the library installs each part after the parts whose members it reads while installing", () => {
  /** @type {Set<string>} */
  const added = new Set();
  for (const part of LIBRARY_PARTS) {
    const { adds, readsAtInstall } = libraryMembers(part.fn);
    for (const name of readsAtInstall) {
      assert.ok(added.has(name) || adds.has(name), `${part.name} reads lib.${name} as it installs, before ${PROVIDER.get(name)} adds it`);
    }
    for (const name of adds) added.add(name);
  }
});

/**
 * The page-call functions and where the function they send is among their arguments.
 * @type {Record<string, {fn: number}>}
 */
const SENDERS = { inWorld: { fn: 2 }, onElement: { fn: 3 }, keptFunction: { fn: 0 }, pageFunction: { fn: 0 } };

/** @type {Map<string, ReturnType<typeof parseModule> & {text: string}>} */
const modules = new Map();
/** @param {string} file */
function moduleOf(file) {
  let mod = modules.get(file);
  if (!mod) {
    const text = fs.readFileSync(file, "utf8");
    modules.set(file, (mod = { ...parseModule(text), text }));
  }
  return mod;
}

/**
 * A top-level function (or array of them) that `name` means in `file`, following imports.
 * @param {string} file
 * @param {string} name
 * @param {"functions" | "arrays"} kind
 * @returns {{file: string, node: any} | null}
 */
function resolve(file, name, kind) {
  const mod = moduleOf(file);
  const own = mod[kind].get(name);
  if (own) return { file, node: own };
  const imported = mod.imports.get(name);
  if (!imported) return null;
  return resolve(path.resolve(path.dirname(file), imported.from), imported.name, kind);
}

test("every function a call site sends to the page uses only what travels with it", () => {
  /** @type {string[]} */
  const problems = [];
  let sent = 0;
  for (const file of FILES) {
    const mod = moduleOf(file);
    /** @type {Map<any, any>} */
    const parents = new Map();
    walk(mod.ast, (node, parent) => parents.set(node, parent));
    walk(mod.ast, (node) => {
      if (node.type !== "CallExpression" || node.callee.type !== "Identifier" || !Object.hasOwn(SENDERS, node.callee.name)) return;
      const where = `${path.relative(SRC, file)}:${node.loc.start.line}`;
      const at = SENDERS[node.callee.name];
      const arg = node.arguments[at.fn];
      if (arg?.type === "Identifier" && boundLocally(node, arg.name, parents)) return; // the senders pass their own parameter on
      if (arg?.type !== "Identifier") {
        problems.push(`${where}: ${node.callee.name} is given something other than a function declared at module level`);
        return;
      }
      const found = resolve(file, arg.name, "functions");
      if (!found) {
        problems.push(`${where}: ${arg.name} is not a function declared at module level`);
        return;
      }
      sent++;
      const source = moduleOf(found.file).text.slice(found.node.start, found.node.end);
      const declared = allPageCode().find((c) => String(c.fn) === source);
      if (!declared) problems.push(`${where}: ${arg.name} is sent to the page without a declaration; definePageFunction it (page/page-code.js)`);
    });
  }
  assert.ok(sent >= 40, `found ${sent} call sites`);
  assert.deepEqual(problems, []);
});

test("every library method called by name exists in the library", () => {
  /** @type {string[]} */
  const problems = [];
  let calls = 0;
  for (const file of FILES) {
    walk(moduleOf(file).ast, (node) => {
      if (node.type !== "CallExpression" || node.callee.type !== "Identifier" || node.callee.name !== "callPage") return;
      const method = node.arguments[2];
      if (!method) return; // its definition
      calls++;
      if (method.type !== "Literal" || typeof method.value !== "string") {
        problems.push(`${path.relative(SRC, file)}:${node.loc.start.line}: callPage's method must be a string literal`);
      } else if (!LIBRARY.has(method.value)) {
        problems.push(`${path.relative(SRC, file)}:${node.loc.start.line}: the library has no ${method.value}`);
      }
    });
  }
  assert.ok(calls >= 10, `found ${calls} calls`);
  assert.deepEqual(problems, []);
});

test("the checks fail on a helper used but not declared, an unused declaration, and a member no part adds", async () => {
  const { describeElement, hiddenReason } = await import("../src/page/functions.js");
  const { pageAria } = await import("../src/extract/page-aria.js");
  function usesUndeclared(/** @type {any} */ el) {
    return describeElement(el) + hiddenReason(el) + globalThis.__bua.noSuchMember;
  }
  function declaresTooMuch() {
    return 1;
  }
  assert.deepEqual(functionProblems({ kind: "function", name: "usesUndeclared", fn: usesUndeclared, uses: [describeElement] }), [
    "usesUndeclared uses hiddenReason: declare it in uses (or, for a browser global, add it to test/page-globals.js)",
    "usesUndeclared reads __bua.noSuchMember, which no part of the library adds",
  ]);
  assert.deepEqual(functionProblems({ kind: "function", name: "declaresTooMuch", fn: declaresTooMuch, uses: [describeElement] }),
    ["declaresTooMuch declares describeElement but does not call it"]);
  function pageProbe(/** @type {any} */ lib) {
    lib.probe = () => lib.noSuchMember() + lib.roleOf() + fetch("x"); // eslint-disable-line no-undef
  }
  function pageHiding(/** @type {any} */ lib) {
    const { roleOf } = lib;
    lib.hiding = () => roleOf() + lib["nameOf"]();
  }
  assert.deepEqual(partProblems({ kind: "part", name: "pageHiding", fn: pageHiding, uses: [] }),
    ["pageHiding uses lib other than as lib.name (2×): name each member it reads"]);
  assert.deepEqual(partProblems({ kind: "part", name: "pageProbe", fn: pageProbe, uses: [] }).sort(), [
    "pageProbe reads lib.noSuchMember, which no part adds",
    "pageProbe reads lib.roleOf of pageAria: add pageAria to its uses",
    "pageProbe uses fetch: a part reaches other code only through lib",
  ]);
  assert.deepEqual(partProblems({ kind: "part", name: "pageProbe", fn: pageProbe, uses: [pageAria] }).sort(), [
    "pageProbe reads lib.noSuchMember, which no part adds",
    "pageProbe uses fetch: a part reaches other code only through lib",
  ]);
});

test("an undeclared use fails when the source is assembled, naming what to declare", async () => {
  const { definePageFunction, pageSource } = await import("../src/page/page-code.js");
  function notDeclared() {}
  function caller() {
    return notDeclared();
  }
  definePageFunction(caller, { uses: [notDeclared] });
  assert.throws(() => pageSource(/** @type {any} */ (declarationOf(caller))), /uses notDeclared, which is not declared; declare it with definePageFunction/);
});
