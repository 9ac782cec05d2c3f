"""The extract bench's 1,000-element page, side by side: this tree against other trees, alternating, in one run.

A shared, loaded machine moves absolute times by 2x from one run to the next, so a change to the walk's speed is
judged by ratios of runs taken in turn. Each round runs every tree once, in the tree's own venv and with its own
extension (a fresh browser and core per run, as `make bench` makes them): bench/extract_bench.py measure() on
/extract/mixed.html?n=1000, its warm extracts' p50 and its first-after-the-load p50. The trees' order turns each
round so that neither always runs second. Printed: per tree the medians of the rounds' p50s and their IQR, and per
other tree the median and IQR of the paired ratios (other / this), warm and first.

`python -m bench.side_by_side /work/wt/old [--rounds N] [--runs N]`: a tree is a worktree with its venv set up
(`make venv` and `pip install -e '.[test,bench]'`); the first tree is this one.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Runs inside the measured tree (its own venv, its own bench/extract_bench.py): older trees launch the browser
# and wait for the extension's bridge themselves, newer ones through tests/harness/browser.py.
ONE_RUN = """
import json, statistics, sys, tempfile
from pathlib import Path
from urllib.parse import urljoin
from app.core.background import CoreThread
from bench.extract_bench import measure
from tests.harness.fixture_server import FixtureServer

runs = int(sys.argv[1])
server = FixtureServer()
with tempfile.TemporaryDirectory(prefix="bua-bench-side-") as tmp:
    core = CoreThread(Path(tmp) / "home")
    try:
        from tests.harness.browser import start_connected_browser
        browser, bridge = start_connected_browser(core, Path(tmp) / "profile")
    except ImportError:
        from app.browser.launch import launch_browser
        browser = launch_browser(core.home, headless=True, user_data_dir=Path(tmp) / "profile")
        bridge = core.call(core.pool.wait_for_bridge(45), timeout=50)
    try:
        m = measure(core, bridge, urljoin(server.url("/index.html"), "/extract/mixed.html?n=1000"), 1000, runs)
    finally:
        browser.stop()
        core.stop()
        server.stop()
print(json.dumps({"warm": statistics.median(m.warm) * 1000, "first": statistics.median(m.first) * 1000}))
"""


def one_run(tree: Path, runs: int) -> dict[str, float]:
    """p50 of warm and of first-after-the-load extracts (ms) of one measure() in `tree`."""
    out = subprocess.run([str(tree / ".venv" / "bin" / "python"), "-c", ONE_RUN, str(runs)], cwd=tree, check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def spread(values: list[float]) -> str:
    """Median and IQR of a few values."""
    if len(values) < 2:
        return f"{values[0]:.3g}"
    q1, q2, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return f"{q2:.3g} (IQR {q1:.3g}-{q3:.3g})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.side_by_side", description=__doc__.split("\n")[0])
    parser.add_argument("trees", nargs="+", type=Path, help="other worktrees to compare with this one")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--runs", type=int, default=20, help="warm extracts per measure()")
    args = parser.parse_args(argv)
    trees = [ROOT, *[t.resolve() for t in args.trees]]
    results: dict[Path, list[dict[str, float]]] = {t: [] for t in trees}
    for r in range(args.rounds):
        order = trees[r % len(trees):] + trees[: r % len(trees)]
        for tree in order:
            results[tree].append(one_run(tree, args.runs))
            print(f"round {r + 1} {tree.name}: {json.dumps(results[tree][-1])}", file=sys.stderr, flush=True)
    for tree in trees:
        print(f"{tree}: warm {spread([x['warm'] for x in results[tree]])} ms, "
              f"first {spread([x['first'] for x in results[tree]])} ms")
    for tree in trees[1:]:
        for kind in ("warm", "first"):
            ratios = [o[kind] / t[kind] for o, t in zip(results[tree], results[ROOT], strict=True)]
            print(f"{tree.name} / {ROOT.name}, {kind}: {spread(ratios)}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
