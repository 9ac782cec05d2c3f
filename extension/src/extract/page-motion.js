/**
 * In-page: the opacity an animation settles at (issue 18). The computed style is the animation's state now, and
 * an animation the browser has not started yet (no frame painted since it was made: a tab in the background, a
 * page just loaded) is at its first keyframe: a fade-out of 1 ms reads as opaque, a fade-in as invisible, while
 * what a person sees once the tab paints is where it ends. An animation or transition of opacity that ends within
 * SETTLE_MS and holds its last value (a transition, or `fill: forwards`/`both`) is judged at that value.
 *
 * - `settledOpacity(el, cs, win, facts)`: the element's opacity as judged: its computed opacity, or the end value of
 *   such an animation of it (the last one in the list wins, as the browser composes them).
 *
 * A scroll-driven animation (a scroll or view timeline) of opacity is judged by the most it shows at any scroll
 * position. Other animated properties (a transform, visibility, a colour) are judged as they stand now. Sent to the page as
 * source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageMotion, { uses: [] });

/**
 * Adds settledOpacity to lib (page-render.js passes the call's facts: it uses this part).
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageMotion(lib) {
  /** An animation that ends within this many milliseconds is judged where it ends. */
  const SETTLE_MS = 2000;

  /**
   * @param {Window} win @param {any} facts the call's facts of the window (page-render.js factsOf)
   * @returns {Map<Element, Animation[]>} the document's animations by element
   */
  const byTarget = (win, facts) => {
    if (!facts.motion) {
      /** @type {Map<Element, Animation[]>} */
      const out = new Map();
      for (const a of win.document.getAnimations()) {
        const effect = /** @type {any} */ (a.effect);
        if (!effect?.target || effect.pseudoElement) continue;
        const list = out.get(effect.target);
        if (list) list.push(a);
        else out.set(effect.target, [a]);
      }
      facts.motion = out;
    }
    return facts.motion;
  };

  /**
   * The opacity an animation holds once it has ended, or null: it does not animate opacity, does not end soon, or
   * lets go of the value when it ends (fill none: the underlying value, not known here).
   * @param {Animation} a @returns {number | null}
   */
  const endOpacity = (a) => {
    const effect = /** @type {any} */ (a.effect);
    if (a.playState === "idle") return null;
    if (a.timeline && "source" in a.timeline) return scrolledOpacity(effect);
    if (a.playState === "paused") return null;
    const timing = effect.getComputedTiming();
    const end = Number(timing.endTime);
    const now = Number(timing.localTime ?? 0);
    if (!Number.isFinite(end) || end - now > SETTLE_MS * Math.max(a.playbackRate, 0.001)) return null;
    const transition = "transitionProperty" in a;
    if (!transition && timing.fill !== "forwards" && timing.fill !== "both") return null;
    const frames = effect.getKeyframes().filter((/** @type {any} */ k) => k.opacity !== undefined);
    if (!frames.length) return null;
    const iterations = Number(timing.iterations);
    const reversed = timing.direction === "reverse" || (timing.direction === "alternate" && iterations % 2 === 0)
      || (timing.direction === "alternate-reverse" && iterations % 2 === 1);
    const v = parseFloat((reversed ? frames[0] : frames[frames.length - 1]).opacity);
    return Number.isNaN(v) ? null : v;
  };

  /**
   * The most opacity a scroll-driven animation (a scroll or view timeline) shows at any scroll position a person can
   * move to, or null when that is not known here: a keyframe left implicit (the underlying value) or a fill that lets
   * go of the keyframes somewhere. Its value now is no answer: until the tab paints a frame the animation is
   * pending and the computed style is the underlying value (seen: a constant opacity-0 animation read as 1).
   * @param {any} effect the animation's KeyframeEffect @returns {number | null}
   */
  const scrolledOpacity = (effect) => {
    if (effect.getComputedTiming().fill !== "both") return null;
    const frames = effect.getKeyframes();
    if (!frames.length || frames.some((/** @type {any} */ k) => k.opacity === undefined)) return null;
    const offsets = frames.map((/** @type {any} */ k) => Number(k.computedOffset ?? k.offset));
    if (offsets[0] > 0 || offsets[offsets.length - 1] < 1) return null;
    const values = frames.map((/** @type {any} */ k) => parseFloat(k.opacity));
    return values.some(Number.isNaN) ? null : Math.max(...values);
  };

  /**
   * @param {Element} el @param {CSSStyleDeclaration} cs @param {Window} win
   * @param {any} facts the call's facts of the window (page-render.js factsOf) @returns {number}
   */
  lib.settledOpacity = (el, cs, win, facts) => {
    const now = parseFloat(cs.opacity) || 0;
    const anims = byTarget(win, facts).get(el);
    if (!anims) return now;
    let out = now;
    for (const a of anims) out = endOpacity(a) ?? out;
    return out;
  };
}
