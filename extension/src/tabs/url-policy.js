/**
 * Which URLs an action may open: http(s) with a host, and about:blank.
 * Everything else (javascript:, file:, data:, blob:, chrome:, extension
 * pages, view-source:, other about: pages) is `forbidden_url`.
 */

import { ActionError, ErrorCode } from "../protocol.js";

const ALLOWED_PROTOCOLS = new Set(["http:", "https:"]);

/**
 * @param {unknown} url
 * @returns {string} the URL, unchanged
 * @throws {ActionError} invalid_action (not a URL) or forbidden_url
 */
export function checkNavigableUrl(url) {
  if (typeof url !== "string" || url.length === 0) {
    throw new ActionError(ErrorCode.INVALID_ACTION, "'url' must be a non-empty string");
  }
  if (url === "about:blank") return url;
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new ActionError(
      ErrorCode.INVALID_ACTION,
      `'${url.slice(0, 200)}' is not an absolute URL; give a full http(s) URL such as https://example.com/`,
    );
  }
  if (!ALLOWED_PROTOCOLS.has(parsed.protocol)) {
    throw new ActionError(
      ErrorCode.FORBIDDEN_URL,
      `only http(s) URLs (or about:blank) may be opened, got a '${parsed.protocol}' URL; use an http(s) URL`,
    );
  }
  if (!parsed.hostname) {
    throw new ActionError(ErrorCode.INVALID_ACTION, `URL has no host: ${url.slice(0, 200)}`);
  }
  return url;
}
