import { test } from "node:test";
import assert from "node:assert/strict";

import { URL_DATA_PATTERNS, carriesData } from "../src/safety/network-url-data.js";

test("a URL can carry data: a query, userinfo, a host label of six digits, data in the path", () => {
  for (const url of ["https://a.example/land?ref=x", "https://me:pw@a.example/", "https://412-555-1234.a.example/",
    "https://a.example/u/ZX44719920QQ", "https://a.example/guides/2024/delivery", "https://a.example/to/a@b.example",
    "https://a.example/q/hello%20there%20friend"]) {
    assert.equal(carriesData(url), true, url);
  }
});

test("a token that is data by its letter case alone is matched, case-sensitively", () => {
  for (const url of ["https://a.example/go/aZkQpLmWx", "https://a.example/go/aZkQpLmW", "https://a.example/s/xxxxxxaB",
    "https://a.example/s/aBxxxxxx/next", "https://a.example/help/deliveryTimes",
    "https://a.example/iPhone-cases"]) { // joined words are one token to the memory too: `iPhone-cases` is data there

    assert.equal(carriesData(url), true, url);
  }
  for (const url of ["https://a.example/go/AZKQPLMW", "https://a.example/go/Azkqplmw", "https://a.example/s/xxxxxxa/B",
    "https://a.example/Help/Delivery-Times"]) {
    assert.equal(carriesData(url), false, `${url}: no upper-case letter right after a lower-case one`);
  }
});

test("a symbol no plain word has, or joiners out of place, can be data; plain words in a path are not", () => {
  for (const url of ["https://a.example/go/abc~defgh", "https://a.example/go/abc!defgh", "https://a.example/wiki/Special:Search",
    "https://a.example/go/abc--defgh", "https://a.example/go/_abcdefgh", "https://a.example/go/abcdefgh-"]) {
    assert.equal(carriesData(url), true, url);
  }
  for (const url of ["https://a.example/", "https://a.example/help/delivery-times", "https://a.example/blog/long_term.html",
    "https://a.example/drop.html", "https://a.example/a/b/c/", "https://a.example/land#section-two", "http://127.0.0.1/help",
    "https://a.example/what's-new"]) {
    assert.equal(carriesData(url), false, url);
  }
});

test("the rules' patterns are RE2 as declarativeNetRequest takes them: no lookaround, no backreference, short", () => {
  for (const { regex } of URL_DATA_PATTERNS) {
    assert.doesNotMatch(regex, /\(\?[=!<]|\\[1-9]/);
    assert.ok(regex.length < 200, regex); // Chromium's 2 KB program limit refused a 223-character window
  }
});
