/**
 * What a task typed into a password field (actions/support/text-entry.js tells): such a value is a credential
 * wherever it goes, whatever the request names its field (`{"p": …}`, a query, a header-like body), so a request
 * that carries it is held with the credential reason (network-judge.js localReasons, network-tab-hold.js).
 *
 * Kept in the worker's memory only, never stored nor sent to the app; a few per task, for the most recent tasks.
 */

/** Shorter values are no evidence (a PIN of 3 digits is in every other number). */
const MIN_SECRET_CHARS = 4;
const MAX_PER_TASK = 16;
const MAX_TASKS = 32;

/** @type {Map<string, string[]>} by task, oldest task first */
const byTask = new Map();

/**
 * A value the task typed into a password field.
 * @param {string} taskId
 * @param {string} value
 */
export function noteSecret(taskId, value) {
  if (value.length < MIN_SECRET_CHARS) return;
  const list = (byTask.get(taskId) ?? []).filter((v) => v !== value);
  list.push(value);
  byTask.delete(taskId);
  byTask.set(taskId, list.slice(-MAX_PER_TASK));
  for (const oldest of byTask.keys()) {
    if (byTask.size <= MAX_TASKS) break;
    byTask.delete(oldest);
  }
}

/**
 * The task's typed secrets, each with the forms a request may carry it in (as typed, percent-encoded, base64).
 * @param {string} taskId
 * @returns {string[]}
 */
export function secretForms(taskId) {
  const forms = [];
  for (const value of byTask.get(taskId) ?? []) {
    forms.push(value, encodeURIComponent(value));
    try {
      forms.push(btoa(value).replace(/=+$/, ""));
    } catch {
      // not Latin-1: no base64 form of its own
    }
  }
  return [...new Set(forms)];
}

/**
 * Whether any of `texts` holds one of `forms` (secretForms).
 * @param {string[]} forms
 * @param {string[]} texts
 */
export function carriesSecret(forms, texts) {
  return forms.length > 0 && texts.some((text) => forms.some((form) => text.includes(form)));
}
