/**
 * Strict mode ("ask before acting"): the person's choice, for every site or for some, that bua asks before any
 * request an action makes that can change something (safety/network-hold.js), not only the sensitive ones.
 *
 * The app's store is the source of truth and pushes it with the `set_strict_mode` control at connect and on
 * every change; it is kept in chrome.storage.local so it still holds while the app is not connected. Sites
 * match as blocklist entries do (sessions/blocklist.js): `shop.example` is that host and its subdomains.
 */

import { ActionError, ErrorCode } from "../protocol.js";
import { blockedBy } from "../sessions/blocklist.js";

export const STORAGE_KEY = "bua.strict_mode";

/** @typedef {{all: boolean, sites: string[]}} StrictMode */

/** @type {StrictMode} */
export const STRICT_OFF = Object.freeze({ all: false, sites: [] });

/**
 * Whether strict mode covers a request: for all sites, or for the site of the page acting or of the destination.
 * @param {StrictMode} mode
 * @param {string} requestUrl
 * @param {string} pageUrl
 */
export function strictFor(mode, requestUrl, pageUrl) {
  if (mode.all) return true;
  if (mode.sites.length === 0) return false;
  return blockedBy(mode.sites, requestUrl) !== null || (pageUrl !== "" && blockedBy(mode.sites, pageUrl) !== null);
}

/**
 * A strict-mode setting from the app, checked.
 * @param {Record<string, unknown>} args
 * @returns {StrictMode}
 */
export function parseStrictMode(args) {
  const sites = args.sites ?? [];
  if (typeof args.all !== "boolean" || !Array.isArray(sites) || !sites.every((s) => typeof s === "string" && s.trim())) {
    throw new ActionError(ErrorCode.INVALID_ACTION,
      "set_strict_mode needs 'all' (true: ask before every changing request on every site) and 'sites' " +
      "(a list of domains such as 'shop.example'; may be empty)");
  }
  return { all: args.all, sites: sites.map((s) => String(s).trim().toLowerCase()) };
}

export class StrictSetting {
  #storage;
  /** @type {StrictMode} */
  #mode = STRICT_OFF;
  #loaded;

  /** @param {any} storageLocal chrome.storage.local */
  constructor(storageLocal) {
    this.#storage = storageLocal;
    this.#loaded = Promise.resolve(storageLocal.get(STORAGE_KEY)).then((/** @type {any} */ got) => {
      try {
        if (got?.[STORAGE_KEY]) this.#mode = parseStrictMode(got[STORAGE_KEY]);
      } catch {
        // a stored value from another version: off until the app pushes its own
      }
    }).catch(() => {});
  }

  /** @returns {Promise<StrictMode>} */
  async get() {
    await this.#loaded;
    return this.#mode;
  }

  /** @param {Record<string, unknown>} args */
  async set(args) {
    await this.#loaded;
    this.#mode = parseStrictMode(args);
    await this.#storage.set({ [STORAGE_KEY]: this.#mode });
    return { ...this.#mode };
  }
}
