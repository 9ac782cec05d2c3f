/**
 * Looking tabs up by id, with the protocol's tab_not_found error.
 */

import { ActionError, ErrorCode } from "../protocol.js";

/**
 * @param {any} tabsApi chrome.tabs
 * @param {number} tabId
 * @returns {Promise<any>} the chrome.tabs.Tab
 * @throws {ActionError} tab_not_found
 */
export async function requireTab(tabsApi, tabId) {
  const tab = await findTab(tabsApi, tabId);
  if (!tab) throw new ActionError(ErrorCode.TAB_NOT_FOUND, `tab ${tabId} does not exist; call get_tabs`);
  return tab;
}

/**
 * @param {any} tabsApi chrome.tabs
 * @param {number} tabId
 * @returns {Promise<any | null>} the chrome.tabs.Tab, or null when there is no such tab
 */
export async function findTab(tabsApi, tabId) {
  try {
    return (await tabsApi.get(tabId)) ?? null;
  } catch {
    return null;
  }
}

/**
 * The optional `tab_id` field of an action.
 * @param {unknown} value
 * @returns {number | null}
 * @throws {ActionError} invalid_action
 */
export function optionalTabId(value) {
  if (value === undefined || value === null) return null;
  if (!Number.isSafeInteger(value) || /** @type {number} */ (value) < 0) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "'tab_id' must be a non-negative integer from get_tabs");
  }
  return /** @type {number} */ (value);
}
