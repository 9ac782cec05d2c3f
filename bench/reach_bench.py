"""Fewer round trips: `find` against a full `extract` on the generated 1,000- and 10,000-element pages (time and
the size of what the model receives), and one `fill` of a form against the `type` calls it replaces (the sign-up
fixture: two text fields, a select, a textarea), all through the whole pipe on the app's loop."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urljoin

from bench.live import live_browser
from bench.report import Report, Row

PAGES = {1000: "/extract/mixed.html?n=1000", 10000: "/extract/mixed.html?n=10000"}
FIELDS = [("#name", "Ada Lovelace"), ("#email", "ada@example.org"), ("#plan", "Pro"), ("#about", "Hello there")]


def run(report: Report, fixture_url: str, runs: int = 15) -> None:
    with live_browser("bua-bench-reach-") as (core, _browser, _bridge):
        def act(action: dict[str, Any], task: str) -> tuple[float, Any]:
            started = time.perf_counter()
            response = core.call(core.pool.request(action, task))
            elapsed = time.perf_counter() - started
            assert response.ok, response.error
            return elapsed, response.result

        for n, path in PAGES.items():
            task = f"bench-reach-{n}"
            act({"type": "navigate", "url": urljoin(fixture_url, path)}, task)
            label = f"{n:,}-element page"
            queries = {"extract (default budget)": {"type": "extract"},
                       "find text (one match)": {"type": "find", "text": "Ada Lovelace 3 "},
                       "find role+name (20 of many)": {"type": "find", "role": "button", "name": "View"},
                       # a script role: every element decided as extract's walker would (page-controls.js)
                       "find script role (clickable)": {"type": "find", "role": "clickable"}}
            for name, action in queries.items():
                act(action, task)
                samples, size = [], 0
                for _ in range(runs):
                    elapsed, result = act(action, task)
                    samples.append(elapsed)
                    size = len(json.dumps(result, ensure_ascii=False))
                report.add(Row.timing("reach", f"{name}, {label}", samples, note=f"{size:,} chars to the model"))

        task = "bench-reach-fill"
        act({"type": "navigate", "url": urljoin(fixture_url, "/actions/fill.html")}, task)
        fill = {"type": "fill", "fields": [{"selector": s, "value": v} for s, v in FIELDS]}
        one, several = [], []
        for _ in range(runs):
            one.append(act(fill, task)[0])
            started = time.perf_counter()
            for selector, value in FIELDS:
                act({"type": "type", "selector": selector, "text": value, "clear": True}, task)
            several.append(time.perf_counter() - started)
        fill_row = report.add(Row.timing("reach", f"fill of {len(FIELDS)} fields, one call", one))
        type_row = report.add(Row.timing("reach", f"the same as {len(FIELDS)} type calls", several))
        report.add(Row("reach", "fill / type calls (p50)", runs, value=round(fill_row.p50_ms / type_row.p50_ms, 2),
                       unit="x", note=f"{len(FIELDS)} model round trips become 1"))
