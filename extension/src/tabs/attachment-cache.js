/**
 * Values worth computing once per debugger attachment of a tab (the top
 * frame id, the tab's input preparation): the promise is kept until the tab
 * detaches, and dropped if it fails so the next caller tries again.
 */

/**
 * @template T
 * @returns {(dbg: {isAttached: (tabId: number) => boolean, onDetach: (tabId: number, fn: () => void) => () => void},
 *   tabId: number, make: () => Promise<T>) => Promise<T>}
 */
export function perAttachment() {
  /** @type {Map<number, Promise<T>>} */
  const values = new Map();
  return (dbg, tabId, make) => {
    const known = values.get(tabId);
    if (known && dbg.isAttached(tabId)) return known;
    const pending = make();
    values.set(tabId, pending);
    const forget = () => {
      off();
      if (values.get(tabId) === pending) values.delete(tabId);
    };
    const off = dbg.onDetach(tabId, forget);
    pending.catch(forget);
    return pending;
  };
}
