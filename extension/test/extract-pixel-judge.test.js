// The pixel comparison that decides text page code could not (extract/pixel-judge.js): a text shows when its
// glyphs change enough pixels by a contrast a person tells apart, and nearby boxes are captured in one clip.
import test from "node:test";
import assert from "node:assert/strict";
import { clipsOf, deferred, inView, judgeByPixels, outOfViewNote, shows } from "../src/extract/pixel-judge.js";
import { MIN_PIXEL_CONTRAST, inkStandingOut, pictureMoved, standingOut } from "../src/extract/pixel-measure.js";

/** A w×h image of one colour, with `ink` painted at the listed pixels. */
const image = (w, h, bg, ink = [0, 0, 0], at = []) => {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([...bg, 255], i * 4);
  for (const [x, y] of at) data.set([...ink, 255], (y * w + x) * 4);
  return { data, width: w, height: h };
};
const glyphs = Array.from({ length: 40 }, (_, i) => [2 + (i % 20), 3 + Math.floor(i / 20)]);

test("dark glyphs on white stand out; white glyphs on white, or glyphs under an opaque drawing, do not", () => {
  const bare = image(30, 10, [255, 255, 255]);
  assert.equal(standingOut(image(30, 10, [255, 255, 255], [17, 17, 17], glyphs), bare, [0, 0, 30, 10]), 40);
  assert.equal(standingOut(image(30, 10, [255, 255, 255], [255, 255, 255], glyphs), bare, [0, 0, 30, 10]), 0);
  assert.equal(standingOut(bare, bare, [0, 0, 30, 10]), 0);
});

test("a faint difference under the contrast the colour judgement asks counts for nothing", () => {
  const bare = image(30, 10, [244, 244, 244]);
  assert.equal(standingOut(image(30, 10, [244, 244, 244], [255, 255, 255], glyphs), bare, [0, 0, 30, 10]), 0);
  assert.ok(MIN_PIXEL_CONTRAST > 1.08);
});

test("only the pixels inside the text's box are counted", () => {
  const bare = image(30, 10, [255, 255, 255]);
  assert.equal(standingOut(image(30, 10, [255, 255, 255], [0, 0, 0], glyphs), bare, [0, 0, 5, 10]), 6);
});

test("a run shows by 2 px of ink a character, at most 12", () => {
  assert.equal(shows({ id: 1, rects: [], chars: 3 }, 5), false);
  assert.equal(shows({ id: 1, rects: [], chars: 3 }, 6), true);
  assert.equal(shows({ id: 1, rects: [], chars: 40 }, 12), true);
});

test("boxes down the page are captured in clips no taller than a few hundred px, far ones apart", () => {
  const asks = [{ id: 1, rects: [[10, 3000, 100, 18]], chars: 9 }, { id: 2, rects: [[10, 20, 200, 18]], chars: 9 },
    { id: 3, rects: [[40, 60, 50, 18]], chars: 9 }];
  const clips = clipsOf(asks);
  assert.equal(clips.length, 2);
  assert.deepEqual(clips[0].asks.map((a) => a.id), [2, 3]);
  assert.deepEqual(clips[0].clip, { x: 8, y: 18, width: 204, height: 62 });
  assert.deepEqual(clips[1].asks.map((a) => a.id), [1]);
});

test("a text's boxes are cut to the viewport, the parts out of it dropped", () => {
  const view = { x: 0, y: 1000, width: 800, height: 600 };
  assert.deepEqual(inView([[10, 990, 100, 20], [10, 1590, 100, 20], [10, 3000, 100, 20]], view),
    [[10, 1000, 100, 10], [10, 1590, 100, 10]]);
  assert.deepEqual(inView([[10, 999.5, 100, 0.5]], view), []);
});

test("a text out of view is deferred on the side it lies, hidden till judged in view", () => {
  const view = { x: 0, y: 1000, width: 800, height: 600 };
  assert.deepEqual(deferred({ id: 4, rects: [[10, 3000, 100, 18]], chars: 9 }, view),
    { id: 4, key: "[[10,3000,100,18]]", hidden: true, far: "below" });
  assert.equal(deferred({ id: 5, rects: [[10, 20, 100, 18]], chars: 9, key: "k" }, view).far, "above");
  assert.equal(deferred({ id: 6, rects: [[900, 1100, 100, 18]], chars: 9 }, view).far, "beside");
});

test("texts wholly out of view are deferred without any capture", async () => {
  /** @type {string[]} */
  const sent = [];
  const dbg = {
    send: async (/** @type {number} */ _tab, /** @type {string} */ method) => {
      sent.push(method);
      if (method === "Page.getLayoutMetrics") return { cssVisualViewport: { pageX: 0, pageY: 0, clientWidth: 800, clientHeight: 600 } };
      throw new Error(`unexpected ${method}`);
    },
  };
  const masks = [];
  const verdicts = await judgeByPixels(/** @type {any} */ (dbg), { tabId: 1, frameId: "f" },
    [{ id: 1, rects: [[10, 3000, 100, 18]], chars: 9 }, { id: 2, rects: [[10, 3040, 100, 18]], chars: 9 }],
    async (ids) => masks.push(ids));
  assert.deepEqual(verdicts.map((v) => [v.id, v.hidden, v.far]), [[1, true, "below"], [2, true, "below"]]);
  assert.deepEqual(sent, ["Page.getLayoutMetrics"]);
  assert.deepEqual(masks, []);
});

