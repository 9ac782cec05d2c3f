"""extract on generated pages with about 100, 1,000 and 10,000 interactive elements.

Per page: extract time through the whole pipe (app → host → extension → CDP → back; p50/p95 of
warm runs; of the first extract after each of 5 loads, when the page may still be laying out; of the first
extract after 5 loads followed by a second of quiet, which is bua's own cold cost in a new document; and of
the navigations themselves), the size of everything the model receives from
one extract (the browser tool's JSON `{ok, action, result}` as app/agent/results.py renders it) in
characters and estimated tokens (chars / 4), the page's raw HTML (serialised DOM) size, and
Playwright's `aria_snapshot()` of the same page in the same Chromium binary.

What the visibility judgement from the rendering costs (bench/visibility_cost.py): the in-page walk (extract) and
search (find) of the 1,000- and 10,000-element pages timed with it and with its rendering part off, alternating in
one run, on the wall clock and in the renderer's main-thread CPU time; its cost per extract and per find (ms, and
its share of the warm extract through the whole pipe); and the work one extract does with it (computed-property
reads, text boxes, element boxes, hit tests), which the machine's load does not change.

Where the warm 1,000-element extract's time goes, on the same calls (bench/extract_parts.py): the in-page walk by
its own clock in the page, the library's other calls, the extension's JavaScript (CDP Profiler of the worker), and
the messages between them (CDP, native host, socket, app), each with its share of the whole.

The same 1,000- and 10,000-element pages with a click listener on every candidate's name cell (`&listen=1`):
extract time when script-clickable detection has listeners to map (first extract after the load, then warm).

Goals (issue 18 "Speed stays"): the warm 1,000-element extract under 100 ms (p50) and the first after the load
under 300 ms (p50), also with a listener per row; what the model receives at most 0.75x the aria snapshot on every
page; at equal information (the full budget, where the page fits in it whole) at most 0.5x.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urljoin

from app.browser.launch import find_binary
from app.core.background import CoreThread
from app.demo.scripted_model.elements import elements, index_line
from bench.extract_parts import FIRST_PARTS, Parts, first_parts, warm_parts
from bench.report import Report, Row
from bench.visibility_cost import PageCost, judgement_cost
from tests.harness.actions import pool_request
from tests.harness.browser import start_connected_browser
from tests.harness.cdp_pipe import CdpPipe

PAGES = {100: "/extract/mixed.html?n=100", 1000: "/extract/mixed.html?n=1000", 10000: "/extract/mixed.html?n=10000"}
LISTEN_PAGES = {1000: "/extract/mixed.html?n=1000&listen=1", 10000: "/extract/mixed.html?n=10000&listen=1"}
RUNS = 20
SIZE_RATIO_LIMIT = 0.75
FULL_SIZE_RATIO_LIMIT = 0.5
WARM_LIMIT_MS = 100.0
FIRST_LIMIT_MS = 300.0
MAX_CHARS = 200_000
FIRST_RUNS = 5
PARTS_PAGES = {"1,000-element page": PAGES[1000], "1,000-element page, a click listener per row": LISTEN_PAGES[1000]}


@dataclass
class Measured:
    warm: list[float]
    first: list[float]
    first_quiet: list[float]
    loads: list[float]
    chars: int
    elements: int
    """elements (uids) the index lists: a region's line lists many"""
    full_chars: int
    full_complete: bool


def listed_elements(index: str) -> int:
    """The elements (uids) an extract's index lists: one per line of its own (`e4 button "View"`), each uid of a
    facts line (`e4 e5 e6 button`: three), and every link of a region's line (`navigation "Main": [Jobs](e1)
    [Reports](e3) [e4]`: three)."""
    return sum(len(index_line(line)) for line in index.splitlines())


def model_facing(result: dict) -> str:
    """The browser tool's output for one extract, as the model receives it."""
    return json.dumps({"ok": True, "action": "extract", "result": result}, ensure_ascii=False, separators=(",", ":"))


def aria_sizes(urls: dict[int, str]) -> dict[int, tuple[int, int]]:
    """(aria snapshot chars, serialised HTML chars) per page, from Playwright on the same Chromium."""
    from playwright.sync_api import sync_playwright

    sizes: dict[int, tuple[int, int]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_binary(), args=["--no-sandbox", "--headless=new"])
        try:
            page = browser.new_page()
            for n, url in urls.items():
                page.goto(url)
                snapshot = page.locator("body").aria_snapshot(timeout=180_000)
                sizes[n] = (len(snapshot), len(page.content()))
        finally:
            browser.close()
    return sizes


