"""`python -m bench [suite …]`: runs the suites, prints the table, writes bench/results/*.json."""

from __future__ import annotations

import sys

from bench import (
    agent_bench,
    click_bench,
    corpus_bench,
    extract_bench,
    flagger_bench,
    mcp_bench,
    nethold_bench,
    page_log_bench,
    peers_bench,
    pipe_bench,
    reach_bench,
    result_size_bench,
    safety_bench,
    soak_bench,
    stop_bench,
    ui_bench,
)
from bench.report import Report
from tests.harness.fixture_server import FixtureServer

SUITES = {
    "pipe": pipe_bench.run,
    "click": click_bench.run,
    "extract": extract_bench.run,
    "stop": stop_bench.run,
    "agent": agent_bench.run,
    "ui": ui_bench.run,
    "mcp": mcp_bench.run,
    "soak": soak_bench.run,
    "pagelog": page_log_bench.run,
    "reach": reach_bench.run,
    "safety": safety_bench.run,
    "flagger": flagger_bench.run,
    "nethold": nethold_bench.run,
    "corpus": corpus_bench.run,
    "peers": peers_bench.run,
    "results": result_size_bench.run,
}


def main(argv: list[str]) -> int:
    chosen = argv or list(SUITES)
    report = Report()
    server = FixtureServer()
    try:
        for name in chosen:
            print(f"running {name} …", file=sys.stderr, flush=True)
            SUITES[name](report, server.url("/index.html"))
    finally:
        server.stop()
    print(report.render())
    print(f"\nwritten: {report.write()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
