/**
 * Blocks from the page walker → markdown lines (pure; runs under node).
 *
 * Interactive elements appear inline with their uid: `[View](e4)` when they
 * show text, `[e5]` when they do not (inputs, icon buttons); the elements
 * list says what each uid is. Elements of stripped regions are position
 * markers only (nothing printed). Each line records how many elements
 * (in list order) have been passed once it is printed, so budget.js can cut
 * markdown and elements at the same place.
 */

/**
 * @typedef {string | {u: unknown, x?: string, s?: 1, g?: number}} Run
 *   text, or element u (an element record; `place` gives its uid and list index); g: laid out as text, so
 *   text the page glues to it stays glued (`[MacBook](e7)s`), where a boxed control gets a space — bit 1 at
 *   its start, bit 2 at its end (its own text ends without white space there)
 * @typedef {(u: any, label: string, shown: boolean) => {uid: string, index: number}} Place
 *   puts an element into the elements list (in the order markdown meets them), given the text its inline
 *   token shows ("" for none) and whether the markdown shows it (false: a stripped region's position
 *   marker); index: its place in the list, or the last listed one's when it is not listed
 * @typedef {{text: string, upto: number, row?: {sel: string, i: number}, frame?: string}} Line `frame`: the web origin
 *   of the frame that shows it, when that is another than the page's (collect.js `o`; the innermost such frame)
 *   upto: elements passed so far; row: a table row that can be continued with a selector
 */

/** @param {string} s */
const squash = (s) => s.replace(/[ \t\r\f\v]+/g, " ");

/** @param {string} s text for inside `[…]` (element-lines.js writes the same tokens) */
export const escapeLabel = (s) => s.replace(/[[\]\\]/g, (c) => `\\${c}`);

/**
 * Inline runs as one string (newlines kept, spaces collapsed).
 * @param {Run[]} runs
 * @param {Place} place
 * @param {{upto: number}} pos advanced past every element seen
 * @returns {string}
 */
export function renderRuns(runs, place, pos) {
  let out = "";
  /** @type {"" | "token" | "glued"} what ended `out`: text, a boxed control's token, a token laid out as text */
  let after = "";
  for (const run of runs) {
    if (typeof run === "string") {
      if (after === "token" && /^[^\s,.;:!?)\]]/.test(run)) out += " ";
      out += run;
      after = "";
      continue;
    }
    const label = run.s ? "" : squash(run.x ?? "").trim();
    const { uid, index } = place(run.u, label, !run.s);
    pos.upto = Math.max(pos.upto, index + 1);
    if (run.s) continue;
    const token = label ? `[${escapeLabel(label)}](${uid})` : `[${uid}]`;
    if (out && !/[\s([]$/.test(out) && !((run.g ?? 0) & 1 && after === "")) out += " ";
    out += token;
    after = (run.g ?? 0) & 2 && label ? "glued" : "token";
  }
  return squash(out).split("\n").map((l) => l.trim()).join("\n").trim();
}

/** @param {string} s */
const cell = (s) => s.replace(/\s+/g, " ").replace(/\|/g, "\\|").trim();

/**
 * Render walker blocks as markdown lines.
 * @param {any[]} blocks
 * @param {Place} place
 * @returns {Line[]}
 */
export function renderBlocks(blocks, place) {
  /** @type {Line[]} */
  const lines = [];
  const pos = { upto: 0 };
  /** @param {string} text @param {Line["row"]} [row] */
  const push = (text, row) => lines.push(row ? { text, upto: pos.upto, row } : { text, upto: pos.upto });
  /** @param {Run[]} runs */
  const inline = (runs) => renderRuns(runs, place, pos);

  /** @param {any[]} list @param {string} indent */
  const emit = (list, indent) => {
    for (const b of list) {
      if (b.p) {
        for (const line of inline(b.p).split("\n")) if (line) push(indent + line);
      } else if (b.h) {
        const text = inline(b.c).replace(/\n/g, " ");
        if (text) push(`${indent}${"#".repeat(b.h)} ${text}`);
      } else if (b.l !== undefined) {
        b.i.forEach((/** @type {any[]} */ item, /** @type {number} */ n) => {
          const marker = b.l ? `${n + 1}. ` : "- ";
          const start = lines.length;
          emit(item, indent + " ".repeat(marker.length));
          const first = lines[start];
          if (first) first.text = indent + marker + first.text.slice(indent.length + marker.length);
          else push(indent + marker.trim());
        });
      } else if (b.t) {
        table(b, indent);
      } else if (b.pre !== undefined) {
        push(`${indent}\`\`\``);
        for (const line of String(b.pre).replace(/\n+$/, "").split("\n")) push(indent + line);
        push(`${indent}\`\`\``);
      } else if (b.q) {
        const start = lines.length;
        emit(b.q, indent);
        for (const line of lines.slice(start)) line.text = `${indent}> ${line.text.slice(indent.length)}`;
      } else if (b.d !== undefined) {
        const name = b.d ? ` ${JSON.stringify(b.d)}` : "";
        push(b.m ? `${indent}[dialog${name}, modal: the page behind it is inert until it is closed]` : `${indent}[dialog${name}]`);
        emit(b.c, indent);
        push(`${indent}[end of dialog]`);
      } else if (b.note) {
        push(`${indent}[${b.note}]`);
      } else if (b.ft !== undefined) {
        const more = b.more ? ` … ${b.more} more characters: extract with selector ${JSON.stringify(b.sel)}` : "";
        push(`${indent}[footer: ${squash(String(b.ft))}${more}]`);
      } else if (b.c) {
        const start = lines.length;
        emit(b.c, indent);
        if (b.o) for (const line of lines.slice(start)) line.frame ??= b.o;
      }
    }
  };

  /** @param {any} b @param {string} indent */
  const table = (b, indent) => {
    const width = Math.max(...b.t.map((/** @type {any[]} */ r) => r.length - 1));
    /** @param {any[]} row */
    const rowText = (row) => {
      const cells = row.slice(1).map((/** @type {Run[]} */ runs) => cell(inline(runs)));
      while (cells.length < width) cells.push("");
      return `${indent}| ${cells.join(" | ")} |`;
    };
    b.t.forEach((/** @type {any[]} */ row, /** @type {number} */ n) => {
      push(rowText(row), b.sel && !(n === 0 && b.hd) ? { sel: b.sel, i: row[0] } : undefined);
      if (n === 0) push(`${indent}|${" --- |".repeat(width)}`);
    });
  };

  emit(blocks, "");
  return collapseBlank(lines);
}

/**
 * Drop blank lines at the ends and runs of more than one.
 * @param {Line[]} lines
 */
function collapseBlank(lines) {
  /** @type {Line[]} */
  const out = [];
  for (const line of lines) {
    const blank = !line.text.trim();
    if (blank && (!out.length || !out[out.length - 1].text.trim())) continue;
    out.push(blank ? { ...line, text: "" } : line);
  }
  while (out.length && !out[out.length - 1].text.trim()) out.pop();
  return out;
}