def run(report: Report, fixture_url: str, runs: int = RUNS) -> None:
    urls = {n: urljoin(fixture_url, path) for n, path in PAGES.items()}
    with tempfile.TemporaryDirectory(prefix="bua-bench-extract-") as tmp:
        core = CoreThread(Path(tmp) / "home")
        browser, bridge = start_connected_browser(core, Path(tmp) / "profile")
        try:
            measured = {n: measure(core, bridge, url, n, runs) for n, url in urls.items()}
            listening = {n: measure_listeners(core, bridge, urljoin(fixture_url, path), n, runs)
                         for n, path in LISTEN_PAGES.items()}
            parts = {label: measure_parts(core, bridge, browser.cdp, urljoin(fixture_url, path), runs,
                                          f"bench-extract-parts-{i}")
                     for i, (label, path) in enumerate(PARTS_PAGES.items())}
        finally:
            browser.stop()
            core.stop()
    reference = aria_sizes(urls)
    judged = judgement_cost({n: urls[n] for n in (1000, 10000)}, runs)
    for n, cost in judged.items():
        judgement_rows(report, n, cost, statistics.median(measured[n].warm) * 1000)
    for label, measured_parts in parts.items():
        parts_rows(report, label, measured_parts)
    for n, m in measured.items():
        aria, html = reference[n]
        chars, full_chars = m.chars, m.full_chars
        label = f"{n:,}-element page"
        warm = report.add(Row.timing("extract", f"extract, {label} (warm)", m.warm,
                                     note=f"{m.elements} elements listed"))
        first = report.add(Row.timing("extract", f"extract, {label}, first after the load", m.first,
                              note="the page may still be laying out"))
        report.add(Row.timing("extract", f"extract, {label}, first, 1 s after the load", m.first_quiet,
                              note="bua's own cold cost"))
        report.add(Row.timing("extract", f"navigate to the {label} (to its load event)", m.loads))
        report.add(Row("extract", f"model receives, {label}", 1, value=chars, unit="chars",
                       note=f"~{chars // 4:,} tokens"))
        report.add(Row("extract", f"aria_snapshot (Playwright), {label}", 1, value=aria, unit="chars",
                       note=f"~{aria // 4:,} tokens"))
        report.add(Row("extract", f"raw HTML, {label}", 1, value=html, unit="chars", note=f"~{html // 4:,} tokens"))
        report.add(Row("extract", f"model receives / aria snapshot, {label}", 1, value=round(chars / aria, 3), unit="x"))
        report.add(Row("extract", f"  same with max_chars={MAX_CHARS:,}, {label}", 1, value=round(full_chars / aria, 3),
                       unit="x", note=f"{full_chars:,} chars"))
        report.goal(f"what the model receives <= {SIZE_RATIO_LIMIT}x aria snapshot ({label})", chars / aria,
                    SIZE_RATIO_LIMIT, "x")
        if m.full_complete:
            report.goal(f"at equal information (max_chars={MAX_CHARS:,}, whole page) <= {FULL_SIZE_RATIO_LIMIT}x aria "
                        f"snapshot ({label})", full_chars / aria, FULL_SIZE_RATIO_LIMIT, "x")
        if n == 1000:
            report.goal(f"warm extract of the {label} under {WARM_LIMIT_MS:.0f} ms (p50)", warm.p50_ms, WARM_LIMIT_MS, "ms")
            report.goal(f"first extract after the load of the {label} under {FIRST_LIMIT_MS:.0f} ms (p50)",
                        first.p50_ms, FIRST_LIMIT_MS, "ms")

    for n, (first_runs, warm_runs, clickables) in listening.items():
        label = f"{n:,}-element page, a click listener per row"
        first = report.add(Row.timing("extract", f"extract, {label}, first after the load", first_runs,
                                      note=f"{clickables} script-clickable cells listed"))
        warm = report.add(Row.timing("extract", f"extract, {label} (warm)", warm_runs))
        if n == 1000:
            report.goal(f"warm extract of the {label} under {WARM_LIMIT_MS:.0f} ms (p50)", warm.p50_ms, WARM_LIMIT_MS, "ms")
            report.goal(f"first extract after the load of the {label} under {FIRST_LIMIT_MS:.0f} ms (p50)",
                        first.p50_ms, FIRST_LIMIT_MS, "ms")


