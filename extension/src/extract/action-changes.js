/**
 * The change list an input action's result carries (click, type, press_key, fill), and a wait_for's: what
 * changed in the page since the task last saw it, so the model rarely needs to extract after acting.
 *
 * Computed only when the action's effects saw the DOM change in the same document (a wait_for that succeeded:
 * what it waited for is what changed), and only when the task has extracted this tab before (there is
 * something to compare with: snapshots.js). Listed in full when it is
 * small (CHANGES_BUDGET characters, serialised); then the snapshot moves on to the page as it is now. A larger
 * one is only counted, with the way to read it (extract {changes: true}), and the snapshot stays where it was.
 * The walk costs about one extract of the page (bench: `python -m bench click`); an action that worked is never
 * failed by it.
 */

import { DEFAULT_MAX_CHARS } from "./budget.js";
import { collectTab } from "./collect.js";
import { render } from "./extract-action.js";
import { diffSnapshots, ONLY_REPORTED } from "./diff.js";
import { previous, remember, snapshotOf } from "./snapshots.js";
import { topDocument } from "./uid-map.js";

/**
 * The key (a symbol: never serialised) under which an action's result lists the uids of the fields it set and
 * reported itself (fill's per-field results, type's typed_into): their value changes are not listed again.
 */
export const REPORTED_UIDS = Symbol("uids the result reports");

/** Largest change list (serialised) an action result carries. */
export const CHANGES_BUDGET = 2000;

/**
 * @typedef {import("../actions/support/context.js").ActionContext} ActionContext
 * @typedef {import("../actions/support/context.js").ActionType} ActionType
 * @typedef {"on_dom_change" | "on_success"} ChangeListWhen as the declaration says (ActionSpec.change_list)
 */

/**
 * The handler, with the change list added to its result when there is one to tell: `on_dom_change` — when its
 * effects saw the DOM change in the same document; `on_success` — whenever it succeeded (a wait: what it waited
 * for is what changed). `report_changes: false` (a tuning field outside the model-facing schema, for benchmarks)
 * leaves it out. actions/index.js wraps each handler whose declaration says so.
 * @template {ActionType} K
 * @param {import("../actions/support/context.js").Handler<K>} handler
 * @param {ChangeListWhen} when
 * @returns {import("../actions/support/context.js").Handler<K>}
 */
export function withChangeList(handler, when) {
  return async (action, ctx) => {
    /** @type {number | undefined} */
    let tabId;
    const result = await handler(action, { ...ctx, noteTab: (id) => {
      tabId = id;
      ctx.noteTab?.(id);
    } });
    if (action.report_changes === false || tabId === undefined) return result;
    if (when === "on_dom_change" && !changedInPlace(/** @type {{effects?: unknown}} */ (result))) return result;
    const reported = /** @type {{[REPORTED_UIDS]?: unknown}} */ (result)[REPORTED_UIDS];
    const changes = await changeList(ctx, tabId, new Set(Array.isArray(reported) ? reported : [])).catch(() => null);
    // Only the fields the result reports changed: the result says it, once (the snapshot moved on all the same).
    return changes && changes.summary !== ONLY_REPORTED ? { ...result, changes } : result;
  };
}

/**
 * Whether the effects saw the DOM change without a new document.
 * @param {{effects?: unknown}} result
 */
function changedInPlace(result) {
  const effects = /** @type {{dom_mutations?: number, navigated?: boolean, same_document?: boolean} | undefined} */ (result.effects);
  return !!effects && (effects.dom_mutations ?? 0) > 0 && !(effects.navigated && !effects.same_document);
}

/**
 * @param {ActionContext} ctx
 * @param {number} tabId
 * @param {ReadonlySet<string>} [reported] uids of the fields the action set and reported (REPORTED_UIDS)
 * @returns {Promise<import("./diff.js").ChangeList | {summary: string} | null>}
 */
export async function changeList(ctx, tabId, reported = new Set()) {
  const before = previous(ctx.taskId, tabId);
  if (!before) return null;
  const page = await collectTab(ctx.debugger, tabId, { limit: DEFAULT_MAX_CHARS, blocklist: ctx.blocklist });
  const now = snapshotOf(page, render(page), topDocument(tabId) ?? "");
  if (now.doc !== before.doc) return null;
  const list = diffSnapshots(before, now, undefined, { reported });
  if (!list) return { summary: "too many changes to list here: extract to read the page" };
  const size = JSON.stringify(list).length;
  if (size > CHANGES_BUDGET) {
    return { summary: `${list.summary} (${size} characters, too many to list here): extract {changes: true} to read them` };
  }
  remember(ctx.taskId, tabId, undefined, now);
  return list;
}
