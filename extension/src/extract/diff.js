/**
 * What changed between two extracts of one tab (pure; runs under node).
 *
 * A snapshot is what the model last saw of a page: its markdown lines (uids inline, as
 * extract renders them) and every element record by uid. The diff says:
 * - text: the markdown lines added (`+`), removed (`-`; a long run by its first and last lines) and changed
 *   (`~ new` then `  was: old`, a removed line paired with the added line that took its place), grouped in hunks
 *   that start with `@ after: <the unchanged line before it>` so the model knows where they stand;
 * - elements: uids added and removed (their index lines, as extract shows them: uids stay stable, so an
 *   element still on the page keeps its uid), and those whose name or state changed
 *   (`~ e7 textbox "Email" value="x" (was: textbox "Email" value="")`). A context change alone is no change.
 *   An element of a region the markdown leaves out says its region, named as the index's region lines name it
 *   (`+ e8 link "Archive" (in navigation "Main")`): no markdown line places it.
 * Links whose `[name](uid)` token already stands in the listed markdown lines are not listed again, nor is a
 * stateless element whose only change (its name) the listed lines show, or that went with a listed line. A line
 * whose only change is its elements' labels gives just their new tokens (`~ labels now: [View](e4) [View](e5)`).
 * A removed dialog is one line with its name and size (`- dialog "Jane" closed (9 lines, 1 element)`), its
 * elements not listed again; the elements of a left-out region (navigation, a cookie banner) that went with all
 * of it are one line too. The fields an action set and reported itself (`reported`: fill, type) are not listed
 * when only their value or state changed.
 */

import { elementLine } from "./element-lines.js";
import { framedLines } from "./framed.js";

/**
 * @typedef {import("./element-lines.js").ElementRecord} ElementRecord
 * @typedef {{doc: string, url: string, title: string, lines: string[], elements: Map<string, ElementRecord>,
 *   framed?: Map<string, string>}} Snapshot framed: the origin of the frame of another origin that shows a line, by
 *   its text (framed.js framesByText)
 * @typedef {{summary: string, markdown?: string, elements?: string, full?: true,
 *   frames?: import("./framed.js").Framed[]}} ChangeList
 *   markdown and elements hold page text (the result builder marks them); summary holds counts only; full: this
 *   result is a full extract instead (extract-action.js changesSince); frames: the listed lines that quote what a
 *   frame of another origin shows, by its origin (framed.js)
 */

/** Longest context line shown at the head of a hunk. */
const CONTEXT_CHARS = 80;
/** Longest run of removed lines listed whole. */
const MAX_REMOVED_RUN = 5;

/**
 * The shortest edit script of two line lists (Myers), as hunks; null when it needs more than `maxEdits` edits.
 * @param {string[]} a before
 * @param {string[]} b after
 * @param {number} maxEdits
 * @returns {{at: number, removed: string[], added: string[]}[] | null} at: index in `b` where the hunk starts
 */
export function lineHunks(a, b, maxEdits) {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let endA = a.length;
  let endB = b.length;
  while (endA > head && endB > head && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ops = editScript(a.slice(head, endA), b.slice(head, endB), maxEdits);
  if (ops === null) return null;
  /** @type {{at: number, removed: string[], added: string[]}[]} */
  const hunks = [];
  /** @type {{at: number, removed: string[], added: string[]} | null} */
  let open = null;
  for (const [op, i, j] of ops) {
    if (op === "=") {
      open = null;
      continue;
    }
    if (!open) hunks.push((open = { at: head + j, removed: [], added: [] }));
    if (op === "-") open.removed.push(a[head + i]);
    else open.added.push(b[head + j]);
  }
  return hunks;
}

/**
 * Myers' O((N+M)·D) diff: ["=", i, j] keeps a[i] (= b[j]), ["-", i, j] removes a[i] (j: where b stands),
 * ["+", i, j] adds b[j]; null past `maxEdits`.
 * @param {string[]} a
 * @param {string[]} b
 * @param {number} maxEdits
 * @returns {[string, number, number][] | null}
 */
function editScript(a, b, maxEdits) {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  /** @type {Int32Array[]} v as it was before each round d (its window -d-1 … d+1) */
  const trace = [];
  for (let d = 0; d <= Math.min(max, maxEdits); d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m);
    }
  }
  return null;
}

/**
 * @param {Int32Array[]} trace
 * @param {number} n
 * @param {number} m
 * @returns {[string, number, number][]}
 */
