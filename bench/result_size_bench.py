"""What the model reads of one browser result, and how much of it is page-data markers (issue 21).

Each result goes through the app's own browser tool and result builder (browser.execute, render_tool_result), in
real Chromium: a click that closes a dialog, a fill of 3 fields, a find, and the seed scenario (the scripted model
collecting 3 candidates on the recruiting back office: every browser result the subagent reads, as it first reads
it); and how many element-index lines repeat a uid the markdown already shows. Per result: its characters, the marker's characters, and what the same result cost when every page string
had markers of its own (the layout before one region per result: each string wrapped where it stands, as JSON,
with session 6's 12-digit token).
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import urljoin

from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.page_text.boundary import CLOSE, OPEN
from app.agent.page_text.region import MarkedView, parse_view
from app.agent.results import render_tool_result
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.tools import browser as browser_tool
from app.demo.run import run_scenario, site_url
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from app.demo.site_server import StaticServer
from bench.live import live_browser
from bench.report import Report, Row
from tests.harness.actions import pool_request

MARKER = re.compile(re.escape(OPEN) + r"/?page-data [^" + re.escape(CLOSE) + r"]+" + re.escape(CLOSE))
PER_STRING_TOKEN = "0" * 12
"""The layout before (session 6) had a 12-hex-digit token and markers on both sides of every string."""
MARKER_SHARE_GOAL = 5.0
"""Markers at most this share (%) of a small answer."""


def marker_chars(text: str) -> int:
    return sum(len(m.group(0)) + 1 for m in MARKER.finditer(text))  # with the line break before it


def per_string_chars(view: MarkedView) -> int:
    """The same result with a boundary around every page string where it stands (the layout before)."""
    if view.token is None or not view.page:
        return len(view.text())
    head, tail = f"{OPEN}page-data {PER_STRING_TOKEN}{CLOSE}", f"{OPEN}/page-data {PER_STRING_TOKEN}{CLOSE}"
    wrapped = view.read(lambda value: f"{head}{value}{tail}")
    return len(json.dumps(wrapped, ensure_ascii=False, separators=(",", ":")))


class Sizes:
    def __init__(self) -> None:
        self.chars = self.markers = self.before = self.results = 0

    def add(self, text: str) -> None:
        self.results += 1
        self.chars += len(text)
        self.markers += marker_chars(text)
        self.before += per_string_chars(parse_view(text))

    def rows(self, report: Report, what: str) -> float:
        share = 100 * self.markers / max(1, self.chars)
        report.add(Row("results", f"{what}: chars the model reads", self.results, value=self.chars, unit="chars",
                       note=f"(every string marked: {self.before})"))
        report.add(Row("results", f"{what}: page-data markers", self.results, value=round(share, 1), unit="%",
                       note=f"({self.markers} chars)"))
        report.goal(f"page-data markers ≤ {MARKER_SHARE_GOAL:g} % of {what}", share, MARKER_SHARE_GOAL, "%")
        return share


def _actions(report: Report, core: Any, fixture_url: str) -> None:
    runtime = AgentRuntime(AgentSettings(), lambda _settings: None)  # type: ignore[arg-type,return-value]

    def act(action: dict[str, Any], task: str, sizes: Sizes | None = None) -> dict[str, Any]:
        deps = Deps(RuntimeContext(task_id=task), ToolServices(browser_bridge=core.pool), runtime=runtime)
        output = core.call(browser_tool.execute(action, deps), timeout=90)
        assert output.data.get("ok"), output.data
        if sizes is not None:
            sizes.add(render_tool_result("bench", output)["content"][0]["text"])
        result: dict[str, Any] = output.data["result"]
        return result

    def uid(elements: str, needle: str) -> str:
        return next(line.split()[0] for line in elements.splitlines() if needle in line)

    page = urljoin(fixture_url, "actions/facts-once.html")
    act({"type": "navigate", "url": page}, "bench-fill")
    elements = act({"type": "extract"}, "bench-fill")["elements"]
    fill = Sizes()
    act({"type": "fill", "fields": [{"uid": uid(elements, '"City"'), "value": "Bergen"},
                                    {"uid": uid(elements, '"Team"'), "value": "Core"},
                                    {"uid": uid(elements, '"I agree"'), "value": True}]}, "bench-fill", fill)
    fill.rows(report, "a fill of 3 fields")

    act({"type": "navigate", "url": page}, "bench-close")
    elements = act({"type": "extract"}, "bench-close")["elements"]
    act({"type": "click", "uid": uid(elements, '"Open details"')}, "bench-close")
    elements = act({"type": "extract"}, "bench-close")["elements"]
    click = Sizes()
    act({"type": "click", "uid": uid(elements, '"Close"')}, "bench-close", click)
    click.rows(report, "a click closing a dialog")

    act({"type": "navigate", "url": urljoin(fixture_url, "actions/find.html")}, "bench-find")
    find = Sizes()
    act({"type": "find", "text": "Email"}, "bench-find", find)
    find.rows(report, "a find")


INDEX_PAGES = ("extract/lean.html", "extract/candidates.html", "extract/forms.html", "extract/reading.html",
               "actions/facts-once.html", "actions/find.html")
_NAMED_IN_MARKDOWN = re.compile(r"\[((?:[^\[\]\\]|\\.)+)\]\((e\d+)\)")
_INDEX_LINE = re.compile(r'^(e\d+) [\w-]+ "((?:[^"\\]|\\.)*)"(.*)$')


def repeated_index_lines(result: dict[str, Any]) -> tuple[int, int, list[str]]:
    """Element-index lines that say no more than the markdown already does (the markdown shows the uid with the same
    text as the line's name, and the line adds no state or context), all index lines, and the repeated lines. The
    index is the extension's (extension/src/extract/); this only measures it."""
    named = {uid: text for text, uid in _NAMED_IN_MARKDOWN.findall(result.get("markdown") or "")}
    lines = [line for line in (result.get("elements") or "").splitlines() if line.strip()]
    repeated = []
    for line in lines:
        found = _INDEX_LINE.match(line)
        if found and named.get(found.group(1)) == found.group(2) and not found.group(3).strip():
            repeated.append(line)
    return len(repeated), len(lines), repeated


def _index(report: Report, core: Any, fixture_url: str) -> None:
    repeated = listed = 0
    shown: list[str] = []
    for page in INDEX_PAGES:
        task = f"bench-index-{page}"
        assert core.call(pool_request(core.pool, {"type": "navigate", "url": urljoin(fixture_url, page)}, task)).ok
        extract = core.call(pool_request(core.pool, {"type": "extract"}, task))
        assert extract.ok, extract.error
        again, lines, examples = repeated_index_lines(extract.result)
        repeated, listed = repeated + again, listed + lines
        shown.extend(f"{page}: {line}" for line in examples[:2])
    report.add(Row("results", "element-index lines the markdown already shows", len(INDEX_PAGES), value=repeated,
                   unit="lines", note=f"(of {listed} index lines on {len(INDEX_PAGES)} fixture pages) {shown[:3]}"))


def _seed(report: Report, core: Any) -> None:
    site, model = StaticServer(), ScriptedModelServer(route)
    try:
        result = core.call(run_scenario(core.core, model, site_url(site, 50, 3), 3, "bench-result-size"),
                           timeout=300)
        assert result.outcome.status == "end_turn", result.outcome.error
        seed = Sizes()
        for call in (c for c in result.calls if c.role == "subagent"):
            newest = call.body["messages"][-1]["content"]
            for block in newest if isinstance(newest, list) else []:
                if block.get("type") != "tool_result":
                    continue
                seed.add("".join(c.get("text", "") for c in block["content"] if c.get("type") == "text"))
        seed.rows(report, "the seed scenario (3 candidates)")
    finally:
        model.stop()
        site.stop()


def run(report: Report, fixture_url: str) -> None:
    with live_browser("bua-bench-results-") as (core, _browser, _bridge):
        _actions(report, core, fixture_url)
        _index(report, core, fixture_url)
        _seed(report, core)
