"""What each part of the visibility judgement costs the walk, side by side in one run.

The library is installed once as it is and once per part with that part switched off (the way
bench/visibility_cost.py switches the whole rendering part off), and the walks of the copies alternate on the
bench page, each call in a task of its own. Per part: the paired median of (walk with the part off) / (walk with
everything on), on the renderer main thread's CPU clock and on the wall clock; 1 - ratio is the part's share of the
walk. The parts overlap (a text's verdict needs its boxes first), so the shares do not add up to the whole.

`python -m bench.judgement_parts [--runs N] [--page N]`: where to look before making the judgement faster. Switching a
part off changes what the walk keeps (that is the point of measuring it), so only the timing is compared here;
bench/visibility_cost.py --against REV compares outputs.

`--lists [--against REV]`: what building each document-wide list costs, in one task per sample, each list after the
ones before it (so a list's time is its own reads, not the scan's): the scan (page-scan.js), the decorations
(page-decor.js), the opaque layers (page-paint-order.js paintersOf) and the pictures the pixels judge
(page-pixels.js); with --against, the same for revision REV's library, alternating (p50 of each, ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path
from urllib.parse import urljoin

from app.browser.launch import find_binary
from bench.visibility_cost import (
    OPEN,
    WALK,
    Calls,
    _alternate,
    _bench_browser,
    _page_at,
    _World,
    extension_at,
    library_source,
)

PARTS_OFF: dict[str, str | None] = {
    "everything on": None,
    "a text's verdict (boxes, legibility, covering)": '(lib) => { lib.textSeen = () => ""; }',
    "  its covering (hit tests, boxes met, negative layers)":
        '(lib) => { lib.coveredBy = () => ""; lib.coveredByPainters = () => false; lib.belowAncestor = () => false; }',
    "  its legibility (glyph size, clip, off-screen)": '(lib) => { lib.boxesShow = () => ""; lib.shownParts = () => []; }',
    "render contexts (opacity, filters, clips, transforms)":
        f'(lib) => {{ lib.renderContext = () => ({{ alpha: 1, blur: 0, at: {OPEN}, abs: null, hidden: "" }}); }}',
    "colours against what is painted behind": """(lib) => { lib.textVisibility = (el, cs, ns, st, unseen = "") => {
      ns.rc = lib.renderContext(el, cs, st); ns.bg = null; ns.picture = null; ns.unseen = unseen || st.unseen || "";
      ns.hideText = ns.unseen; }; }""",
    "boxes that paint over text (noted, scanned)":
        '(lib) => { lib.notePainter = () => {}; lib.coveredLater = () => new Set(); lib.paintersOf = () => []; }',
}


def _paired(part: list[float], whole: list[float]) -> float:
    ratios = sorted(a / b for a, b in zip(part, whole, strict=False) if b)
    return statistics.median(ratios) if ratios else float("nan")


def measure(url: str, runs: int) -> dict[str, Calls]:
    """Walk samples of each copy of the library (PARTS_OFF), alternating on the page at `url`."""
    from playwright.sync_api import sync_playwright

    source = library_source()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page()
            page.goto(url)
            world = _World(browser, page)
            copies = {name: world.install(source, patch) for name, patch in PARTS_OFF.items()}
            calls = {name: Calls() for name in PARTS_OFF}
            _alternate(world, runs, [(WALK.format(i=i), calls[name]) for name, i in copies.items()])
            return calls
        finally:
            browser.close()


LIST_NAMES = ("scan", "decorations", "opaque layers", "pixels' pictures")
LISTS = """(() => {{
  const lib = globalThis.__libs[{i}];
  const spot = [{{ l: 0, t: 0, r: 1, b: 1 }}];
  const t = [performance.now()];
  lib.renderedScan(window); t.push(performance.now());
  lib.decorationCovers(document.body, spot, window, document.body); t.push(performance.now());
  lib.paintersOf(window); t.push(performance.now());
  lib.pixelAsk(document.createTextNode("x"), spot, window); t.push(performance.now());
  return t.slice(1).map((v, k) => v - t[k]);
}})()"""


def lists(url: str, runs: int, against: str | None) -> dict[str, list[list[float]]]:
    """Per library (this tree's, and REV's when given): each sample's build time of each list, alternating."""
    with tempfile.TemporaryDirectory(prefix="bua-lists-") as tmp:
        sources = {"this tree": library_source()}
        if against:
            sources[against] = library_source(extension_at(against, Path(tmp)))
        with _bench_browser() as browser, _page_at(browser, url) as world:
            index = {name: world.install(source) for name, source in sources.items()}
            out: dict[str, list[list[float]]] = {name: [] for name in index}
            for _ in range(runs):
                for name, i in index.items():
                    out[name].append(world.evaluate(LISTS.format(i=i)))
            return out


def _main(argv: list[str]) -> int:
    from tests.harness.fixture_server import FixtureServer

    parser = argparse.ArgumentParser(prog="python -m bench.judgement_parts", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--page", type=int, default=1000, help="element count of the bench page")
    parser.add_argument("--lists", action="store_true", help="the document-wide lists' build times instead")
    parser.add_argument("--against", help="with --lists: a git revision whose library to alternate with (e.g. main)")
    args = parser.parse_args(argv)
    server = FixtureServer()
    try:
        url = urljoin(server.url("/index.html"), f"/extract/mixed.html?n={args.page}")
        if args.lists:
            print(f"{args.page:,}-element page, {args.runs} builds per library, alternating (p50 ms)")
            for name, samples in lists(url, args.runs, args.against).items():
                columns = zip(LIST_NAMES, zip(*samples, strict=True), strict=True)
                cells = "  ".join(f"{label} {statistics.median(column):6.2f}" for label, column in columns)
                print(f"  {name:>12}: {cells}")
            return 0
        calls = measure(url, args.runs)
    finally:
        server.stop()
    whole = calls["everything on"]
    print(f"{args.page:,}-element page, {args.runs} walks per copy, alternating "
          f"(walk p50: cpu {statistics.median(whole.cpu) if whole.cpu else float('nan'):.1f} ms, "
          f"wall {statistics.median(whole.wall):.1f} ms)")
    for name, c in calls.items():
        if c is whole:
            continue
        cpu = 1 - _paired(c.cpu, whole.cpu) if c.cpu and whole.cpu else float("nan")
        wall = 1 - _paired(c.wall, whole.wall)
        print(f"  {name:56} share of the walk: cpu {100 * cpu:5.1f}%  wall {100 * wall:5.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
