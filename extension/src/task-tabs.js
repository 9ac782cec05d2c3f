/**
 * Each task's current tab (task_id -> tabId), kept in chrome.storage.session
 * so a restart of the service worker keeps it (a browser restart clears it,
 * as tab ids do not survive one either).
 */

export const STORAGE_KEY = "bua.taskTabs";

export class TaskTabs {
  #storage;
  /** @type {Promise<Record<string, number>> | null} */
  #loaded = null;
  /** @type {Promise<unknown>} serialises writes */
  #writes = Promise.resolve();

  /** @param {any} storageArea chrome.storage.session */
  constructor(storageArea) {
    this.#storage = storageArea;
  }

  /**
   * @param {string} taskId
   * @returns {Promise<number | undefined>}
   */
  async get(taskId) {
    const map = await this.#map();
    return map[taskId];
  }

  /**
   * @param {string} taskId
   * @param {number} tabId
   */
  async set(taskId, tabId) {
    await this.#update((map) => {
      if (map[taskId] === tabId) return false;
      map[taskId] = tabId;
      return true;
    });
  }

  /**
   * Forget a closed tab for every task that had it.
   * @param {number} tabId
   */
  async forgetTab(tabId) {
    await this.#update((map) => {
      let changed = false;
      for (const [taskId, id] of Object.entries(map)) {
        if (id === tabId) {
          delete map[taskId];
          changed = true;
        }
      }
      return changed;
    });
  }

  /** @param {string} taskId */
  async forgetTask(taskId) {
    await this.#update((map) => {
      if (!(taskId in map)) return false;
      delete map[taskId];
      return true;
    });
  }

  /** @returns {Promise<Record<string, number>>} */
  #map() {
    if (this.#loaded) return this.#loaded;
    /** @type {Promise<Record<string, number>>} */
    const loading = this.#storage.get(STORAGE_KEY).then(
      (/** @type {Record<string, any>} */ items) => ({ ...(items?.[STORAGE_KEY] ?? {}) }),
    );
    loading.catch(() => {
      if (this.#loaded === loading) this.#loaded = null;
    });
    this.#loaded = loading;
    return loading;
  }

  /** @param {(map: Record<string, number>) => boolean} mutate returns whether it changed the map */
  #update(mutate) {
    const run = this.#writes.then(async () => {
      const map = await this.#map();
      if (mutate(map)) await this.#storage.set({ [STORAGE_KEY]: { ...map } });
    });
    this.#writes = run.catch(() => {});
    return run;
  }
}
