import { test } from "node:test";
import assert from "node:assert/strict";

import { pageReading } from "../src/extract/page-reading.js";

/** The pure helpers of the in-page reading module run under node too. */
function reading() {
  /** @type {any} */
  const lib = {};
  pageReading(lib);
  return lib;
}

test("a frame's URL is cut to its origin: no path, no query", () => {
  const { originOf } = reading();
  const ad = `http://pos.example.com/jcwm?rdid=2864467&${"x=1&".repeat(200)}`;
  assert.equal(originOf(ad), "http://pos.example.com");
  assert.equal(originOf("https://www.example.org:8443/embed/Q0Cb?rel=0&"), "https://www.example.org:8443");
  assert.equal(originOf("/ads/inside.html", "https://news.example/story/1"), "https://news.example", "relative to the page");
  assert.equal(originOf("data:text/html,<p>hi</p>"), "data:", "an opaque origin: its scheme");
  assert.equal(originOf("about:blank"), "about:");
  assert.equal(originOf(""), "");
  assert.equal(originOf(null), "");
  assert.equal(originOf("http://["), "", "no URL");
});
