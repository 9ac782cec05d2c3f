/**
 * The one map from action type to handler. Every type declared in the Python declarations
 * (app/protocol/actions/, generated into ../generated/protocol.js) has exactly one entry here; a node test fails
 * when one is missing or extra. click, type, fill, press_key and wait_for results carry the change list of the page
 * when it is small (extract/action-changes.js).
 */

import { navigate } from "./navigate.js";
import { history } from "./history.js";
import { getTabs } from "./tabs.js";
import { extract } from "../extract/extract-action.js";
import { find } from "./find.js";
import { click, hover } from "./pointer.js";
import { drag } from "./drag.js";
import { selectText } from "./select-text.js";
import { typeText } from "./type.js";
import { fillForm } from "./fill.js";
import { upload } from "./upload.js";
import { pressKeyAction } from "./press-key.js";
import { scroll } from "./scroll.js";
import { screenshot } from "./screenshot.js";
import { waitFor } from "./wait-for.js";
import { evaluate } from "./evaluate.js";
import { pageLog } from "./page-log.js";
import { listDownloads, readDownload } from "./downloads.js";
import { closeTab, openTab } from "./open-tab.js";
import { withChangeList } from "../extract/action-changes.js";

/** @type {Readonly<Record<string, import("../wire/action-dispatcher.js").ActionHandler>>} */
export const HANDLERS = Object.freeze({
  navigate,
  history,
  extract,
  find,
  click: withChangeList(click),
  type: withChangeList(typeText),
  fill: withChangeList(fillForm),
  upload,
  press_key: withChangeList(pressKeyAction),
  scroll,
  hover,
  drag,
  select_text: selectText,
  wait_for: withChangeList(waitFor, { waits: true }),
  screenshot,
  evaluate,
  page_log: pageLog,
  downloads: listDownloads,
  read_download: readDownload,
  get_tabs: getTabs,
  open_tab: openTab,
  close_tab: closeTab,
});
