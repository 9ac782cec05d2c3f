"""Where the extract walk spends its time, by in-page function: V8's sampling CPU profile of repeated walks.

The library is installed into an isolated world of the bench page (as bench/visibility_cost.py does), walked once
to warm it, then walked `--runs` times, each walk in a task of its own, under CDP Profiler. Per function: its own
time (samples in it, not in what it calls) and its total time (samples with it on the stack), as shares of the
walks' samples. The browser's own work a function asks for (a style read, a layout, a hit test) shows as that
function's own time: V8 samples JavaScript frames, and a native call counts to its caller.

`python -m bench.walk_profile [--runs N] [--page N] [--top N]`: where to look before making the walk faster; the
shares do not depend on the machine's load as much as times do.
"""

from __future__ import annotations

import argparse
import collections
import sys
from typing import Any
from urllib.parse import urljoin

from bench.visibility_cost import WALK, _bench_browser, _page_at, library_source


def _name(node: dict[str, Any]) -> str:
    frame = node["callFrame"]
    name = frame["functionName"] or "(anonymous)"
    return f"{name}:{frame['lineNumber'] + 1}" if frame["url"] == "" and frame["lineNumber"] >= 0 else name


def shares(profile: dict[str, Any]) -> tuple[dict[str, float], dict[str, float], int]:
    """Own and total sample shares per function name, and the samples counted (the idle and GC ones left out)."""
    nodes = {n["id"]: n for n in profile["nodes"]}
    parent: dict[int, int] = {}
    for n in profile["nodes"]:
        for child in n.get("children", []):
            parent[child] = n["id"]
    own: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    counted = 0
    for sample in profile.get("samples", []):
        name = _name(nodes[sample])
        if name in ("(idle)", "(program)", "(root)"):
            continue
        counted += 1
        own[name] += 1
        seen: set[str] = set()
        at: int | None = sample
        while at is not None:
            n = _name(nodes[at])
            if n not in seen:
                seen.add(n)
                total[n] += 1
            at = parent.get(at)
    return ({k: v / counted for k, v in own.items()}, {k: v / counted for k, v in total.items()}, counted)


def profile_walks(url: str, runs: int) -> dict[str, Any]:
    with _bench_browser() as browser, _page_at(browser, url) as world:
        i = world.install(library_source())
        world.evaluate(WALK.format(i=i))
        world.cdp.send("Profiler.enable")
        world.cdp.send("Profiler.setSamplingInterval", {"interval": 100})
        world.cdp.send("Profiler.start")
        for _ in range(runs):
            world.evaluate(WALK.format(i=i))
        return world.cdp.send("Profiler.stop")["profile"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.walk_profile", description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--page", type=int, default=1000, help="elements on the bench page")
    parser.add_argument("--top", type=int, default=40)
    args = parser.parse_args(argv)
    from tests.harness.fixture_server import FixtureServer

    server = FixtureServer()
    try:
        url = urljoin(server.url("/index.html"), f"/extract/mixed.html?n={args.page}")
        own, total, counted = shares(profile_walks(url, args.runs))
    finally:
        server.stop()
    print(f"{args.runs} walks of the {args.page}-element page, {counted} samples of 0.1 ms")
    print(f"{'function':<48} {'own %':>7} {'total %':>8}")
    for name, share in sorted(own.items(), key=lambda kv: -kv[1])[: args.top]:
        print(f"{name[:48]:<48} {share * 100:7.1f} {total[name] * 100:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