def measure_parts(core: CoreThread, bridge: Any, cdp: CdpPipe, url: str, runs: int,
                  task: str) -> tuple[Parts, tuple[list[float], dict[str, list[float]]]]:
    """The warm extracts of a tab of its own, and its first extracts after FIRST_RUNS loads, split into their parts
    (bench/extract_parts.py). The tab's URL gets a query parameter of its own (the page ignores it): the clocks find
    its page by URL, and other tabs show the same pages. Not a fragment: loading the same URL with a fragment again
    would only scroll, not load a new document."""
    url = f"{url}{'&' if '?' in url else '?'}bench={task}"
    tab_id = timed_call(core, bridge, task, {"type": "navigate", "url": url})[1]["tab_id"]
    timed_call(core, bridge, task, {"type": "extract", "tab_id": tab_id})
    warm = warm_parts(core, bridge, cdp, task, tab_id, url, runs)
    return warm, first_parts(core, bridge, cdp, task, tab_id, url, FIRST_RUNS)


def parts_rows(report: Report, label: str, measured: tuple[Parts, tuple[list[float], dict[str, list[float]]]]) -> None:
    """Where the warm extract's time goes (same calls): the in-page walk, the library's other calls, the
    extension's own JavaScript, and the messages between them (CDP, native host, socket, app); and where the first
    extract after the load spends the page's main thread."""
    parts, (first_pipe, first) = measured
    report.add(Row.timing("extract", f"first extract after the load, {label}, profiled: the whole pipe",
                          [ms / 1000 for ms in first_pipe], note="the page's CDP Profiler on"))
    first_whole = statistics.median(first_pipe)
    for name in FIRST_PARTS:
        ms = statistics.median(first[name])
        report.add(Row("extract", f"  first extract after the load, {label}: {name}", 1, value=round(ms, 1), unit="ms",
                       note=f"{100 * ms / first_whole:.0f}% of the whole; sampled on the page's main thread"))
    report.add(Row.timing("extract", f"warm extract, {label}, split into parts: the whole pipe",
                          [ms / 1000 for ms in parts.pipe], note="bench/extract_parts.py, same calls"))
    whole = statistics.median(parts.pipe)
    walk = statistics.median(parts.walk)
    outside = statistics.median(parts.outside)
    messages = max(0.0, outside - parts.other_in_page - parts.worker_js)
    for name, ms, note in (
            ("in-page walk (page-walker.js and the judgement)", walk, "the walk's own clock in the page"),
            ("outside the walk", outside, "p50 of pipe minus walk, per call"),
            ("  the library's other calls (closed roots, listeners)", parts.other_in_page, "mean"),
            ("  the extension's JavaScript (collect, markdown, index, budget)", parts.worker_js,
             "mean, sampled by the worker's CDP Profiler"),
            ("  the messages (CDP, native host, socket, app)", messages, "what is left")):
        report.add(Row("extract", f"  warm extract, {label}: {name}", 1, value=round(ms, 1), unit="ms",
                       note=f"{100 * ms / whole:.0f}% of the whole; {note}"))


