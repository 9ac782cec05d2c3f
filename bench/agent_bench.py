"""Main-thread tokens for the seed scenario: builtin browser subagent vs ENABLE_BUILTIN_BROWSER_SUBAGENT=false.

Same core, browser, site and scripted model in one run; 3, 10 and 30
candidates. "Main-thread input tokens" = the prompt characters / 4 of every
call the main agent makes (as the scripted server counts them), plus the
SDK's usage fields (input + cache read + cache write) as reported back.

Subagent input is also priced as the API bills it (plain input 1×, cache
writes 1.25×, cache reads 0.1×: Usage.billed_input), from the scripted
server's cache simulation (which looks back 20 blocks for an earlier cached
prefix, as the API does).

Change lists: the subagent's billed input with change lists offered (the
default: the policy reads the panel from a click's or an extract's change
list) against the same scenario with them off (`change_lists=False`: full and
scoped extracts, as before), both with the default budgets, for a first task
on a cold prompt cache and for the person's next task (the subagent's system
prompt and tools already cached, as for every task but the first within the
cache's lifetime); and the size of a click result carrying its change list
against the full extract that a model would otherwise make after it: the
full extracts that come right after a click in the run without change lists
(the policy extracts the list page again after closing each panel), median.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from itertools import pairwise
from pathlib import Path
from typing import Callable

from app.agent.usage import Usage
from app.browser.launch import launch_browser
from app.core.background import CoreThread
from app.demo.run import run_scenario, site_url
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from app.demo.site_server import StaticServer
from bench.report import Report, Row

COUNTS = (3, 10, 30)
LIMITS = {"subagent_max_steps": 400, "main_max_steps": 400}
SLOW_PANEL_COUNT, SLOW_PANEL_MS = 10, 300
"""Also measured where the panel opens after the click's settle window (the demo's delay): View, wait, Close."""
CHANGES_GOAL = 2.0
"""At least this many times fewer subagent input tokens (as billed) with change lists than without."""


def _main_tokens(calls) -> tuple[int, int]:
    main = [c for c in calls if c.role == "main"]
    chars = sum(c.prompt_chars for c in main) // 4
    usage = sum(c.usage["input_tokens"] + c.usage["cache_read_input_tokens"] + c.usage["cache_creation_input_tokens"]
                for c in main)
    return chars, usage


def _billed_subagent_input(calls) -> float:
    """Subagent prompt tokens weighted by price: input 1×, cache write 1.25×, cache read 0.1×."""
    return sum(Usage(c.usage["input_tokens"], c.usage["cache_read_input_tokens"],
                     c.usage["cache_creation_input_tokens"]).billed_input for c in calls if c.role == "subagent")


def _changes_rows(report: Report, core: CoreThread, site: StaticServer) -> None:
    """Billed subagent input with and without change lists, and a click result's size against a full extract.

    Each (count, mode) gets a fresh model server, so its first task starts with a cold prompt cache: it pays the
    one-time cache write of the subagent's system prompt and tools (the two modes offer different tool schemas;
    a cache warmed for one only would flatter it). Then the same server runs the same scenario again as the
    person's next task, where that prefix is already cached, as it is for every task but the first within the
    cache's lifetime: "next task" rows. A warm-up task of one candidate comes between, so the measured task's own
    prompt (its URL and count) is not itself in the cache."""
    for count, delay in [(count, 50) for count in COUNTS] + [(SLOW_PANEL_COUNT, SLOW_PANEL_MS)]:
        slow = f", panel after {delay} ms" if delay != 50 else ""
        billed: dict[tuple[bool, str], float] = {}
        sent: dict[bool, int] = {}
        first_events: dict[bool, list] = {}
        for lists in (True, False):
            model = ScriptedModelServer(route)
            try:
                for when in ("first", "warm-up", "next"):
                    events: list = []
                    n = 1 if when == "warm-up" else count
                    result = core.call(run_scenario(core.core, model, site_url(site, delay, n), n,
                                                    f"bench-changes-{count}-{delay}-{lists}-{when}",
                                                    _recorder(events), change_lists=lists), timeout=900)
                    assert result.outcome.status == "end_turn", (count, lists, when, result.outcome.error)
                    assert result.outcome.text.count("@example.org") == n, result.outcome.text[-400:]
                    if when == "warm-up":
                        continue
                    billed[lists, when] = _billed_subagent_input(result.calls)
                    if when == "first":
                        sent[lists] = sum(c.prompt_chars for c in result.calls if c.role == "subagent") // 4
                        steps = sum(1 for k, d in events if k == "subagent_tool_call")
                        first_events[lists] = events
                report.add(Row("agent", f"{count:>2} candidates{slow}: subagent input as billed, change lists "
                                        f"{'on' if lists else 'off'}", 1, value=round(billed[lists, "first"]),
                               unit="tok", note=f"({steps} browser steps; {sent[lists]} tok sent; as the next task "
                                                f"{round(billed[lists, 'next'])} tok)"))
            finally:
                model.stop()
        if not slow:
            _size_rows(report, count, first_events[True], first_events[False])
        for when, label in (("first", "first task, cold cache"), ("next", "the next task, prompt and tools cached")):
            ratio = billed[False, when] / billed[True, when]
            report.add(Row("agent", f"{count:>2} candidates{slow}: without / with change lists (billed input, "
                                    f"{label})", 1, value=round(ratio, 2), unit="x",
                           note=f"({round(billed[True, when])} vs {round(billed[False, when])} tok"
                                + (f"; tokens sent: {sent[False] / sent[True]:.2f}x)" if when == "first" else ")")))
            if not slow:
                report.goal(f"subagent input with change lists ≤ 1/{CHANGES_GOAL:g} of without ({count} candidates, "
                            f"{label})", billed[True, when] / billed[False, when], 1 / CHANGES_GOAL, "x")


def _recorder(events: list) -> Callable[[str, dict], None]:
    return lambda kind, data: events.append((kind, data))


def _browser_outputs(events: list) -> list[tuple[dict, dict]]:
    """(input, output as the tool returned it) of each browser call of a run, in order."""
    answers = {d["id"]: d["output"] for k, d in events if k == "subagent_tool_result"}
    return [(d["input"], answers[d["id"]]) for k, d in events
            if k == "subagent_tool_call" and d["name"] == "browser" and d["id"] in answers]


def _size_rows(report: Report, count: int, with_lists: list, without_lists: list) -> None:
    """A click result carrying its change list (run with change lists) against what a model reads after a click
    without them: a full extract made right after a successful click (run without change lists, same scenario),
    medians of both."""
    clicks = [len(json.dumps(out)) for raw, out in _browser_outputs(with_lists)
              if raw["type"] == "click" and isinstance((out.get("result") or {}).get("changes"), dict)]
    after = [len(json.dumps(out)) for (was, did), (raw, out) in pairwise(_browser_outputs(without_lists))
             if was["type"] == "click" and did.get("ok") and raw == {"type": "extract"} and out.get("ok")]
    if clicks and after:
        click, full = statistics.median(clicks), statistics.median(after)
        report.add(Row("agent", f"{count:>2} candidates: click result with its change list (median)", len(clicks),
                       value=click, unit="chars",
                       note=f"(vs the full extract right after a click, without change lists: {full:g} chars, median "
                            f"of {len(after)}, {full / click:.1f}x)"))


def run(report: Report, _fixture_url: str) -> None:
    with tempfile.TemporaryDirectory(prefix="bua-bench-agent-") as tmp:
        core = CoreThread(Path(tmp) / "home")
        browser = launch_browser(core.home, headless=True, user_data_dir=Path(tmp) / "profile")
        site = StaticServer()
        model = ScriptedModelServer(route)
        try:
            core.call(core.pool.wait_for_bridge(45), timeout=50)
            for count in COUNTS:
                tokens = {}
                for direct in (False, True):
                    start = time.perf_counter()
                    result = core.call(run_scenario(core.core, model, site_url(site, 50, count), count,
                                                    f"bench-{count}-{'direct' if direct else 'sub'}",
                                                    direct=direct, **LIMITS), timeout=900)
                    elapsed = time.perf_counter() - start
                    assert result.outcome.status == "end_turn", (count, direct, result.outcome.status, result.outcome.error, result.outcome.text[-300:])
                    found = result.outcome.text.count("@example.org")
                    assert found == count, f"{count} contacts asked, {found} in the answer: {result.outcome.text[-400:]}"
                    chars, usage = _main_tokens(result.calls)
                    tokens[direct] = chars
                    mode = "direct (flag false)" if direct else "with subagent"
                    sub_chars = sum(c.prompt_chars for c in result.calls if c.role == "subagent") // 4
                    if not direct:
                        report.add(Row("agent", f"{count:>2} candidates: subagent input as billed (cache-weighted)", 1,
                                       value=round(_billed_subagent_input(result.calls)), unit="tok",
                                       note=f"(of {sub_chars} tok sent)"))
                    report.add(Row("agent", f"{count:>2} candidates, {mode}: main-thread input tokens", 1,
                                   value=chars, unit="tok",
                                   note=f"(SDK usage {usage}; subagent {sub_chars} tok; {len(result.calls)} model "
                                        f"calls; {elapsed:.1f} s)"))
                ratio = tokens[False] / tokens[True]
                report.add(Row("agent", f"{count:>2} candidates: subagent / direct", 1, value=round(ratio, 3), unit="x"))
                report.goal(f"main-thread tokens with subagent ≤ 15% of direct ({count} candidates)", ratio, 0.15, "x")
            _changes_rows(report, core, site)
        finally:
            model.stop()
            site.stop()
            browser.stop()
            core.stop()
