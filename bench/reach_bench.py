"""Fewer round trips: `find` against a full `extract` on the generated 1,000- and 10,000-element pages (time and
the size of what the model receives), and one `fill` of a form against the `type` calls it replaces (the sign-up
fixture: two text fields, a select, a textarea), all through the whole pipe on the app's loop; and what find's visibility judgement costs a search in the page
(issue 18: the walker's judgement, extract/page-seen.js, against the rules it replaced, interleaved in one run)."""

from __future__ import annotations

import json
import time
from typing import Any, Callable
from urllib.parse import urljoin

from bench.live import live_browser
from bench.report import Report, Row, interleaved
from tests.harness.actions import pool_request

PAGES = {1000: "/extract/mixed.html?n=1000", 10000: "/extract/mixed.html?n=10000"}
FIELDS = [("#name", "Ada Lovelace"), ("#email", "ada@example.org"), ("#plan", "Pro"), ("#about", "Hello there")]


# The judgement find used before issue 18 (checkVisibility, innerText), put in for one search at a time so the
# same search is timed both ways, interleaved, in one run: what seeing as extract's walker does costs a find.
_RULE_JUDGEMENT = """{
  seenState: (el) => (el.checkVisibility({ visibilityProperty: true }) && !el.closest("[aria-hidden='true']") ? {} : null),
  textShows: () => true,
  shownText: (el) => String(el.innerText ?? el.textContent ?? "").replace(/\\s+/g, " ").trim(),
}"""
_TIME_SEARCH = """(query, rules) => {
  const lib = globalThis.__bua;
  const saved = { seenState: lib.seenState, textShows: lib.textShows, shownText: lib.shownText };
  if (rules) Object.assign(lib, %s);
  try {
    const started = performance.now();
    lib.search(query);
    return performance.now() - started;
  } finally {
    Object.assign(lib, saved);
  }
}""" % _RULE_JUDGEMENT
FIND_QUERIES = {"text": {"text": "Ada Lovelace 3 ", "limit": 20}, "role+name": {"role": "button", "name": "View", "limit": 20}}


def find_visibility_cost(report: Report, browser: Any, url_part: str, label: str, runs: int) -> None:
    """In the page (bua's world of the task's tab, over the browser's own CDP pipe): lib.search timed with the
    walker's judgement (page-seen.js) and with the rules it replaced, interleaved, p50 side by side."""
    cdp = browser.cdp
    target = next(t for t in cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "page" and url_part in t["url"])
    session = cdp.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
    try:
        frame = cdp.send("Page.getFrameTree", {}, session)["frameTree"]["frame"]["id"]
        world = cdp.send("Page.createIsolatedWorld", {"frameId": frame, "worldName": "bua"}, session)["executionContextId"]

        def sample(query: dict[str, Any], rules: bool) -> Callable[[], float]:
            def once() -> float:
                reply = cdp.send("Runtime.evaluate", {"expression": f"({_TIME_SEARCH})({json.dumps(query)}, {json.dumps(rules)})",
                                                      "contextId": world, "returnByValue": True}, session)
                return float(reply["result"]["value"]) / 1000
            return once

        for name, query in FIND_QUERIES.items():
            series = interleaved({"seen": sample(query, False), "rules": sample(query, True)}, runs)
            seen = report.add(Row.timing("reach", f"find {name} in page, walker's judgement, {label}", series["seen"]))
            rules = report.add(Row.timing("reach", f"find {name} in page, former rules, {label}", series["rules"]))
            judged, former = seen.p50_ms or 0.0, rules.p50_ms or 0.0
            report.add(Row("reach", f"find {name} visibility cost (p50), {label}", runs,
                           value=round(judged / former, 2) if former else None, unit="x",
                           note=f"{judged - former:+.2f} ms a search"))
    finally:
        cdp.send("Target.detachFromTarget", {"sessionId": session})


def run(report: Report, fixture_url: str, runs: int = 15) -> None:
    with live_browser("bua-bench-reach-") as (core, browser, _bridge):
        def act(action: dict[str, Any], task: str) -> tuple[float, Any]:
            started = time.perf_counter()
            response = core.call(pool_request(core.pool, action, task))
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
            find_visibility_cost(report, browser, path, label, runs)

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
