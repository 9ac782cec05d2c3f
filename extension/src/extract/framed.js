/**
 * The `frames` part of a result (app/protocol/actions/shapes.py Part.FRAMED): which of its lines of page text a
 * frame of another origin than the page's shows, by that frame's origin, so the app's data-flow memory remembers
 * them under the frame's site and not the page's (pure; runs under node). Each line is given exactly as the
 * result says it: the app takes those lines out of the page's own text (app/safety/flow_check.py own_text).
 * frame-origin.js tells which frame a targeted element stands in.
 */

/**
 * @typedef {{url: string, text: string}} Framed
 * @typedef {{text: string, frame?: string}} Said a line of the result, and the origin of the frame that shows
 *   what it quotes (undefined: the page's own)
 */

/**
 * The lines frames of other origins show, one entry per origin, in the order the result says them.
 * @param {Said[]} lines
 * @returns {Framed[]}
 */
export function framedLines(lines) {
  /** @type {Map<string, string[]>} */
  const by = new Map();
  for (const { text, frame } of lines) {
    if (!frame) continue;
    const list = by.get(frame) ?? [];
    list.push(text);
    by.set(frame, list);
  }
  return [...by].map(([url, texts]) => ({ url, text: texts.join("\n") }));
}

/**
 * Which frame shows each line of a snapshot (diff.js), by the line's text: a text that the page and a frame, or
 * two frames, both show is none's alone, and stays the page's (remembered under the page's site, so sending it on
 * is asked about rather than let go).
 * @param {{text: string, frame?: string}[]} lines
 * @returns {Map<string, string>}
 */
export function framesByText(lines) {
  /** @type {Map<string, string | null>} */
  const seen = new Map();
  for (const { text, frame } of lines) {
    const was = seen.get(text);
    seen.set(text, was === undefined ? frame ?? null : was === (frame ?? null) ? was : null);
  }
  /** @type {Map<string, string>} */
  const out = new Map();
  for (const [text, frame] of seen) if (frame) out.set(text, frame);
  return out;
}

/**
 * What one frame of another origin shows, as a result's `frames` part: each text's lines ({} when the page shows
 * them, `origin` undefined).
 * @param {string | undefined} origin
 * @param {string[]} texts
 * @returns {{frames?: Framed[]}}
 */
export function shownBy(origin, texts) {
  return shownByEach(texts.map((text) => ({ text, frame: origin })));
}

/**
 * What frames of other origins show of a result's texts, each text with the origin of the frame that shows it
 * (undefined: the page's), as a result's `frames` part ({} when none is a frame's): a drag's two ends, which
 * may stand in two documents.
 * @param {Said[]} texts
 * @returns {{frames?: Framed[]}}
 */
export function shownByEach(texts) {
  const frames = framedLines(texts.filter((t) => t.text).flatMap(({ text, frame }) => text.split("\n").map((line) => ({ text: line, frame }))));
  return frames.length ? { frames } : {};
}

/**
 * What a document at `url` shows of `texts`, as a result's `frames` part, when that document is a frame of
 * another origin than the tab's page (`pageUrl`): a held action's quote of the control it would press
 * (safety/confirmations.js), read in the control's own document.
 * @param {string} url
 * @param {string} pageUrl
 * @param {string[]} texts
 */
export const shownAt = (url, pageUrl, texts) => shownBy(otherOrigin(url, pageUrl), texts);

/**
 * A frame's URL without path and query (an ad frame's query runs to hundreds of characters; page-reading.js does
 * the same for the frames the walker notes).
 * @param {string} url
 */
export const originOf = (url) => {
  try {
    const u = new URL(url);
    return u.origin === "null" ? u.protocol : u.origin;
  } catch {
    return "";
  }
};

/**
 * A frame's web origin when it is another than its parent's (`parentUrl`), else undefined.
 * @param {string} url
 * @param {string | undefined} parentUrl
 */
export const otherOrigin = (url, parentUrl) => {
  const origin = originOf(url);
  return origin !== originOf(parentUrl ?? "") && /^https?:/.test(origin) ? origin : undefined;
};
