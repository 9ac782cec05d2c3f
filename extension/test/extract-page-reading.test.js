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

test("an image's alt text is shown only when it says something about the picture", () => {
  const { altText } = reading();
  assert.equal(altText("A heron on a post"), "[image: A heron on a post]");
  assert.equal(altText("廣州十大旅遊景點"), "[image: 廣州十大旅遊景點]", "one token of a script without spaces");
  assert.equal(altText("Chart [2024]  of\nsales"), "[image: Chart 2024 of sales]", "brackets out: no forged tokens");
  assert.equal(altText("<span style='x'>Nintendo</span> console"), "[image: Nintendo console]", "markup out");
  assert.equal(altText("Photo: the harbour at dawn"), "[image: the harbour at dawn]");
  const long = altText(`The ${"very ".repeat(40)}long alt`);
  assert.equal(long.length, "[image: ]".length + 100);
  assert.ok(long.endsWith("…]"));
  for (const empty of ["", "   ", "image", "An image", "Image 2", "photo", "Loading", "42", "IMG_2041", "DSC 0042",
    "heron.JPG", "hero-banner_2024", "0225-lupita-nyongo-getty-01", "PatrickAllan", "Graduation", "red/blue"]) {
    assert.equal(altText(empty), "", empty);
  }
});
