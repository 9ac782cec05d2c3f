import { test } from "node:test";
import assert from "node:assert/strict";

import { checkNavigableUrl } from "../src/tabs/url-policy.js";

/** @param {() => unknown} fn */
function codeOf(fn) {
  try {
    fn();
    return "ok";
  } catch (err) {
    return /** @type {any} */ (err).code;
  }
}

test("http(s) URLs and about:blank are allowed", () => {
  for (const url of [
    "http://127.0.0.1:8000/",
    "https://example.com/path?q=1#frag",
    "HTTPS://EXAMPLE.COM/",
    "http://user:pw@host.test/",
    "about:blank",
  ]) {
    assert.equal(checkNavigableUrl(url), url, url);
  }
});

test("every other scheme is forbidden_url", () => {
  for (const url of [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "file:///etc/passwd",
    "data:text/html,<h1>x</h1>",
    "blob:https://example.com/0b6a",
    "chrome://settings",
    "chrome-extension://jgifgcbigoglnhkhkpdmjmgljnjkkbpg/background.js",
    "chrome-untrusted://terminal/",
    "devtools://devtools/bundled/inspector.html",
    "view-source:https://example.com/",
    "about:config",
    "about:blank#x",
    "about:srcdoc",
    "ftp://example.com/",
    "ws://example.com/",
    "mailto:a@b.c",
  ]) {
    assert.equal(codeOf(() => checkNavigableUrl(url)), "forbidden_url", url);
  }
});

test("a relative or empty URL is invalid_action", () => {
  for (const url of ["example.com", "/path", "", 42, undefined]) {
    assert.equal(codeOf(() => checkNavigableUrl(url)), "invalid_action", String(url));
  }
});

test("the forbidden message does not echo a long data: URL", () => {
  try {
    checkNavigableUrl(`data:text/plain,${"x".repeat(5000)}`);
    assert.fail("should throw");
  } catch (err) {
    assert.ok(/** @type {Error} */ (err).message.length < 200);
  }
});