def judgement_rows(report: Report, n: int, cost: PageCost, warm_ms: float) -> None:
    """What the visibility judgement costs on one page: per extract (the walk) and per find (the search), with and
    without it, on both clocks; its share of the walk and of the warm extract through the whole pipe; the work."""
    label = f"{n:,}-element page"
    for action, on_calls, off_calls, whole in (("extract", cost.walk_on, cost.walk_off, warm_ms),
                                                ("find", cost.find_on, cost.find_off, None)):
        call = "in-page walk" if action == "extract" else 'in-page search (find text "Interview")'
        on = report.add(Row.timing("extract", f"{call}, {label}, with the visibility judgement",
                                   [ms / 1000 for ms in on_calls.wall],
                                   note=f"{cost.hidden} hidden chars" if action == "extract" else ""))
        off = report.add(Row.timing("extract", f"{call}, {label}, its rendering part off (same run)",
                                    [ms / 1000 for ms in off_calls.wall], note="bench/visibility_cost.py"))
        ms = on.p50_ms - off.p50_ms
        share = f"{100 * ms / on.p50_ms:.0f}% of the {'walk' if action == 'extract' else 'search'}"
        if whole:
            share += f", {100 * ms / whole:.0f}% of the warm extract"
        report.add(Row("extract", f"visibility judgement per {action}, {label}", 1, value=round(ms, 3), unit="ms",
                       note=share))
        if on_calls.cpu and off_calls.cpu:
            cpu_on, cpu_off = statistics.median(on_calls.cpu), statistics.median(off_calls.cpu)
            report.add(Row("extract", f"  same in renderer CPU time, {label}", 1, value=round(cpu_on - cpu_off, 3),
                           unit="ms", note=f"{cpu_on:.1f} ms with it, {cpu_off:.1f} ms without: "
                                           f"{100 * (cpu_on - cpu_off) / cpu_on:.0f}%"))
    for action, on_counts, off_counts in (("extract", cost.counts, cost.counts_off),
                                          ("find", cost.find_counts, cost.find_counts_off)):
        for kind, count in on_counts.items():
            report.add(Row("extract", f"  per {action} with the judgement, {label}: {kind}", 1, value=count,
                           unit="calls", note=f"{off_counts.get(kind, 0):,} without it"))


def timed_call(core: CoreThread, bridge, task: str, action: dict) -> tuple[float, dict]:
    """(seconds, result) of one action through the whole pipe."""
    start = time.perf_counter()
    response = core.call(pool_request(bridge, action, task), timeout=90)
    elapsed = time.perf_counter() - start
    assert response.ok, response.error
    return elapsed, response.result


def measure_listeners(core: CoreThread, bridge, url: str, n: int, runs: int) -> tuple[list[float], list[float], int]:
    """First extract after each of FIRST_RUNS loads (every listened cell is mapped then), warm extracts after, and
    how many script-clickable cells (`cell "Jane Doe 1"`) the last one listed (samples in seconds)."""
    task = f"bench-extract-listen-{n}"
    tab_id = None
    first, warm = [], []
    result: dict = {}
    for _ in range(FIRST_RUNS):
        navigate = {"type": "navigate", "url": url, **({"tab_id": tab_id} if tab_id else {})}
        tab_id = timed_call(core, bridge, task, navigate)[1]["tab_id"]
        first.append(timed_call(core, bridge, task, {"type": "extract", "tab_id": tab_id})[0])
    for _ in range(runs):
        elapsed, result = timed_call(core, bridge, task, {"type": "extract", "tab_id": tab_id})
        warm.append(elapsed)
    return first, warm, sum(1 for e in elements(result) if e.role == "cell")


def measure(core: CoreThread, bridge, url: str, n: int, runs: int) -> Measured:
    """Per page: warm samples, the first extract after each of FIRST_RUNS loads (and after loads followed by a
    second of quiet), the navigations' own times, model-facing chars, listed elements, and model-facing chars
    with the largest budget (samples in seconds)."""
    task = f"bench-extract-{n}"
    tab_id = None

    def load() -> float:
        nonlocal tab_id
        navigate = {"type": "navigate", "url": url, **({"tab_id": tab_id} if tab_id else {})}
        elapsed, result = timed_call(core, bridge, task, navigate)
        tab_id = result["tab_id"]
        return elapsed

    def extract(**extra) -> tuple[float, dict]:
        return timed_call(core, bridge, task, {"type": "extract", "tab_id": tab_id, **extra})

    loads = [load()]
    first = [extract()[0]]
    extract()
    samples = []
    for _ in range(runs):
        elapsed, result = extract()
        samples.append(elapsed)
    full = extract(max_chars=MAX_CHARS)[1]
    # More loads of the same tab after the sizes were taken: uids are never reused in a tab, so later
    # extracts of it carry longer uids.
    for _ in range(FIRST_RUNS - 1):
        loads.append(load())
        first.append(extract()[0])
    first_quiet = []
    for _ in range(FIRST_RUNS):
        load()
        time.sleep(1)
        first_quiet.append(extract()[0])
    return Measured(samples, first, first_quiet, loads, len(model_facing(result)), listed_elements(result["elements"]),
                    len(model_facing(full)), "note" not in full)
