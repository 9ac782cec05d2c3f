/**
 * Static reading of page code for test/page-code.test.js: the free identifiers of a function's source (acorn
 * parses it, eslint-scope resolves every reference: what no scope of the function binds is free), the library
 * members a part reads and adds, and the functions src/ sends to the page at its call sites.
 */

import * as acorn from "acorn";
import { analyze } from "eslint-scope";

const PARSE = /** @type {const} */ ({ ecmaVersion: "latest", ranges: true });

/**
 * @typedef {{type: string, [key: string]: any}} Node an ESTree node
 */

/**
 * Every node under `root`, with its parent.
 * @param {Node} root
 * @param {(node: Node, parent: Node | null) => void} visit
 */
export function walk(root, visit) {
  /** @type {[Node, Node | null][]} */
  const stack = [[root, null]];
  while (stack.length > 0) {
    const [node, parent] = /** @type {[Node, Node | null]} */ (stack.pop());
    visit(node, parent);
    for (const key of Object.keys(node)) {
      if (key === "parent") continue;
      const child = node[key];
      if (Array.isArray(child)) {
        for (const c of child) if (c && typeof c.type === "string") stack.push([c, node]);
      } else if (child && typeof child.type === "string") stack.push([child, node]);
    }
  }
}

/**
 * A function's source parsed as an expression, and its scopes.
 * @param {Function | string} fn
 */
export function parseFunction(fn) {
  const ast = /** @type {Node} */ (/** @type {unknown} */ (acorn.parse(`(${fn})`, PARSE)));
  const scopes = analyze(/** @type {any} */ (ast), { ecmaVersion: 2022, sourceType: "script" });
  return { ast, scopes };
}

/**
 * The names a function uses that none of its own scopes binds (its parameters and locals are bound).
 * @param {Function | string} fn
 * @returns {Set<string>}
 */
export function freeIdentifiers(fn) {
  const { scopes } = parseFunction(fn);
  return new Set(scopes.globalScope?.through.map((ref) => ref.identifier.name));
}

/**
 * What a library part `(lib) => { lib.x = ...; ... lib.y ... }` adds to lib and reads of it: `reads` are the
 * names read anywhere, `readsAtInstall` those read while the part installs (outside its nested functions),
 * `otherUses` where lib is used otherwise (its source offsets).
 * @param {Function} part
 */
export function libraryMembers(part) {
  const { ast } = parseFunction(part);
  const outer = /** @type {Node} */ (ast.body[0].expression);
  const lib = outer.params[0]?.name;
  /** @type {Set<string>} */
  const adds = new Set();
  /** @type {Set<string>} */
  const reads = new Set();
  /** @type {Set<string>} */
  const readsAtInstall = new Set();
  /** @type {Map<Node, Node | null>} */
  const parents = new Map();
  walk(outer, (node, parent) => parents.set(node, parent));
  /** @param {Node} node whether it is inside a function nested in the part */
  const nested = (node) => {
    for (let n = parents.get(node); n && n !== outer; n = parents.get(n)) {
      if (/Function/.test(n.type)) return true;
    }
    return false;
  };
  /** @type {number[]} */
  const otherUses = [];
  walk(outer, (node, parent) => {
    // `lib` as anything but `lib.name` (passed on, destructured, lib[x]) would hide what the part reads.
    if (node.type === "Identifier" && node.name === lib && parent && parent !== outer
      && !(parent.type === "MemberExpression" && parent.object === node && !parent.computed)
      && !(parent.type === "MemberExpression" && parent.property === node && !parent.computed)
      && !(parent.type === "Property" && parent.key === node && !parent.computed && !parent.shorthand)) {
      otherUses.push(node.start);
    }
    if (node.type !== "MemberExpression" || node.computed || node.object.type !== "Identifier" || node.object.name !== lib) return;
    const name = node.property.name;
    if (parent && parent.type === "AssignmentExpression" && parent.left === node) adds.add(name);
    else {
      reads.add(name);
      if (!nested(node)) readsAtInstall.add(name);
    }
  });
  return { adds, reads, readsAtInstall, otherUses };
}

/**
 * The library members a page function reads: `globalThis.__bua.x`, and `lib.x` where `lib` is a variable
 * bound to globalThis.__bua.
 * @param {Function} fn
 * @returns {Set<string>}
 */
export function libraryReads(fn) {
  const { ast, scopes } = parseFunction(fn);
  /** @type {Map<Node, Node | null>} */
  const parents = new Map();
  walk(ast, (node, parent) => parents.set(node, parent));
  /** @param {Node | null | undefined} node */
  const isLibrary = (node) => node?.type === "MemberExpression" && !node.computed && node.property.name === "__bua"
    && node.object.type === "Identifier" && node.object.name === "globalThis";
  /** @type {Set<string>} */
  const out = new Set();
  /** @param {Node} object */
  const memberOf = (object) => {
    const parent = parents.get(object);
    if (parent?.type === "MemberExpression" && parent.object === object && !parent.computed) out.add(parent.property.name);
  };
  walk(ast, (node) => {
    if (isLibrary(node)) memberOf(node);
  });
  for (const scope of scopes.scopes) {
    for (const variable of scope.variables) {
      const bound = variable.defs.some((def) => def.node.type === "VariableDeclarator" && isLibrary(/** @type {any} */ (def.node).init));
      if (!bound) continue;
      for (const ref of variable.references) memberOf(/** @type {any} */ (ref.identifier));
    }
  }
  return out;
}

/**
 * A module's source parsed, with its top-level function declarations, consts holding arrays, and imports.
 * @param {string} text
 */
export function parseModule(text) {
  const ast = /** @type {Node} */ (/** @type {unknown} */ (acorn.parse(text, { ...PARSE, sourceType: "module", locations: true })));
  /** @type {Map<string, Node>} */
  const functions = new Map();
  /** @type {Map<string, Node>} */
  const arrays = new Map();
  /** @type {Map<string, {from: string, name: string}>} */
  const imports = new Map();
  for (let node of ast.body) {
    if (node.type === "ImportDeclaration") {
      for (const spec of node.specifiers) {
        if (spec.type === "ImportSpecifier") imports.set(spec.local.name, { from: node.source.value, name: spec.imported.name });
      }
      continue;
    }
    if (node.type === "ExportNamedDeclaration" && node.declaration) node = node.declaration;
    if (node.type === "FunctionDeclaration") functions.set(node.id.name, node);
    if (node.type === "VariableDeclaration") {
      for (const d of node.declarations) if (d.id.type === "Identifier" && d.init?.type === "ArrayExpression") arrays.set(d.id.name, d.init);
    }
  }
  return { ast, functions, arrays, imports };
}

/**
 * Whether `name` at `node` is bound by a parameter or local of an enclosing function (not module scope).
 * @param {Node} node
 * @param {string} name
 * @param {Map<Node, Node | null>} parents
 */
export function boundLocally(node, name, parents) {
  for (let n = parents.get(node); n; n = parents.get(n)) {
    if (!/Function/.test(n.type)) continue;
    /** @type {string[]} */
    const names = [];
    for (const p of n.params) walk(p, (x) => x.type === "Identifier" && names.push(x.name));
    walk(n.body, (x) => {
      if (x.type === "VariableDeclarator") walk(x.id, (y) => y.type === "Identifier" && names.push(y.name));
    });
    if (names.includes(name)) return true;
  }
  return false;
}