function backtrack(trace, n, m) {
  /** @type {[string, number, number][]} */
  const ops = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const w = trace[d];
    const at = (/** @type {number} */ k) => w[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push(["=", x - 1, y - 1]);
      x--;
      y--;
    }
    if (d > 0) ops.push(x === prevX ? ["+", x, y - 1] : ["-", x - 1, y]);
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** @param {ElementRecord} e the element's role, name and states: what a change is judged on */
const facts = (e) => elementLine({ ...e, uid: "", context: "" }).trim();

/**
 * The element's index line, with its region (if any) as context. A repeated name's own region context
 * (`in navigation #2`, page-context.js) gives way to the region's full label, keeping its ordinal.
 * @param {ElementRecord} e
 */
function placedLine(e) {
  if (!e.region) return elementLine(e);
  const own = e.context ?? "";
  const where = `in ${e.region}`;
  if (!own) return elementLine({ ...e, context: where });
  const context = own.startsWith("in ") ? `${where}${own.match(/ #\d+$/)?.[0] ?? ""}` : `${where}, ${own}`;
  return elementLine({ ...e, context });
}

/**
 * Whether the listed markdown lines show the element's token (`[name](uid)`, or `[uid]` with no name).
 * @param {ElementRecord} e
 * @param {string} shownText
 */
const tokenShown = (e, shownText) => shownText.includes(`](${e.uid})`) || shownText.includes(`[${e.uid}]`);

/**
 * @param {ElementRecord} e
 * @param {string} shownText markdown lines listed in the same change list
 */
const inlineLink = (e, shownText) => e.role === "link" && !e.states && !!e.name && shownText.includes(`](${e.uid})`);

/**
 * A changed element the listed lines already show as it is now: same role, no states either side, only its name
 * changed, and its token stands in an added or changed line.
 * @param {ElementRecord} was
 * @param {ElementRecord} now
 * @param {string} shownText
 */
const nameShown = (was, now, shownText) => was.role === now.role && !was.states && !now.states && tokenShown(now, shownText);

/**
 * A field the action set and reported itself whose role and name stayed: its value or state change is in the
 * action's own result.
 * @param {ElementRecord} was
 * @param {ElementRecord} now
 * @param {ReadonlySet<string>} reported
 */
const selfReported = (was, now, reported) => reported.has(now.uid) && was.role === now.role && was.name === now.name;

/**
 * The change list from `before` to `after` (same document), or null when it needs more than `maxEdits` edits.
 * @param {Snapshot} before
 * @param {Snapshot} after
 * @param {number} [maxEdits]
 * @param {{reported?: ReadonlySet<string>}} [options] reported: uids of the fields the action set and reported
 * @returns {ChangeList | null}
 */
export function diffSnapshots(before, after, maxEdits = 2000, { reported = new Set() } = {}) {
  const hunks = lineHunks(before.lines, after.lines, maxEdits);
  if (hunks === null) return null;
  /** @param {string} line @returns {string | undefined} the frame that shows a snapshot line, now or before */
  const frameOf = (line) => after.framed?.get(line) ?? before.framed?.get(line);
  /** @type {string[]} */
  const md = [];
  /** @type {Map<number, string>} the frame whose line each listed markdown line quotes (by its index in md) */
  const mdFrames = new Map();
  /** @param {string} line @param {string | undefined} frame */
  const quote = (line, frame) => {
    const at = md.push(line) - 1;
    if (frame) mdFrames.set(at, frame);
    return at;
  };
  /** @type {{line: number, text: string, lines: number, elements: number}[]} collapsed dialogs: md index, their text */
  const closed = [];
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const hunk of hunks) {
    const context = hunk.at > 0 ? after.lines[hunk.at - 1] : "";
    quote(context ? `@ after: ${cut(context)}` : "@ at the top", context ? frameOf(context) : undefined);
    const pairs = Math.min(hunk.removed.length, hunk.added.length);
    /** @type {Map<string | undefined, string[]>} the new tokens of relabelled lines, by the frame that shows them */
    const relabelled = new Map();
    for (let i = 0; i < pairs; i++) {
      const tokens = relabelledTokens(hunk.removed[i], hunk.added[i]);
      if (tokens) {
        const frame = frameOf(hunk.added[i]);
        relabelled.set(frame, [...relabelled.get(frame) ?? [], ...tokens]);
      } else {
        quote(`~ ${hunk.added[i]}`, frameOf(hunk.added[i]));
        quote(`  was: ${hunk.removed[i]}`, frameOf(hunk.removed[i]));
      }
    }
    for (const [frame, tokens] of relabelled) quote(`~ labels now: ${tokens.join(" ")}`, frame);
    for (const part of removedParts(hunk.removed.slice(pairs))) {
      if (typeof part === "string") quote(part, part.startsWith("- ") ? frameOf(part.slice(2)) : undefined);
      else closed.push({ line: quote(part.head, frameOf(part.lines[part.named])), text: part.lines.join("\n"), lines: part.lines.length, elements: 0 });
    }
    for (const line of hunk.added.slice(pairs)) quote(`+ ${line}`, frameOf(line));
    changed += pairs;
    removed += hunk.removed.length - pairs;
    added += hunk.added.length - pairs;
  }
  const shown = md.join("\n");
  /** @type {string[]} */
  const els = [];
  /** @type {(string | undefined)[]} the frame of each element line's element */
  const elFrames = [];
  const counts = { added: 0, removed: 0, changed: 0 };
  let asReported = 0;
  for (const [uid, now] of after.elements) {
    const was = before.elements.get(uid);
    if (!was) {
      counts.added++;
      if (!inlineLink(now, shown)) elFrames[els.push(`+ ${placedLine(now)}`) - 1] = now.frame;
    } else if (facts(was) !== facts(now)) {
      if (selfReported(was, now, reported)) {
        asReported++;
        continue;
      }
      counts.changed++;
      if (!nameShown(was, now, shown)) elFrames[els.push(`~ ${placedLine(now)} (was: ${facts(was)})`) - 1] = now.frame;
    }
  }
  /** @type {ElementRecord[]} */
  const gone = [];
  for (const [uid, was] of before.elements) {
    if (after.elements.has(uid)) continue;
    counts.removed++;
    const inDialog = closed.find((c) => tokenShown(was, c.text));
    if (inDialog) inDialog.elements++;
    else if (!inlineLink(was, shown) && !(!was.states && tokenShown(was, shown))) gone.push(was);
  }
  for (const { line, frame } of removedElementLines(gone, after.elements)) elFrames[els.push(line) - 1] = frame;
  for (const c of closed) md[c.line] += ` (${c.lines} lines${c.elements ? `, ${c.elements} element${c.elements > 1 ? "s" : ""}` : ""})`;
  /** @type {ChangeList} */
  const list = { summary: summary({ added, removed, changed }, counts, asReported) };
  if (md.length) list.markdown = md.join("\n");
  if (els.length) list.elements = els.join("\n");
  const frames = framedLines([...md.map((text, i) => ({ text, frame: mdFrames.get(i) })),
    ...els.map((text, i) => ({ text, frame: elFrames[i] }))]);
  if (frames.length) list.frames = frames;
  return list;
}

