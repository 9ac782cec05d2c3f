/**
 * extract {tab_id?, selector?, max_chars?, changes?} → the page as the model reads it (extract/extract-action.js
 * `present` says what each field is), or with `changes: true` what changed since the task's previous extract of
 * the tab (`changesSince`).
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { taskTab } from "../targets/action-target.js";
import { DEFAULT_MAX_CHARS } from "../extract/budget.js";
import { collectTab } from "../extract/collect.js";
import { changesSince, present, render } from "../extract/extract-action.js";
import { previous, remember, snapshotOf } from "../extract/snapshots.js";
import { watchTab } from "../extract/tab-watch.js";
import { topDocument } from "../extract/uid-map.js";

/**
 * @param {import("./support/context.js").ActionOf<"extract">} action
 * @param {import("./support/context.js").ActionContext} ctx
 * @returns {Promise<import("./support/context.js").ResultOf<"extract">>}
 */
export async function extract(action, ctx) {
  const maxChars = action.max_chars ?? DEFAULT_MAX_CHARS;
  const selector = action.selector;
  const tabId = await taskTab(action, ctx);
  watchTab(ctx.debugger, tabId);
  const page = await collectTab(ctx.debugger, tabId, { limit: maxChars, selector, blocklist: ctx.blocklist });
  if (page.notFound) {
    throw new ActionError(ErrorCode.ELEMENT_NOT_FOUND,
      `no element matches selector ${JSON.stringify(selector)}; call extract without a selector to see the whole page`,
      { candidates: [] });
  }
  const rendered = render(page);
  const now = snapshotOf(page, rendered, topDocument(tabId) ?? "");
  const before = previous(ctx.taskId, tabId, selector);
  remember(ctx.taskId, tabId, selector, now);
  const full = present(page, maxChars, rendered);
  return action.changes === true ? changesSince(before, now, full, maxChars) : full;
}

export { extract as handler };
