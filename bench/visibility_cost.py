"""What the visibility judgement from the rendering (issue 18) costs per extract, side by side in one run.

The in-page library (extension/src/extract/run-in-page.js INSTALL_SOURCE, printed by node) is installed into the
page's main world by Playwright on the same Chromium, and its walk is timed on the same page, alternating: with the
judgement, and with its rendering part switched off (no text boxes, clipping, hit testing or covering boxes per
text node: lib.textSeen answers "", lib.renderContext a context that clips nothing, lib.coveredLater nothing). The
difference is the judgement's cost; alternating runs make it a fair comparison on a loaded machine. Timed inside
the page (performance.now around lib.walk): the pipe around it (CDP, host, app) is the same either way.

Why in-page geometry and hit testing rather than CDP DOMSnapshot.captureSnapshot (measured 2026-12-01 on this
machine, loaded by other work, same Chromium): captureSnapshot with the styles, paint order, rects, blended
backgrounds and text colour opacities took 285 ms (1.1 MB) on the 1,000-element page and 3.5 s (11 MB) on the
10,000-element one, while main's whole in-page walk took 34-52 ms and this branch's 74-97 ms on the first.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from app.browser.launch import find_binary

EXTENSION = Path(__file__).resolve().parents[1] / "extension"

TIMED = """(runs) => {
  const lib = globalThis.__bua;
  const judged = { textSeen: lib.textSeen, renderContext: lib.renderContext, coveredLater: lib.coveredLater };
  const open = { clip: { l: -Infinity, t: -Infinity, r: Infinity, b: Infinity }, freeX: false, freeY: false, fixed: false };
  const plain = {
    textSeen: () => "",
    renderContext: () => ({ alpha: 1, blur: 0, at: open, abs: null, hidden: "" }),
    coveredLater: () => new Set(),
  };
  const time = (parts) => {
    Object.assign(lib, parts);
    const start = performance.now();
    const out = lib.walk({ limit: 24000 });
    const ms = performance.now() - start;
    Object.assign(lib, judged);
    return [ms, JSON.parse(out).hidden];
  };
  const on = [];
  const off = [];
  let hidden = 0;
  time(judged);
  for (let i = 0; i < runs; i++) {
    const [ms, h] = time(judged);
    on.push(ms);
    hidden = h;
    off.push(time(plain)[0]);
  }
  return { on, off, hidden };
}"""


def library_source(extension: Path = EXTENSION) -> str:
    """The library's install function, as the extension (this tree's, or another version's) sends it."""
    script = "import('./src/extract/run-in-page.js').then((m) => process.stdout.write(m.INSTALL_SOURCE))"
    return subprocess.run(["node", "-e", script], cwd=extension, check=True, capture_output=True, text=True).stdout


def judgement_cost(urls: dict[int, str], runs: int) -> dict[int, dict]:
    """{n: {on: [ms], off: [ms], hidden}} per page: walk times with and without the rendering judgement."""
    from playwright.sync_api import sync_playwright

    source = library_source()
    out: dict[int, dict] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page()
            for n, url in urls.items():
                page.goto(url)
                page.evaluate(f"({source})()")
                out[n] = page.evaluate(TIMED, runs)
        finally:
            browser.close()
    return out


if __name__ == "__main__":  # quick look: python -m bench.visibility_cost URL
    import sys

    print(json.dumps(judgement_cost({0: sys.argv[1]}, 5)))
