"""What the model reads of one browser result, and how much of it is page-data markers (issue 21).

Each result goes through the app's own browser tool and result builder (browser.execute, render_tool_result), in
real Chromium: a click that closes a dialog, a fill of 3 fields, a find, and the seed scenario (the scripted model
collecting 3 candidates on the recruiting back office: every browser result the subagent reads, as it first reads
it); and how many characters of the element index repeat what the markdown already shows. Per result: its characters, the marker's characters, and what the same result cost when every page string
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
from app.demo.scripted_model.elements import TOKEN, elements, index_line
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from app.demo.site_server import StaticServer
from bench.live import live_browser
from bench.report import Report, Row
from tests.harness.actions import pool_request

MARKER = re.compile(r"^" + re.escape(OPEN) + r"[^\s" + re.escape(CLOSE) + r"]+" + re.escape(CLOSE) + r"$", re.MULTILINE)
"""The boundary: a line of its own (page text cannot hold one: its brackets are made plain)."""
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

    def uid(extracted: dict[str, Any], name: str) -> str:
        return next(e.uid for e in elements(extracted) if e.name == name)

    page = urljoin(fixture_url, "actions/facts-once.html")
    act({"type": "navigate", "url": page}, "bench-fill")
    form = act({"type": "extract"}, "bench-fill")
    fill = Sizes()
    act({"type": "fill", "fields": [{"uid": uid(form, "City"), "value": "Bergen"},
                                    {"uid": uid(form, "Team"), "value": "Core"},
                                    {"uid": uid(form, "I agree"), "value": True}]}, "bench-fill", fill)
    fill.rows(report, "a fill of 3 fields")

    act({"type": "navigate", "url": page}, "bench-close")
    act({"type": "click", "uid": uid(act({"type": "extract"}, "bench-close"), "Open details")}, "bench-close")
    click = Sizes()
    act({"type": "click", "uid": uid(act({"type": "extract"}, "bench-close"), "Close")}, "bench-close", click)
    click.rows(report, "a click closing a dialog")

    act({"type": "navigate", "url": urljoin(fixture_url, "actions/find.html")}, "bench-find")
    find = Sizes()
    act({"type": "find", "text": "Email"}, "bench-find", find)
    find.rows(report, "a find")


INDEX_PAGES = ("extract/lean.html", "extract/candidates.html", "extract/forms.html", "extract/reading.html",
               "actions/facts-once.html", "actions/find.html")


def repeated_index_chars(result: dict[str, Any]) -> tuple[int, int, int, list[str]]:
    """Characters of the element index that say what the markdown already does (the name of an element whose token
    shows that name, the context of an element the markdown places), the index's characters, the result's
    (markdown, elements, text, note), and index lines that repeat. The index is the extension's
    (extension/src/extract/); this only measures it, reading tokens and lines as the scripted model does."""
    labels = {token.group(2) or token.group(3): re.sub(r"\\(.)", r"\1", token.group(1) or "")
              for token in TOKEN.finditer(result.get("markdown") or "")}
    repeated, examples = 0, []
    index = str(result.get("elements") or "")
    for line in index.splitlines():
        said = 0
        for element in index_line(line):
            if element.uid not in labels:
                continue
            if element.name and labels[element.uid] == element.name:
                said += len(json.dumps(element.name, ensure_ascii=False)) + 1
            if element.context:
                said += len(element.context) + 3
        if said:
            repeated += said
            examples.append(line)
    total = sum(len(str(result.get(k) or "")) for k in ("markdown", "elements", "text", "note"))
    return repeated, len(index), total, examples


def _index(report: Report, core: Any, fixture_url: str) -> None:
    repeated = listed = total = 0
    shown: list[str] = []
    for page in INDEX_PAGES:
        task = f"bench-index-{page}"
        assert core.call(pool_request(core.pool, {"type": "navigate", "url": urljoin(fixture_url, page)}, task)).ok
        extract = core.call(pool_request(core.pool, {"type": "extract"}, task))
        assert extract.ok, extract.error
        again, index, chars, examples = repeated_index_chars(extract.result)
        repeated, listed, total = repeated + again, listed + index, total + chars
        shown.extend(f"{page}: {line}" for line in examples[:2])
    report.add(Row("results", "element-index characters that repeat the markdown", len(INDEX_PAGES), value=repeated,
                   unit="chars", note=f"{100 * repeated / max(total, 1):.1f} % of {total:,} extract chars (the index: "
                   f"{listed:,}) on {len(INDEX_PAGES)} fixture pages {shown[:3]}"))


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
