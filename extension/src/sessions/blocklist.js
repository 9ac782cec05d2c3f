/**
 * Blocklist matching, the same rule as the app's app/store/blocklist.py
 * (shared test vectors in test/fixtures/blocklist-cases.json):
 * `bank.example` blocks that host and every subdomain; `*.bank.example`
 * blocks only the subdomains.
 *
 * The list is kept in chrome.storage.local so it is enforced even while the
 * app is not connected; the app's store is the source of truth and pushes it
 * with the `set_blocklist` control.
 */

export const STORAGE_KEY = "bua.blocklist";

/**
 * @param {string} pattern
 * @param {string} host
 */
export function matches(pattern, host) {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (pattern.startsWith("*.")) return h.endsWith(pattern.slice(1));
  return h === pattern || h.endsWith(`.${pattern}`);
}

/**
 * @param {readonly string[]} patterns
 * @param {string} url
 * @returns {string | null} the first pattern that blocks this URL's host
 */
export function blockedBy(patterns, url) {
  let host;
  try {
    host = new URL(url).hostname;
  } catch {
    return null;
  }
  return patterns.find((p) => matches(p, host)) ?? null;
}

export class Blocklist {
  #storage;
  /** @type {string[]} */
  #patterns = [];
  #loaded;

  /** @param {any} storageLocal chrome.storage.local */
  constructor(storageLocal) {
    this.#storage = storageLocal;
    this.#loaded = storageLocal.get(STORAGE_KEY).then((/** @type {any} */ got) => {
      const stored = got?.[STORAGE_KEY];
      if (Array.isArray(stored)) this.#patterns = stored.filter((p) => typeof p === "string");
    });
  }

  async patterns() {
    await this.#loaded;
    return [...this.#patterns];
  }

  /** @param {string[]} patterns */
  async replace(patterns) {
    await this.#loaded;
    this.#patterns = patterns.map((p) => String(p).toLowerCase());
    await this.#storage.set({ [STORAGE_KEY]: this.#patterns });
  }

  /** @param {string} url */
  async check(url) {
    await this.#loaded;
    return blockedBy(this.#patterns, url);
  }
}
