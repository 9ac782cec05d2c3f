/**
 * The `hello` event data: who this extension is, in which browser and
 * profile, and the blocklist it holds. The profile id is random, made once
 * and kept in chrome.storage.local, so the app can tell connected profiles
 * apart.
 */

import { STORAGE_KEY as BLOCKLIST_KEY } from "../sessions/blocklist.js";

export const PROFILE_ID_KEY = "bua.profileId";

const GREASE_BRAND = /not.?a.?brand/i;

/** @type {WeakMap<object, Promise<string>>} one lookup per storage area, so concurrent callers agree */
const profileIds = new WeakMap();

/**
 * @param {any} storageLocal chrome.storage.local
 * @returns {Promise<string>}
 */
export function profileId(storageLocal) {
  let pending = profileIds.get(storageLocal);
  if (!pending) {
    pending = loadOrCreateProfileId(storageLocal);
    profileIds.set(storageLocal, pending);
    pending.catch(() => profileIds.delete(storageLocal));
  }
  return pending;
}

/** @param {any} storageLocal */
async function loadOrCreateProfileId(storageLocal) {
  const items = await storageLocal.get(PROFILE_ID_KEY);
  const existing = items?.[PROFILE_ID_KEY];
  if (typeof existing === "string" && existing) return existing;
  const id = crypto.randomUUID();
  await storageLocal.set({ [PROFILE_ID_KEY]: id });
  return id;
}

/**
 * Brand and full version, e.g. "Google Chrome 138.0.7204.157": from
 * navigator.userAgentData when the browser has it, else from the UA string.
 * @param {any} nav navigator
 * @returns {Promise<string>}
 */
export async function browserName(nav) {
  const uaData = nav?.userAgentData;
  if (uaData) {
    let brands = uaData.brands ?? [];
    try {
      const high = await uaData.getHighEntropyValues(["fullVersionList"]);
      if (high?.fullVersionList?.length) brands = high.fullVersionList;
    } catch {
      // low-entropy brands are enough
    }
    const real = brands.filter((/** @type {any} */ b) => !GREASE_BRAND.test(b.brand));
    const pick = real.find((/** @type {any} */ b) => b.brand !== "Chromium") ?? real[0];
    if (pick) return `${pick.brand} ${pick.version}`;
  }
  const ua = String(nav?.userAgent ?? "");
  const edge = /Edg\/([\d.]+)/.exec(ua);
  if (edge) return `Microsoft Edge ${edge[1]}`;
  const chrome = /(Chromium|Chrome)\/([\d.]+)/.exec(ua);
  if (chrome) return `${chrome[1]} ${chrome[2]}`;
  return ua || "unknown";
}

/**
 * The extension's own copy of the blocklist, as stored: the app restores its
 * store from it after the store had to be replaced.
 * @param {any} storageLocal chrome.storage.local
 * @returns {Promise<string[]>}
 */
export async function storedBlocklist(storageLocal) {
  const items = await storageLocal.get(BLOCKLIST_KEY);
  const stored = items?.[BLOCKLIST_KEY];
  return Array.isArray(stored) ? stored.filter((p) => typeof p === "string") : [];
}

/**
 * @param {object} deps
 * @param {any} deps.runtime chrome.runtime
 * @param {any} deps.storageLocal chrome.storage.local
 * @param {any} deps.navigator
 * @returns {Promise<{extension_version: string, browser: string, profile_id: string, user_agent: string, blocklist: string[]}>}
 */
export async function helloData({ runtime, storageLocal, navigator }) {
  const [browser, profile, blocklist] = await Promise.all([
    browserName(navigator),
    profileId(storageLocal),
    storedBlocklist(storageLocal),
  ]);
  return {
    extension_version: runtime.getManifest().version,
    browser,
    profile_id: profile,
    user_agent: String(navigator?.userAgent ?? ""),
    blocklist,
  };
}