/**
 * The removed elements' lines; those of a left-out region none of whose elements is left share one line
 * (`- navigation "Main" gone (4 elements)`) when there are two or more; each with its element's frame.
 * @param {ElementRecord[]} gone
 * @param {Map<string, ElementRecord>} now
 */
function removedElementLines(gone, now) {
  const left = new Set([...now.values()].map((e) => e.region).filter(Boolean));
  /** @type {Map<string, number>} */
  const whole = new Map();
  for (const e of gone) if (e.region && !left.has(e.region)) whole.set(e.region, (whole.get(e.region) ?? 0) + 1);
  /** @type {{line: string, frame?: string}[]} */
  const lines = [];
  /** @type {Set<string>} */
  const told = new Set();
  for (const e of gone) {
    const many = e.region ? whole.get(e.region) ?? 0 : 0;
    if (many < 2) lines.push({ line: `- ${placedLine(e)}`, frame: e.frame });
    else if (!told.has(/** @type {string} */ (e.region))) {
      told.add(/** @type {string} */ (e.region));
      lines.push({ line: `- ${e.region} gone (${many} elements)` }); // a label two frames may share: the page's
    }
  }
  return lines;
}

/** The summary of a change list in which only the fields the action set and reported changed: its result says all. */
export const ONLY_REPORTED = "nothing changed but the fields this action set";

/**
 * @param {{added: number, removed: number, changed: number}} text
 * @param {{added: number, removed: number, changed: number}} elements
 * @param {number} asReported how many elements changed as the action's own result reports (not counted again)
 */
function summary(text, elements, asReported) {
  /** @param {{added: number, removed: number, changed: number}} c @param {string} what */
  const part = (c, what) => {
    const bits = [c.added && `${c.added} added`, c.removed && `${c.removed} removed`, c.changed && `${c.changed} changed`].filter(Boolean);
    return bits.length ? `${what}: ${bits.join(", ")}` : "";
  };
  const parts = [part(text, "text lines"), part(elements, "elements")].filter(Boolean);
  if (parts.length) return parts.join("; ");
  return asReported ? ONLY_REPORTED : "no text or element changed";
}

/** An element's token in a markdown line: `[label](e4)` (group 2: the uid) or `[e4]` (group 3). */
const TOKEN = /\[((?:[^\]\\]|\\.)*)\]\((e\d+)\)|\[(e\d+)\]/g;

