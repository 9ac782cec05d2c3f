/**
 * upload {uid|selector, paths} → {uploaded: [{name, size}], to, how: "file input" | "drop", effects}
 *
 * The app has checked the paths (under a folder the person allowed, regular
 * files, size cap: app/files/policy.py) and resolved them before the request
 * came; the extension cannot see the disk.
 * - A file input (the target, its label's control, or one inside the target):
 *   DOM.setFileInputFiles, which fires input and change as a person's choice does.
 * - Anything else is taken for a drop zone: the files are dragged onto its
 *   centre with Input.dispatchDragEvent (dragEnter, dragOver, drop with
 *   `data.files`), so its drop handler gets them in dataTransfer.files.
 */

import { ActionError, ErrorCode, quoting } from "../protocol.js";
import { CdpError } from "../tabs/debugger-controller.js";
import { nodeError, onTaskTab, targetElement } from "../targets/action-target.js";
import { settleMsOf, watchEffects } from "../input/effects.js";
import { frameOffset } from "../input/frame-offset.js";
import { offsetQuads, pressPoint } from "../input/geometry.js";
import { describeElement, pageFunction } from "../page/functions.js";
import { onElement } from "../tabs/isolated-world.js";
import { chosenFiles, fileInputFacts, pickFileInput } from "../page/upload.js";
import { definePageFunction } from "../page/page-code.js";

/**
 * @typedef {import("./support/context.js").ActionContext} ActionContext
 * @typedef {import("../targets/action-target.js").ResolvedElement} ResolvedElement
 */

/** Drag operation "copy", as a file dragged from the desktop offers. */
const DRAG_COPY = 1;

/**
 * @param {import("./support/context.js").ActionOf<"upload">} action
 * @param {ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"upload">>}
 */
export async function upload(action, ctx) {
  const paths = action.paths;
  return onTaskTab(action, ctx, async (tabId, dialogs) => {
    const target = await targetElement(action, ctx, tabId);
    const input = await fileInputOf(ctx, tabId, target);
    const names = paths.map((p) => p.split(/[\\/]/).pop() ?? p);
    if (input) {
      const facts = await onElement(ctx, tabId, input, fileInputFacts);
      if (facts.disabled) throw new ActionError(ErrorCode.NOT_INTERACTABLE, `${facts.target} is disabled: ${facts.disabled}`, quoting(facts.target));
      if (paths.length > 1 && !facts.multiple) {
        throw new ActionError(ErrorCode.INVALID_ACTION, `${facts.target} takes one file (no 'multiple'); give one path`, quoting(facts.target));
      }
      const watch = await watchEffects(ctx, tabId, { element: input, settleMs: settleMsOf(action) });
      try {
        await ctx.debugger.send(tabId, "DOM.setFileInputFiles", { files: paths, objectId: input.objectId }, input.sessionId);
      } catch (err) {
        watch.stop();
        throw err instanceof CdpError ? nodeError(err, facts.target) : err;
      }
      const uploaded = await onElement(ctx, tabId, input, chosenFiles);
      const effects = await watch.finish(dialogs.records, { valueChanged: true });
      /** @type {import("./support/context.js").ResultOf<"upload">} */
      const result = { uploaded, to: facts.target, how: "file input", effects };
      if (facts.accept) result.accept = facts.accept;
      return result;
    }
    const point = await dropPoint(ctx, tabId, target);
    const watch = await watchEffects(ctx, tabId, { element: target, settleMs: settleMsOf(action) });
    try {
      const data = { items: [], files: paths, dragOperationsMask: DRAG_COPY };
      for (const type of ["dragEnter", "dragOver", "drop"]) {
        await ctx.debugger.send(tabId, "Input.dispatchDragEvent", { type, x: point.x, y: point.y, data });
      }
    } catch (err) {
      watch.stop();
      throw err;
    }
    const effects = await watch.finish(dialogs.records);
    /** @type {import("./support/context.js").ResultOf<"upload">} */
    const result = { uploaded: names.map((name) => ({ name })), to: await onElement(ctx, tabId, target, describeThis), how: "drop", x: point.x, y: point.y, effects };
    if (effects.nothing_changed) {
      result.note = "the drop changed nothing on the page: the element may not be a drop zone; look for a file input (extract shows it as a button \"Choose File\") and upload to it";
    }
    return result;
  });
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 * @returns {Promise<ResolvedElement | null>}
 */
async function fileInputOf(ctx, tabId, element) {
  const reply = await ctx.debugger.send(tabId, "Runtime.callFunctionOn", {
    objectId: element.objectId, functionDeclaration: pageFunction(pickFileInput), returnByValue: false,
  }, element.sessionId);
  return reply.result?.subtype === "node" && reply.result.objectId ? { ...element, objectId: reply.result.objectId } : null;
}

/**
 * The centre of the visible part of the element, in the tab's viewport.
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ResolvedElement} element
 */
async function dropPoint(ctx, tabId, element) {
  try {
    await ctx.debugger.send(tabId, "DOM.scrollIntoViewIfNeeded", { objectId: element.objectId }, element.sessionId);
    const { quads } = await ctx.debugger.send(tabId, "DOM.getContentQuads", { objectId: element.objectId }, element.sessionId);
    const offset = await frameOffset(ctx, tabId, element.sessionId);
    const metrics = await ctx.debugger.send(tabId, "Page.getLayoutMetrics");
    const view = metrics.cssVisualViewport ?? metrics.visualViewport;
    const aim = pressPoint(offsetQuads(quads, offset), { x: 0, y: 0, width: view.clientWidth, height: view.clientHeight });
    if ("reason" in aim) {
      throw new ActionError(ErrorCode.NOT_INTERACTABLE, aim.reason === "no_box"
        ? "the drop zone has no size on the page (hidden or empty); make it visible first"
        : "the drop zone is outside the viewport and could not be scrolled into it");
    }
    return aim.point;
  } catch (err) {
    throw err instanceof CdpError ? nodeError(err, "the drop zone") : err;
  }
}

/** In the page: a short handle for `this`. @this {any} */
function describeThis() {
  return describeElement(this);
}
definePageFunction(describeThis, { uses: [describeElement] });

export { upload as handler };
