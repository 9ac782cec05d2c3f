/**
 * In-page: the small builders the walker writes blocks with (see
 * page-walker.js for the block format). A sink collects finished blocks and
 * the inline runs of the paragraph being written.
 *
 * Sent to the page as source text (run-in-page.js): self-contained.
 */

import { definePagePart } from "../page/page-code.js";

definePagePart(pageBlocks);

/**
 * Adds lib.blocks = {sink, flush, addText, flatRuns, plain}.
 * @param {any} lib the in-page library object (globalThis.__bua)
 */
export function pageBlocks(lib) {
  /** @typedef {{blocks: any[], runs: any[]}} Sink */

  /** @returns {Sink} */
  const sink = () => ({ blocks: [], runs: [] });

  /**
   * End the paragraph being written (if it has anything to show).
   * @param {Sink} s
   */
  const flush = (s) => {
    if (s.runs.some((r) => typeof r !== "string" || r.trim())) s.blocks.push({ p: s.runs });
    s.runs = [];
  };

  /**
   * Append text to the paragraph; a space after a space is dropped.
   * @param {{runs: any[]}} s
   * @param {string} t
   * @returns {boolean} whether anything was added
   */
  const addText = (s, t) => {
    const last = s.runs.length - 1;
    if (typeof s.runs[last] === "string") {
      if (t === " " && s.runs[last].endsWith(" ")) return false;
      s.runs[last] += t;
    } else s.runs.push(t);
    return true;
  };

  /**
   * Blocks squeezed into one line of runs (a table cell).
   * @param {any[]} blocks
   * @returns {any[]}
   */
  const flatRuns = (blocks) => blocks.flatMap((b) => {
    if (b.p) return [...b.p, " "];
    if (b.c && b.h) return [...b.c, " "];
    if (b.i) return b.i.flatMap((/** @type {any[]} */ item) => flatRuns(item));
    if (b.c || b.q) return flatRuns(b.c ?? b.q);
    if (b.t) return b.t.flatMap((/** @type {any[]} */ row) => row.slice(1).flatMap((/** @type {any[]} */ cell) => [...cell, " "]));
    if (b.pre) return [b.pre, " "];
    return [];
  });

  /**
   * Runs as plain text (element tokens by their visible text).
   * @param {any[]} runs
   */
  const plain = (runs) => runs.map((r) => (typeof r === "string" ? r : r.x ?? "")).join("").replace(/\s+/g, " ").trim();

  lib.blocks = { sink, flush, addText, flatRuns, plain };
}
