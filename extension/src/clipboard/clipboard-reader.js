/**
 * What the clipboard holds now, as plain text (README "Safety model": a paste types what was copied, wherever it
 * was copied from: bua's own copy chord, the page's own Copy button through navigator.clipboard or
 * execCommand("copy"), or the person). The service worker has no DOM, so an offscreen document
 * (offscreen.html, reason CLIPBOARD) pastes into its own textarea; it is created on the first read and kept.
 */

import { READ_CLIPBOARD } from "./clipboard-message.js";

const DOCUMENT = "src/clipboard/offscreen.html";

/** @type {Promise<void> | null} */
let creating = null;

async function ensureDocument() {
  const url = chrome.runtime.getURL(DOCUMENT);
  const open = await chrome.runtime.getContexts?.({ contextTypes: ["OFFSCREEN_DOCUMENT"], documentUrls: [url] });
  if (open?.length) return;
  creating ??= chrome.offscreen.createDocument({ url: DOCUMENT, reasons: ["CLIPBOARD"],
    justification: "read what a paste would type, to check it against the task's data-flow memory" })
    .finally(() => { creating = null; });
  await creating;
}

/**
 * The clipboard's plain text; "" when it holds none or cannot be read.
 * @returns {Promise<string>}
 */
export async function readClipboard() {
  await ensureDocument();
  const answer = await chrome.runtime.sendMessage({ type: READ_CLIPBOARD });
  return answer?.ok && typeof answer.text === "string" ? answer.text : "";
}
