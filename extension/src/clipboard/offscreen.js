/**
 * The offscreen document that reads the clipboard for the service worker (clipboard-reader.js), which has no
 * DOM: a paste into its own textarea (the `clipboardRead` permission lets an extension page paste) is what the
 * clipboard holds as plain text, whoever wrote it.
 */

import { READ_CLIPBOARD } from "./clipboard-message.js";

/**
 * Answer the service worker's READ_CLIPBOARD with the clipboard's plain text.
 * @param {any} message
 * @param {unknown} _sender
 * @param {(answer: {ok: boolean, text: string}) => void} reply
 */
function answer(message, _sender, reply) {
  if (message?.type !== READ_CLIPBOARD) return false;
  const area = /** @type {HTMLTextAreaElement} */ (document.getElementById("paste"));
  area.value = "";
  area.focus();
  const pasted = document.execCommand("paste");
  reply({ ok: pasted, text: pasted ? area.value : "" });
  area.value = "";
  return false;
}

// Only in the offscreen document itself (node tests import every module).
if (typeof document !== "undefined" && globalThis.chrome?.runtime?.onMessage) chrome.runtime.onMessage.addListener(answer);
