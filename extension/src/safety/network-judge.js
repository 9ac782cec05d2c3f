/**
 * What a request the page is about to send says about itself (pure): whether it can change something, and what
 * the extension can tell on its own of why the person should see it first — card data, credentials, an endpoint
 * that pays, orders, deletes, sends, transfers or changes an account, or strict mode. What only the app knows
 * (data another site showed the task) is judged there (app/safety/network_holds.py).
 *
 * The endpoint words (network-words.js, in every language the label check reads, from
 * app/protocol/safety/sensitive-words.json) are matched on the URL's path segments and query names, the body's
 * field names and its operation names, split into words (`/api/v2/placeOrder`, `cart_checkout`,
 * `{"deleteItem": …}`, `/de/zahlungsabwicklung`), never on values: a search for "pay slips" is data, not an
 * endpoint.
 */

import { endpointKinds } from "./network-words.js";
import { hasCardNumber } from "./card-fields.js";
import { carriesSecret } from "./network-secrets.js";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** The most of a body that is judged, here and by the app's data-flow check: a body past it is held, since
 *  padding must not hide what follows it (native messaging takes up to 64 MiB from the extension). */
export const MAX_BODY_CHARS = 1024 * 1024;

/** Field names that hold a card's number, expiry or security code. */
const CARD_FIELD = /^(cc|card|pan|cvc|cvv|cvv2|csc|cid|securitycode|exp|expiry|expiration|expdate|ccexp|cardnumber|ccnumber|cardno)$/;
/** A word of a field name that is a credential's (`pass`, `user_pw`, `loginPwd`, `otp_code`; not `token`: nearly
 *  every form carries a CSRF token). */
const CREDENTIAL_WORD = /^(?:pass(?:word|wd|phrase|code)?s?|pw|pwd|pswd|passwd|secret|otp|totp|hotp|mfa|pin|credentials?)$/;
/** A part of a field name, however it is joined (`newpassword`, `clientsecret`, `loginpwd`), that is a credential's. */
const CREDENTIAL_PART = /pass(?:word|wd|phrase|code)|secret|credential|apikey|privatekey|accesskey|(?:pwd|pw)$/;
/** Body fields whose value names the operation (`{"action": "delete_item"}`, GraphQL's `operationName`). */
const OPERATION_FIELD = /^(action|op|operation|operationname|method|intent|command|cmd|mutation)$/;

/**
 * @typedef {{method: string, url: string, resourceType: string, formSubmission?: boolean, body?: string,
 *   unjudged?: string}} Outgoing `unjudged`: why its body cannot be judged whole (bodyUnjudged)
 */

/**
 * Whether the request can change something: any method but GET, HEAD and OPTIONS, a beacon, a form submission.
 * @param {Outgoing} request
 */
export function mayChange(request) {
  return !SAFE_METHODS.has(request.method.toUpperCase()) || request.resourceType === "Ping" || request.formSubmission === true;
}

/**
 * The request body as text (Fetch.requestPaused's `postData`, or its `postDataEntries` of base64 bytes), cut one
 * character past MAX_BODY_CHARS (so that a longer one is told apart: bodyUnjudged).
 * @param {{postData?: string, postDataEntries?: {bytes?: string}[]}} request
 */
export function bodyText(request) {
  const limit = MAX_BODY_CHARS + 1;
  if (typeof request.postData === "string") return request.postData.slice(0, limit);
  const entries = Array.isArray(request.postDataEntries) ? request.postDataEntries : [];
  let text = "";
  for (const entry of entries) {
    if (typeof entry?.bytes !== "string") continue;
    try {
      text += new TextDecoder().decode(Uint8Array.from(atob(entry.bytes), (c) => c.charCodeAt(0)));
    } catch {
      // not base64: skipped
    }
    if (text.length >= limit) break;
  }
  return text.slice(0, limit);
}

/**
 * Why a request's body cannot be judged whole ("" when it can): longer than MAX_BODY_CHARS, or a body Chromium did
 * not give (`hasPostData` with no data: a blob, a file, a stream).
 * @param {{hasPostData?: boolean, postData?: string, postDataEntries?: {bytes?: string}[]}} request
 * @param {string} text its bodyText
 */
export function bodyUnjudged(request, text) {
  if (text.length > MAX_BODY_CHARS) {
    return `its body is longer than the ${MAX_BODY_CHARS / 1024} KB bua reads, so what it carries cannot be checked`;
  }
  const entries = Array.isArray(request.postDataEntries) ? request.postDataEntries : [];
  const unread = entries.some((e) => typeof e?.bytes !== "string");
  if (request.hasPostData === true && (text === "" || unread)) {
    return "its body could not be read (a file, a blob or a stream), so what it carries cannot be checked";
  }
  return "";
}

/**
 * The words of a name: split at separators, digits and camel case, lower-case (`placeOrder_v2` → place, order, v).
 * @param {string} name
 */
export function wordsOf(name) {
  return name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * Field names and values of a body: URL-encoded, JSON (nested keys too) or multipart form data; otherwise no
 * fields, the whole text as one value.
 * @param {string} body
 * @returns {{names: string[], values: string[], pairs: [string, string][]}} `pairs`: each field with a plain value
 */
export function bodyFields(body) {
  const text = body.trim();
  /** @type {string[]} */
  const names = [];
  /** @type {string[]} */
  const values = [];
  /** @type {[string, string][]} */
  const pairs = [];
  if (!text) return { names, values, pairs };
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      walkJson(JSON.parse(text), { names, values, pairs }, "", 0);
      return { names, values, pairs };
    } catch {
      // not JSON after all
    }
  }
  const multipart = [...text.matchAll(/content-disposition:[^\r\n]*\bname="([^"]*)"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/gi)];
  if (multipart.length > 0) {
    for (const m of multipart) pairs.push([m[1], m[2]]);
  } else if (/^[^\s=&]+=[^\s]*(&[^\s=&]+=[^\s]*)*$/.test(text)) {
    for (const pair of new URLSearchParams(text)) pairs.push(pair);
  } else {
    values.push(text);
  }
  for (const [name, value] of pairs) {
    names.push(name);
    values.push(value);
  }
  return { names, values, pairs };
}

