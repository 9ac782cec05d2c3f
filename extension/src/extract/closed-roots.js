/**
 * Closed shadow roots handed to a frame's library, before any reader reads (extract, find, the element resolver
 * behind select_text, click and descriptions, wait_for and the page functions run by inWorld): page code cannot open
 * a root attached with {mode: "closed"}, on a custom element or on a div, while CDP can.
 *
 * The library says what to look at (page-shadow.js closedScan: the next parts of a whole walk, at most 4,000
 * elements a call, or the elements inserted and the custom elements defined since the last look; nothing at all on
 * a page that did not change since its last whole walk, which costs one call). Each is described with
 * DOM.describeNode {depth: -1, pierce: true} (an element too big for one part by itself, depth 0, its closed roots
 * then whole): its subtree with shadow roots and same-process frames' documents, without DOM.enable (so no node ids pile up and
 * nothing is left to disable). Every closed root in it is resolved into the frame's bua world (DOM.resolveNode) and
 * given to the library (addClosedRoots), which then reads it, and the light nodes it slots, like an open one. A
 * frame in a process of its own has its own session and library: collect.js reveals each before it walks it.
 */

import { callPage, contextOf } from "./run-in-page.js";

/**
 * @typedef {import("../tabs/debugger-controller.js").DebuggerController} DebuggerController
 * @typedef {import("./run-in-page.js").Frame} Frame
 * @typedef {{backendNodeId: number, shadowRootType?: string, children?: DomNode[], shadowRoots?: DomNode[],
 *   contentDocument?: DomNode}} DomNode the parts of a DOM.Node read here
 */

/**
 * The closed shadow roots in a described subtree (nested ones too), by backend node id.
 * @param {DomNode | undefined} node
 * @param {number[]} [out]
 * @returns {number[]}
 */
export function closedRootIds(node, out = []) {
  if (!node) return out;
  for (const root of node.shadowRoots ?? []) {
    if (root.shadowRootType === "closed") out.push(root.backendNodeId);
    closedRootIds(root, out);
  }
  for (const child of node.children ?? []) closedRootIds(child, out);
  closedRootIds(node.contentDocument, out);
  return out;
}

/**
 * Hand the frame's library the closed roots it has not been given yet (see the module comment).
 * @param {DebuggerController} dbg
 * @param {Frame} frame
 */
export async function revealClosedRoots(dbg, frame) {
  const asked = await callPage(dbg, frame, "closedScan", [], { returnByValue: false });
  if (!asked.objectId) return;
  try {
    const { result } = await dbg.send(frame.tabId, "Runtime.getProperties", { objectId: asked.objectId, ownProperties: true }, frame.sessionId);
    const items = result.filter((/** @type {any} */ p) => /^\d+$/.test(p.name)).sort((/** @type {any} */ a, /** @type {any} */ b) => a.name - b.name);
    const heads = Number(items.at(-1)?.value?.value ?? 0);
    const nodes = items.slice(0, -1).map((/** @type {any} */ p) => p.value?.objectId).filter(Boolean);
    const started = performance.now();
    /** @param {{objectId?: string, backendNodeId?: number}} which @param {number} depth */
    const describe = (which, depth) => dbg.send(frame.tabId, "DOM.describeNode", { ...which, depth, pierce: true }, frame.sessionId)
      .then((d) => /** @type {DomNode} */ (d.node), () => undefined);
    const described = await Promise.all(nodes.map((/** @type {string} */ objectId, /** @type {number} */ i) => describe({ objectId }, i < heads ? 0 : -1)));
    const shallow = described.slice(0, heads).flatMap((d) => closedRootIds(d));
    // A root found on an element described by itself holds what was not described yet: nested closed roots.
    const nested = await Promise.all(shallow.map((backendNodeId) => describe({ backendNodeId }, -1)));
    const ids = [...new Set([...shallow, ...[...described.slice(heads), ...nested].flatMap((d) => closedRootIds(d))])];
    await callPage(dbg, frame, "closedWalked", [{ value: performance.now() - started }]);
    if (!ids.length) return;
    const executionContextId = await contextOf(dbg, frame);
    const roots = await Promise.all(ids.map((backendNodeId) => dbg.send(frame.tabId, "DOM.resolveNode",
      { backendNodeId, executionContextId, objectGroup: "bua-closed" }, frame.sessionId).then((r) => r.object?.objectId ?? null, () => null)));
    const found = roots.filter(Boolean).map((objectId) => ({ objectId }));
    if (found.length) await callPage(dbg, frame, "addClosedRoots", found);
    await dbg.send(frame.tabId, "Runtime.releaseObjectGroup", { objectGroup: "bua-closed" }, frame.sessionId);
  } finally {
    await dbg.send(frame.tabId, "Runtime.releaseObject", { objectId: asked.objectId }, frame.sessionId).catch(() => undefined);
  }
}
