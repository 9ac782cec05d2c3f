/**
 * The model-facing uids of one tab: uid ⇄ (session, document token, in-page id).
 *
 * Numbers are never reused on a tab while the worker lives: after a
 * navigation the map is cleared but the counter goes on, so a uid from before
 * it can be told apart (element_stale) from one that was never issued
 * (element_not_found), and can never hit an element of the new page.
 */

/**
 * @typedef {object} UidEntry
 * @property {string} uid
 * @property {string | undefined} sessionId CDP child session (undefined = the tab's own)
 * @property {string} frameId the session's main frame, whose bua world holds the id
 * @property {string} doc the document token of that world
 * @property {number} id the in-page element id
 * @property {string} role
 * @property {string} name
 * @property {string} [context]
 */

const MAX_RETIRED = 5000;

/** @type {Map<number, {byUid: Map<string, UidEntry>, byKey: Map<string, string>}>} */
const maps = new Map();
/** @type {Map<number, number>} next uid number per tab */
const counters = new Map();
/**
 * @typedef {{role: string | null, name: string | null, why: "navigated" | "removed", sessionId?: string, frameId?: string}} Former
 * @type {Map<number, Map<string, Former>>} uids no longer in the map, and why
 */
const retired = new Map();

/**
 * @param {number} tabId
 * @param {UidEntry} entry
 * @param {Former["why"]} why
 */
function retire(tabId, entry, why) {
  let old = retired.get(tabId);
  if (!old) retired.set(tabId, (old = new Map()));
  old.delete(entry.uid);
  old.set(entry.uid, { role: entry.role, name: entry.name, why, sessionId: entry.sessionId, frameId: entry.frameId });
  if (old.size > MAX_RETIRED) old.delete(/** @type {string} */ (old.keys().next().value));
}

/** @type {Map<number, string>} token of the top document last walked, per tab */
const topDocs = new Map();

/**
 * Note the tab's current top document; a different one than last time means
 * the tab navigated (even if no Page.frameNavigated was seen): clear the map.
 * @param {number} tabId
 * @param {string} doc
 */
export function observeTopDocument(tabId, doc) {
  const before = topDocs.get(tabId);
  if (before !== undefined && before !== doc) clearTab(tabId);
  topDocs.set(tabId, doc);
}

/**
 * The token of the tab's top document as last walked (undefined before the first walk).
 * @param {number} tabId
 */
export const topDocument = (tabId) => topDocs.get(tabId);

/** @param {number} tabId */
function mapOf(tabId) {
  let map = maps.get(tabId);
  if (!map) maps.set(tabId, (map = { byUid: new Map(), byKey: new Map() }));
  return map;
}

/** @param {{sessionId?: string, doc: string, id: number}} e */
const keyOf = (e) => `${e.sessionId ?? ""}|${e.doc}|${e.id}`;

/**
 * The uid of an element, issuing one the first time it is seen.
 * @param {number} tabId
 * @param {Omit<UidEntry, "uid">} element
 * @returns {string}
 */
export function uidFor(tabId, element) {
  const map = mapOf(tabId);
  const key = keyOf(element);
  let uid = map.byKey.get(key);
  if (!uid) {
    const n = counters.get(tabId) ?? 1;
    counters.set(tabId, n + 1);
    uid = `e${n}`;
    map.byKey.set(key, uid);
  }
  map.byUid.set(uid, { ...element, uid });
  return uid;
}

/**
 * The uid already issued for an element, without issuing one.
 * @param {number} tabId
 * @param {{sessionId?: string, doc: string, id: number}} element
 * @returns {string | undefined}
 */
export function issuedUid(tabId, element) {
  return maps.get(tabId)?.byKey.get(keyOf(element));
}

/**
 * @param {number} tabId
 * @param {string} uid
 * @returns {UidEntry | undefined}
 */
export function entryOf(tabId, uid) {
  return maps.get(tabId)?.byUid.get(uid);
}

/**
 * What a uid that is no longer in the map was, or null when this tab never
 * issued it.
 * @param {number} tabId
 * @param {string} uid
 * @returns {Former | null}
 */
export function formerUid(tabId, uid) {
  const known = retired.get(tabId)?.get(uid);
  if (known) return known;
  const n = Number(uid.slice(1));
  return Number.isSafeInteger(n) && n > 0 && n < (counters.get(tabId) ?? 1) ? { role: null, name: null, why: "navigated" } : null;
}

/**
 * Forget a uid whose element is gone (later uses stay element_stale).
 * @param {number} tabId
 * @param {string} uid
 * @param {Former["why"]} why
 */
export function dropUid(tabId, uid, why) {
  const map = maps.get(tabId);
  const entry = map?.byUid.get(uid);
  if (!map || !entry) return;
  map.byUid.delete(uid);
  map.byKey.delete(keyOf(entry));
  retire(tabId, entry, why);
}

/**
 * Forget a tab's uid map (main-frame navigation, tab closed). Later uses of
 * its uids are element_stale; numbering continues.
 * @param {number} tabId
 */
export function clearTab(tabId) {
  const map = maps.get(tabId);
  if (!map) return;
  maps.delete(tabId);
  for (const entry of map.byUid.values()) retire(tabId, entry, "navigated");
}