/**
 * When a changed line differs from the one it replaced only in its elements' labels (a label hidden while
 * something covers it, shown again after), those elements' new tokens; else null.
 * @param {string} was
 * @param {string} now
 * @returns {string[] | null}
 */
function relabelledTokens(was, now) {
  const bare = (/** @type {string} */ line) => line.replace(TOKEN, (_m, _l, uid, alone) => `[${uid ?? alone}]`);
  if (bare(was) !== bare(now)) return null;
  const before = new Map([...was.matchAll(TOKEN)].map((m) => [m[2] ?? m[3], m[0]]));
  const changed = [...now.matchAll(TOKEN)].filter((m) => before.get(m[2] ?? m[3]) !== m[0]).map((m) => m[0]);
  return changed.length ? changed : null;
}

/**
 * @typedef {{head: string, lines: string[], named: number}} Collapsed removed lines listed as one line, `head`,
 *   which quotes its `lines[named]` (the dialog's opening line or first heading, the section's heading): it is
 *   that line's frame's when a frame of another origin shows it
 */

/** The line that opens a dialog's block in the markdown (markdown.js renderBlocks), and the one that ends it. */
const DIALOG_OPEN = /^(\s*)\[dialog( "(?:[^"\\]|\\.)*")?(?:, modal[^\]]*)?\]$/;
const DIALOG_END = "[end of dialog]";

/**
 * Removed lines as listed: a whole dialog's block as one line to be completed with its size (`- dialog "Jane"
 * closed`); the rest in runs, all of a short run and of a long one (a section gone) its first lines and its last,
 * with how many are left out: the model saw them before, and the element lines say which uids went.
 * @param {string[]} lines
 * @returns {(string | Collapsed)[]}
 */
function removedParts(lines) {
  /** @type {(string | Collapsed)[]} */
  const parts = [];
  /** @type {string[]} */
  let run = [];
  for (let i = 0; i < lines.length; i++) {
    const open = DIALOG_OPEN.exec(lines[i]);
    const end = open ? blockEnd(lines, i) : -1;
    if (!open || end < 0) {
      run.push(lines[i]);
      continue;
    }
    parts.push(...removedRun(run));
    run = [];
    const block = lines.slice(i, end + 1);
    // A dialog with no name is named by its first heading, as a person names it.
    const heading = open[2] ? -1 : block.findIndex((line) => HEADING.test(line));
    const name = open[2] ?? (heading < 0 ? "" : ` ${headingName(block[heading])}`);
    parts.push({ head: `- dialog${name} closed`, lines: block, named: Math.max(heading, 0) });
    i = end;
  }
  parts.push(...removedRun(run));
  return parts;
}

const HEADING = /^\s*#{1,6} (.+)$/;

/** @param {string} line a heading line @returns {string} its text, quoted (`"Jane"`) */
const headingName = (line) => JSON.stringify(cut(/** @type {RegExpExecArray} */ (HEADING.exec(line))[1]));


/**
 * A run of removed lines that is no dialog: each long section of it (a heading and what follows, more than
 * MAX_REMOVED_RUN lines: a panel gone) as one line to be completed with its size (`- section "Jane" removed`);
 * the rest as removedLines lists them.
 * @param {string[]} run
 * @returns {(string | Collapsed)[]}
 */
function removedRun(run) {
  /** @type {(string | Collapsed)[]} */
  const parts = [];
  let from = 0;
  const starts = run.map((line, i) => (HEADING.test(line) ? i : -1)).filter((i) => i >= 0);
  for (const [n, start] of starts.entries()) {
    const end = starts[n + 1] ?? run.length;
    if (end - start <= MAX_REMOVED_RUN) continue;
    parts.push(...removedLines(run.slice(from, start)));
    parts.push({ head: `- section ${headingName(run[start])} removed`, lines: run.slice(start, end), named: 0 });
    from = end;
  }
  parts.push(...removedLines(run.slice(from)));
  return parts;
}

/**
 * Where the dialog block opened at `lines[start]` ends (a dialog inside it counted), or -1 when not among them.
 * @param {string[]} lines
 * @param {number} start
 */
function blockEnd(lines, start) {
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    if (DIALOG_OPEN.test(lines[i])) depth++;
    else if (lines[i].trim() === DIALOG_END && --depth === 0) return i;
  }
  return -1;
}

/**
 * @param {string[]} lines
 */
function removedLines(lines) {
  const shown = lines.length > MAX_REMOVED_RUN ? [...lines.slice(0, 2), null, lines[lines.length - 1]] : lines;
  return shown.map((line) => (line === null ? `  … ${lines.length - 3} more lines removed` : `- ${line}`));
}

/** @param {string} line */
const cut = (line) => (line.length > CONTEXT_CHARS ? `${line.slice(0, CONTEXT_CHARS)}…` : line);