/**
 * @param {unknown} value
 * @param {{names: string[], values: string[], pairs: [string, string][]}} into
 * @param {string} key the field that holds `value`
 * @param {number} depth
 */
function walkJson(value, into, key, depth) {
  if (depth > 8) return;
  if (Array.isArray(value)) {
    for (const item of value) walkJson(item, into, key, depth + 1);
  } else if (value && typeof value === "object") {
    for (const [name, inner] of Object.entries(value)) {
      into.names.push(name);
      walkJson(inner, into, name, depth + 1);
    }
  } else if (value !== null && value !== undefined) {
    into.values.push(String(value));
    if (key) into.pairs.push([key, String(value)]);
  }
}

/**
 * The field names of a URL's query, and its path segments.
 * @param {string} url
 */
function urlParts(url) {
  try {
    const parsed = new URL(url);
    return { segments: parsed.pathname.split("/").map(decodeSafely), names: [...parsed.searchParams.keys()],
      values: [...parsed.searchParams.values()] };
  } catch {
    return { segments: [], names: [], values: [] };
  }
}

/** @param {string} text */
function decodeSafely(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * Why the extension itself would have the person see this request first; empty when nothing it can tell.
 * `strict`: the person asked to be asked before any request that can change something on this site.
 * @param {Outgoing} request a request that mayChange
 * `secrets`: what the task typed into password fields, in the forms a request carries them (network-secrets.js).
 * @param {{strict?: boolean, secrets?: string[]}} [options]
 * @returns {string[]}
 */
export function localReasons(request, { strict = false, secrets = [] } = {}) {
  const body = bodyFields(request.body ?? "");
  const url = urlParts(request.url);
  // A JSON body repeats its field names once per item: each is read once.
  const names = [...new Set([...url.names, ...body.names])];
  const operations = body.pairs.filter(([n]) => OPERATION_FIELD.test(n.toLowerCase())).map(([, v]) => v);
  const mutation = /\bmutation\s*(?:(\w+)|[{(]\s*(\w+))/.exec(body.values.join("\n"));
  /** @type {string[]} */
  const reasons = [];
  reasons.push(...dataReasons([...url.values, ...body.values], names, secrets, [request.url, request.body ?? ""]));
  if (request.unjudged) reasons.push(request.unjudged);
  if (request.method.toUpperCase() === "DELETE") reasons.push("it is a DELETE request");
  const named = [...url.segments, ...names, ...operations, ...(mutation ? [mutation[1] ?? mutation[2]] : [])];
  for (const [kind, name] of endpointKinds(named)) reasons.push(`it goes to an endpoint for ${kind} (“${name}”)`);
  if (strict && reasons.length === 0) reasons.push("strict mode: bua asks before every request that can change something");
  return reasons;
}

/**
 * What a message carries that the person should see first, whatever it is sent to: card data (a Luhn-valid number,
 * or a card field by name) and credentials (a field named for one, or, under any name, what the task typed into a
 * password field: one credential reason either way).
 * @param {string[]} values
 * @param {string[]} names field names
 * @param {string[]} secrets what the task typed into password fields, in the forms a message carries them
 *   (network-secrets.js secretForms)
 * @param {string[]} raw the message whole (a URL, a body), where a secret is looked for beside its values
 * @returns {string[]}
 */
function dataReasons(values, names, secrets, raw) {
  /** @type {string[]} */
  const reasons = [];
  if (values.some(hasCardNumber) || names.some((n) => fieldIs(n, CARD_FIELD))) reasons.push("it carries payment-card data");
  if (names.some(isCredentialName)) reasons.push("it carries a password or other credential");
  else if (carriesSecret(secrets, [...raw, ...values])) reasons.push(SECRET_REASON);
  return reasons;
}

/** Said of a request that carries what the task typed into a password field. */
export const SECRET_REASON = "it carries a password or other credential (what the task typed into a password field)";

/**
 * A field name that names a credential: one of its words is a credential's, or a part of it however it is joined.
 * @param {string} name
 */
export function isCredentialName(name) {
  const words = wordsOf(name);
  return words.some((w) => CREDENTIAL_WORD.test(w)) || CREDENTIAL_PART.test(words.join(""));
}

/**
 * What a WebSocket message carries (its text, or its bytes as text): as a request body is read, without the
 * endpoint words (a chat socket's URL says `send` for every message).
 * @param {string} payload
 * @param {string[]} [secrets] what the task typed into password fields (network-secrets.js secretForms)
 * @returns {string[]}
 */
export function messageReasons(payload, secrets = []) {
  const body = bodyFields(payload);
  return dataReasons(body.values, body.names, secrets, [payload]);
}

/**
 * A field name that is one of `pattern`'s names, whole or as its last word (`billing_cvc`, `cardNumber`, `cc-exp`).
 * @param {string} name
 * @param {RegExp} pattern
 */
function fieldIs(name, pattern) {
  const words = wordsOf(name);
  if (words.length === 0) return false;
  return pattern.test(words.join("")) || pattern.test(words[words.length - 1]);
}

export { hasCardNumber };
