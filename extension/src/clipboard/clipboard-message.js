/** The message the service worker sends the offscreen document (offscreen.js) to read the clipboard. */
export const READ_CLIPBOARD = "bua-read-clipboard";
