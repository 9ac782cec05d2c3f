/**
 * Code that runs in the page, declared with what it uses, and the one assembler that turns it into source text.
 *
 * Page code travels as text (Runtime.callFunctionOn in bua's isolated world, extract/run-in-page.js and
 * tabs/isolated-world.js), so nothing of its module's scope goes with it: a name its body uses must be its own
 * (a parameter, a local), a browser global, or other page code it declares in `uses`. There are two kinds:
 *
 * - a page function (definePageFunction): called by name; every function in its declared closure is in scope
 *   when it runs (pageSource puts them in one source text);
 * - a library part (definePagePart): `part(lib)` adds members to bua's in-page library (globalThis.__bua); its
 *   `uses` are the parts whose members it reads, and librarySource installs a closure of parts, the parts a
 *   part uses first.
 *
 * test/page-code.test.js parses every declaration (and every function a call site sends) and fails on a free
 * identifier that is neither declared nor a browser global on its allowlist, and on a library member that no
 * part of the closure provides. Declaring returns the function itself: the module, its callers and its tests
 * keep calling it as a function; the declaration is kept here, keyed by the function.
 */

/**
 * @typedef {"function" | "part"} PageCodeKind
 * @typedef {{kind: PageCodeKind, name: string, fn: Function, uses: readonly Function[]}} PageCode what one
 *   declaration says: `uses` holds functions, each declared itself (looked up when the code is assembled, so that
 *   modules that use each other can declare in any order)
 */

/** @type {Map<Function, PageCode>} every declaration made so far (a module declares when it is imported) */
const declarations = new Map();

/**
 * @param {PageCodeKind} kind
 * @param {Function} fn
 * @param {readonly Function[]} uses
 * @param {string} name
 */
function declare(kind, fn, uses, name) {
  if (typeof fn !== "function") throw new TypeError("page code must be a function");
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) {
    throw new TypeError(`page code needs a name to be called by (a named function declaration), not ${JSON.stringify(name)}`);
  }
  const before = declarations.get(fn);
  if (before) throw new Error(`page code ${name} is declared twice (${before.kind} and ${kind}); declare it once, in its module`);
  for (const used of uses) if (typeof used !== "function") throw new TypeError(`page code ${name} uses something that is not a function`);
  declarations.set(fn, Object.freeze({ kind, name, fn, uses: Object.freeze([...uses]) }));
}

/**
 * Declare a function that runs in the page, called by name, with what it calls of other page code.
 * @template {Function} F
 * @param {F} fn a named function declaration: its source is sent, and its name is how others call it
 * @param {{uses?: readonly Function[], name?: string}} [declared] uses: the page functions its body calls
 * @returns {F} fn itself
 */
export function definePageFunction(fn, { uses = [], name = fn.name } = {}) {
  declare("function", fn, uses, name);
  return fn;
}

/**
 * Declare a part of bua's in-page library: `part(lib)` adds members to lib.
 * @template {Function} F
 * @param {F} part
 * @param {{uses?: readonly Function[]}} [declared] uses: the parts whose members it reads
 * @returns {F} part itself
 */
export function definePagePart(part, { uses = [] } = {}) {
  declare("part", part, uses, part.name);
  return part;
}

/**
 * The declaration of a function, or undefined when it has none.
 * @param {Function} fn
 * @returns {PageCode | undefined}
 */
export function declarationOf(fn) {
  return declarations.get(fn);
}

/** Every declaration made so far (the node test imports the modules first). @returns {PageCode[]} */
export function allPageCode() {
  return [...declarations.values()];
}

/**
 * The declared closure of some page code, the code each one uses before it (a cycle is broken where it is met),
 * each once; an undeclared function among the uses fails here, naming who uses it.
 * @param {readonly PageCode[]} roots
 * @param {(fn: Function) => PageCode | undefined} [undeclared] what stands for a function without a declaration
 *   (page/functions.js: the helpers a call names the old way)
 * @returns {PageCode[]}
 */
export function closureOf(roots, undeclared = () => undefined) {
  /** @type {PageCode[]} */
  const out = [];
  /** @type {Set<Function>} */
  const seen = new Set();
  /** @type {Map<string, Function>} */
  const names = new Map();
  /** @param {PageCode} code */
  const visit = (code) => {
    if (seen.has(code.fn)) return;
    seen.add(code.fn);
    for (const used of code.uses) {
      const dep = declarations.get(used) ?? undeclared(used);
      if (!dep) {
        throw new Error(`page code ${code.name} uses ${used.name || "an anonymous function"}, which is not declared; `
          + "declare it with definePageFunction or definePagePart (page/page-code.js) in its module");
      }
      if (dep.kind !== code.kind) throw new Error(`page code ${code.name} (a ${code.kind}) uses ${dep.name}, a ${dep.kind}`);
      visit(dep);
    }
    const clash = names.get(code.name);
    if (clash && clash !== code.fn) throw new Error(`two pieces of page code are named ${code.name}; rename one`);
    names.set(code.name, code.fn);
    out.push(code);
  };
  for (const root of roots) visit(root);
  return out;
}

/**
 * The source of a function declaration (for Runtime.callFunctionOn) that runs `code` with `this` and its
 * arguments, with every page function of its closure in scope by its name.
 * @param {PageCode} code a page function (declared, or a call's undeclared one: see page/functions.js)
 * @param {(fn: Function) => PageCode | undefined} [undeclared] as for closureOf
 * @returns {string}
 */
export function pageSource(code, undeclared) {
  if (code.kind !== "function") throw new Error(`${code.name} is a library part: it is installed (librarySource), not called`);
  // An undeclared call's function may be anonymous: it is then called in place, not by name.
  const scope = closureOf([code], undeclared).filter((c) => c.name).map((c) => `const ${c.name} = ${c.fn};`);
  return `function (...args) {\n${scope.join("\n")}\nreturn (${code.name || code.fn}).apply(this, args);\n}`;
}

/**
 * The parts of the library, closed over what they use, in the order they are installed (providers first).
 * @param {readonly Function[]} roots library parts
 * @returns {PageCode[]}
 */
export function libraryParts(roots) {
  return closureOf(roots.map((part) => {
    const code = declarations.get(part);
    if (!code || code.kind !== "part") throw new Error(`${part.name} is not a declared library part (definePagePart)`);
    return code;
  }));
}

/**
 * The statements that install the parts into `lib` (a name the surrounding source binds), in order.
 * @param {readonly PageCode[]} parts from libraryParts
 * @param {string} lib
 * @returns {string}
 */
export function librarySource(parts, lib) {
  return parts.map((part) => `  (${part.fn})(${lib});`).join("\n");
}