test("the model is told how much text waits out of view, where, and to scroll there", () => {
  const note = outOfViewNote({ below: 40, above: 2 });
  assert.match(note, /^42 characters/);
  assert.match(note, /below and above the viewport/);
  assert.match(note, /scroll down or scroll up to them and extract again/);
});

test("text whose capture never answered is accounted for apart, with the call to make again", () => {
  assert.equal(outOfViewNote({ uncaptured: 30 }, "find"),
    "30 characters of text over pictures are left out, not judged: the browser did not capture them in time; find again in a moment.");
  assert.match(outOfViewNote({ below: 5, uncaptured: 3 }), /^5 characters .* below the viewport .* 3 characters/);
});

// A playing video moves between the two captures: the bare capture's picture is another frame than the painted one's.
/** A 60×20 capture: a text box at [2, 2, 24, 4] with glyphs of `ink` over `under`, and a picture of `pic` around it. */
const frame = (pic, under, ink, withGlyphs) => {
  const img = image(60, 20, pic);
  for (let y = 2; y < 6; y++) for (let x = 2; x < 26; x++) img.data.set([...under, 255], (y * 60 + x) * 4);
  if (withGlyphs) for (const [x, y] of glyphs) img.data.set([...ink, 255], (y * 60 + x) * 4);
  return img;
};
const box = [2, 2, 24, 4];

test("captures that differ only inside the texts' boxes agree; a picture changed outside them moved", () => {
  const still = frame([250, 250, 250], [250, 250, 250], [0, 0, 0], false);
  assert.equal(pictureMoved(frame([250, 250, 250], [250, 250, 250], [0, 0, 0], true), still, [box], 2), false);
  assert.equal(pictureMoved(frame([235, 235, 235], [250, 250, 250], [0, 0, 0], true), still, [box], 2), true);
});

test("over a moving picture, white text on a white frame is hidden, dark text on it shows", () => {
  // Painted over one frame, bare over the next: every pixel differs, so the glyph difference alone would keep both.
  const white = [255, 255, 255, 1];
  const dark = [20, 20, 20, 1];
  const bare = frame([240, 240, 240], [240, 240, 240], [0, 0, 0], false);
  const paintedWhite = frame([200, 200, 200], [200, 200, 200], [255, 255, 255], true);
  assert.ok(pictureMoved(paintedWhite, bare, [box], 2));
  assert.ok(shows({ id: 1, rects: [], chars: 9 }, standingOut(paintedWhite, bare, box)));
  assert.equal(inkStandingOut(paintedWhite, bare, box, { inks: [white] }), 0);
  const paintedDark = frame([200, 200, 200], [200, 200, 200], [20, 20, 20], true);
  assert.equal(inkStandingOut(paintedDark, bare, box, { inks: [dark] }), 40);
  assert.ok(shows({ id: 1, rects: [], chars: 9 }, inkStandingOut(paintedDark, bare, box, { inks: [dark] })));
});

test("over a moving picture, text under an opaque frame or with no ink shows nothing", () => {
  const bare = frame([240, 240, 240], [240, 240, 240], [0, 0, 0], false);
  const covered = frame([200, 200, 200], [200, 200, 200], [0, 0, 0], false);
  assert.equal(inkStandingOut(covered, bare, box, { inks: [[20, 20, 20, 1]] }), 0);
  assert.equal(inkStandingOut(frame([200, 200, 200], [200, 200, 200], [20, 20, 20], true), bare, box, { inks: [] }), 0);
});

test("over a moving picture, faint ink shows only as much as its alpha over the bare frame stands out", () => {
  const bare = frame([250, 250, 250], [250, 250, 250], [0, 0, 0], false);
  const faint = frame([230, 230, 230], [230, 230, 230], [245, 245, 245], true);
  assert.equal(inkStandingOut(faint, bare, box, { inks: [[0, 0, 0, 0.02]] }), 0);
});

test("over a moving picture, every ink the text paints counts: a dark outline shows white text, a pale one does not", () => {
  const bare = frame([240, 240, 240], [240, 240, 240], [0, 0, 0], false);
  const outlined = frame([200, 200, 200], [200, 200, 200], [20, 20, 20], true); // the outline's pixels, dark
  assert.equal(inkStandingOut(outlined, bare, box, { inks: [[255, 255, 255, 1]] }), 0);
  assert.equal(inkStandingOut(outlined, bare, box, { inks: [[255, 255, 255, 1], [20, 20, 20, 1]] }), 40);
  const pale = frame([200, 200, 200], [200, 200, 200], [235, 235, 235], true);
  assert.equal(inkStandingOut(pale, bare, box, { inks: [[255, 255, 255, 1], [235, 235, 235, 1]] }), 0);
});

test("over a moving picture, a blend-mode text is judged by what its blend paints over the frame", () => {
  const bare = frame([240, 240, 240], [240, 240, 240], [0, 0, 0], false);
  // White text with difference over a near-white frame paints near black: it shows.
  const dark = frame([200, 200, 200], [200, 200, 200], [15, 15, 15], true);
  assert.equal(inkStandingOut(dark, bare, box, { inks: [[255, 255, 255, 1]], blend: "difference" }), 40);
  // White text with multiply over it paints the frame itself: nothing shows.
  const same = frame([200, 200, 200], [200, 200, 200], [240, 240, 240], true);
  assert.equal(inkStandingOut(same, bare, box, { inks: [[255, 255, 255, 1]], blend: "multiply" }), 0);
});
