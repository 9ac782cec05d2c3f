/**
 * The one map from action type to handler. Each action declared in the Python declarations
 * (app/protocol/actions/, generated into ../generated/) has its handler in the module named after it
 * (`press_key` → ./press-key.js; shared helpers live in ./support/), listed here once; the type check refuses a
 * missing or extra entry and a handler whose action or result is not its declaration's
 * (../generated/protocol-types.d.ts), and a node test (test/handlers.test.js) refuses a module that is not named
 * after a declared action. How a handler is wrapped comes from its declaration (ACTIONS[type].change_list:
 * extract/action-changes.js), never from this file.
 */

import { ACTIONS } from "../protocol.js";
import { withChangeList } from "../extract/action-changes.js";
import { navigate } from "./navigate.js";
import { history } from "./history.js";
import { extract } from "./extract.js";
import { find } from "./find.js";
import { click } from "./click.js";
import { typeText } from "./type.js";
import { fillForm } from "./fill.js";
import { upload } from "./upload.js";
import { pressKeyAction } from "./press-key.js";
import { scroll } from "./scroll.js";
import { hover } from "./hover.js";
import { drag } from "./drag.js";
import { selectText } from "./select-text.js";
import { waitFor } from "./wait-for.js";
import { screenshot } from "./screenshot.js";
import { pageLog } from "./page-log.js";
import { listDownloads } from "./downloads.js";
import { readDownload } from "./read-download.js";
import { evaluate } from "./evaluate.js";
import { getTabs } from "./get-tabs.js";
import { openTab } from "./open-tab.js";
import { closeTab } from "./close-tab.js";

/**
 * @typedef {import("./support/context.js").HandlerMap} HandlerMap
 * @typedef {import("./support/context.js").ActionType} ActionType
 */

/**
 * Each action's own handler, as its module exports it.
 * @type {Readonly<HandlerMap>}
 */
export const ACTION_HANDLERS = Object.freeze({
  navigate,
  history,
  extract,
  find,
  click,
  type: typeText,
  fill: fillForm,
  upload,
  press_key: pressKeyAction,
  scroll,
  hover,
  drag,
  select_text: selectText,
  wait_for: waitFor,
  screenshot,
  page_log: pageLog,
  downloads: listDownloads,
  read_download: readDownload,
  evaluate,
  get_tabs: getTabs,
  open_tab: openTab,
  close_tab: closeTab,
});

/**
 * The handlers the dispatcher runs: each wrapped as its declaration says.
 * @type {Readonly<HandlerMap>}
 */
export const HANDLERS = Object.freeze(declared(ACTION_HANDLERS));

/**
 * @param {HandlerMap} handlers
 * @returns {HandlerMap}
 */
function declared(handlers) {
  const out = /** @type {Record<string, unknown>} */ ({});
  for (const type of /** @type {ActionType[]} */ (Object.keys(handlers))) {
    const when = ACTIONS[type]?.change_list;
    out[type] = when ? withChangeList(handlers[type], when) : handlers[type];
  }
  return /** @type {HandlerMap} */ (out);
}
