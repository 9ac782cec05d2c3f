"""The peer suite's tasks: one fixed script of tool calls per server and task, as a careful model would make them.

Every argument that names an element (bua's uids, Playwright's refs, chrome-devtools' uids) is read from that
server's own previous answer, never written in; each script checks that it got the job done from what it read
(the seed scenario: each candidate's email in a result; the table: the last row's amount; the form: what the
page's server received), so a server that answers less by leaving the needed text out fails instead of winning.

Characters are what a model would read: the text of every tool result of the task, summed.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

import mcp_types as types
from mcp.client.session import ClientSession

from app.agent.page_text.region import read_view
from app.demo.site_server import SITE
from bench.peers_pages import FORM_FIELDS, FORM_LABELS, SUBMIT_LABEL, table_rows
from bench.peers_servers import BUA, DEVTOOLS, PLAYWRIGHT

CANDIDATES = json.loads((SITE / "candidates.json").read_text())
SEED_COUNT = 3
PANEL_TEXT = "Phone"
"""What each script waits for after a View click: the panel's own label, on the page only while a panel shows."""


class TaskFailed(AssertionError):
    pass


@dataclass
class Recorder:
    """One server's session; records each call's seconds, the characters of its result's text, and each call with
    its answer (written beside the bench's JSON, bench/results/peers-answers.json, for a reader to check)."""

    session: ClientSession
    seconds: list[float] = field(default_factory=list)
    chars: int = 0
    texts: list[str] = field(default_factory=list)

    async def call(self, name: str, arguments: dict[str, Any]) -> str:
        start = time.perf_counter()
        result = await self.session.call_tool(name, arguments)
        self.seconds.append(time.perf_counter() - start)
        text = "".join(block.text for block in result.content if isinstance(block, types.TextContent))
        self.chars += len(text)
        self.texts.append(f"{name} {json.dumps(arguments)}\n{text}")
        if result.is_error:
            raise TaskFailed(f"{name} {json.dumps(arguments)} failed: {text[:400]}")
        return text


def readable(text: str) -> str:
    """A result's text with JSON unwrapped (bua answers JSON: its strings joined), so that one pattern finds an
    element line whatever the result's layout."""
    try:
        decoded = json.loads(text)
    except ValueError:
        try:
            decoded = read_view(text)  # bua's facts, then its one page-data region
        except ValueError:
            return text
    parts: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, str):
            parts.append(node)
        elif isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
    walk(decoded)
    return "\n".join(parts)


def found(pattern: str, text: str, what: str, index: int = 0) -> str:
    matches = re.findall(pattern, readable(text))
    if len(matches) <= index:
        raise TaskFailed(f"no {what} in the answer (looked for {pattern!r}, #{index}): {text[:300]}")
    return str(matches[index])


def expect(needle: str, texts: list[str], what: str) -> None:
    if not any(needle in readable(t) for t in texts):
        raise TaskFailed(f"{what} ({needle!r}) is in none of the answers read")


def check_received(form_url: str) -> None:
    with urllib.request.urlopen(form_url.replace("/form.html", "/last-received"), timeout=10) as reply:
        received = json.loads(reply.read())
    if received != FORM_FIELDS:
        raise TaskFailed(f"the form's server received {received}, not {FORM_FIELDS}")


# The seed scenario: the first 3 candidates' contact details (open each one's panel, read it, close it).

def shows_panel(answer: str) -> bool:
    return PANEL_TEXT in readable(answer)


async def seed_bua(c: Recorder, url: str) -> None:
    await c.call("browser", {"type": "navigate", "url": url})
    page = await c.call("browser", {"type": "extract"})
    for i in range(SEED_COUNT):
        panel = await c.call("browser", {"type": "click", "uid": found(r'\[View\]\((e\d+)\)', page, "View button", i)})
        if not shows_panel(panel):  # the panel opened after the click's own change list: wait for it
            panel = await c.call("browser", {"type": "wait_for", "text": PANEL_TEXT, "timeout_ms": 10000})
        expect(CANDIDATES[i]["email"], [panel], "the candidate's email")
        await c.call("browser", {"type": "click", "uid": found(r'\[Close\]\((e\d+)\)', panel, "Close button")})


async def seed_playwright(c: Recorder, url: str) -> None:
    """Playwright MCP's actions write their snapshot to a file (a link in the answer): the page is read with
    browser_snapshot."""
    await c.call("browser_navigate", {"url": url})
    page = await c.call("browser_snapshot", {})
    for i in range(SEED_COUNT):
        view = found(r'button "View"[^\n]*?\[ref=(\w+)\]', page, "View button", i)
        await c.call("browser_click", {"element": "View button", "target": view})
        page = await c.call("browser_snapshot", {})
        if not shows_panel(page):
            await c.call("browser_wait_for", {"text": PANEL_TEXT})
            page = await c.call("browser_snapshot", {})
        expect(CANDIDATES[i]["email"], [page], "the candidate's email")
        close = found(r'button "Close"[^\n]*?\[ref=(\w+)\]', page, "Close button")
        await c.call("browser_click", {"element": "Close button", "target": close})


async def seed_devtools(c: Recorder, url: str) -> None:
    """The View click asks for its snapshot (`includeSnapshot`), saving a call when the panel is already open."""
    await c.call("navigate_page", {"type": "url", "url": url})
    page = await c.call("take_snapshot", {})
    for i in range(SEED_COUNT):
        uid = found(r'uid=(\S+) button "View"', page, "View button", i)
        page = await c.call("click", {"uid": uid, "includeSnapshot": True})
        if not shows_panel(page):
            page = await c.call("wait_for", {"text": [PANEL_TEXT]})
        expect(CANDIDATES[i]["email"], [page], "the candidate's email")
        await c.call("click", {"uid": found(r'uid=(\S+) button "Close"', page, "Close button")})


# The form: 4 fields and submit.

def _field_pattern(label: str, template: str) -> str:
    return template.format(re.escape(label))


async def form_bua(c: Recorder, url: str) -> None:
    await c.call("browser", {"type": "navigate", "url": url})
    page = await c.call("browser", {"type": "extract"})
    fields = [{"uid": found(_field_pattern(label, r'(e\d+) textbox "{}"'), page, f"{label} field"),
               "value": FORM_FIELDS[name]} for name, label in FORM_LABELS.items()]
    await c.call("browser", {"type": "fill", "fields": fields, "submit": True})
    check_received(url)


async def form_playwright(c: Recorder, url: str) -> None:
    await c.call("browser_navigate", {"url": url})
    page = await c.call("browser_snapshot", {})
    fields = [{"name": label, "type": "textbox", "value": FORM_FIELDS[name],
               "target": found(_field_pattern(label, r'textbox "{}"[^\n]*?\[ref=(\w+)\]'), page, f"{label} field")}
              for name, label in FORM_LABELS.items()]
    await c.call("browser_fill_form", {"fields": fields})
    submit = found(_field_pattern(SUBMIT_LABEL, r'button "{}"[^\n]*?\[ref=(\w+)\]'), page, "submit button")
    await c.call("browser_click", {"element": f"{SUBMIT_LABEL} button", "target": submit})
    check_received(url)


async def form_devtools(c: Recorder, url: str) -> None:
    await c.call("navigate_page", {"type": "url", "url": url})
    page = await c.call("take_snapshot", {})
    elements = [{"uid": found(_field_pattern(label, r'uid=(\S+) textbox "{}"'), page, f"{label} field"),
                 "value": FORM_FIELDS[name]} for name, label in FORM_LABELS.items()]
    await c.call("fill_form", {"elements": elements})
    await c.call("click", {"uid": found(_field_pattern(SUBMIT_LABEL, r'uid=(\S+) button "{}"'), page, "submit button")})
    check_received(url)


# The table: read all 1,000 rows (the last row's amount must be in what was read).

READ_ON = re.compile(r'call extract with selector="((?:[^"\\]|\\.)+)"')
"""bua's note when an extract was cut at its budget: the selector that reads on."""


async def table_bua(c: Recorder, url: str) -> None:
    """bua's extract stops at its character budget and names the selector that reads on: followed until the
    table is read."""
    await c.call("browser", {"type": "navigate", "url": url})
    pages = [await c.call("browser", {"type": "extract"})]
    while (more := READ_ON.search(readable(pages[-1]))) and len(pages) < 20:
        pages.append(await c.call("browser", {"type": "extract", "selector": more.group(1).replace('\\"', '"')}))
    expect(table_rows()[-1][3], pages, "the last row's amount")


async def table_playwright(c: Recorder, url: str) -> None:
    await c.call("browser_navigate", {"url": url})
    expect(table_rows()[-1][3], [await c.call("browser_snapshot", {})], "the last row's amount")


async def table_devtools(c: Recorder, url: str) -> None:
    await c.call("navigate_page", {"type": "url", "url": url})
    expect(table_rows()[-1][3], [await c.call("take_snapshot", {})], "the last row's amount")


# The cheap call: list the tabs.

async def cheap_bua(c: Recorder, url: str) -> None:
    await c.call("browser", {"type": "get_tabs"})


async def cheap_playwright(c: Recorder, url: str) -> None:
    await c.call("browser_tabs", {"action": "list"})


async def cheap_devtools(c: Recorder, url: str) -> None:
    await c.call("list_pages", {})


# The cheap call that must reach the page: evaluate `1` (bua's answer also passes its safety steps: the session
# gate, the label check a script gets, the network hold), so the pipe's own cost stays visible beside a call a
# mirror may answer. Each server's page is opened once before (CHEAP_SETUP).

async def evaluate_bua(c: Recorder, url: str) -> None:
    expect_value(await c.call("browser", {"type": "evaluate", "expression": "1"}))


async def evaluate_playwright(c: Recorder, url: str) -> None:
    expect_value(await c.call("browser_evaluate", {"function": "() => 1"}))


async def evaluate_devtools(c: Recorder, url: str) -> None:
    expect_value(await c.call("evaluate_script", {"function": "() => 1"}))


def expect_value(text: str) -> None:
    if "1" not in text:
        raise TaskFailed(f"evaluate of 1 answered without the value: {text[:200]}")


async def open_bua(c: Recorder, url: str) -> None:
    await c.call("browser", {"type": "navigate", "url": url})


async def open_playwright(c: Recorder, url: str) -> None:
    await c.call("browser_navigate", {"url": url})


async def open_devtools(c: Recorder, url: str) -> None:
    await c.call("navigate_page", {"type": "url", "url": url})


Script = Callable[[Recorder, str], Awaitable[None]]
TASKS: dict[str, dict[str, Script]] = {
    "seed": {BUA: seed_bua, PLAYWRIGHT: seed_playwright, DEVTOOLS: seed_devtools},
    "form": {BUA: form_bua, PLAYWRIGHT: form_playwright, DEVTOOLS: form_devtools},
    "table": {BUA: table_bua, PLAYWRIGHT: table_playwright, DEVTOOLS: table_devtools},
    "cheap": {BUA: cheap_bua, PLAYWRIGHT: cheap_playwright, DEVTOOLS: cheap_devtools},
    "evaluate": {BUA: evaluate_bua, PLAYWRIGHT: evaluate_playwright, DEVTOOLS: evaluate_devtools},
}
CHEAP_SETUP: dict[str, Script] = {BUA: open_bua, PLAYWRIGHT: open_playwright, DEVTOOLS: open_devtools}
"""Opens the page the cheap calls run beside (the evaluate call needs one)."""
TASK_NAMES = {"seed": f"seed scenario ({SEED_COUNT} candidates' contacts)", "form": "form fill (4 fields + submit)",
              "table": "1,000-row table read", "cheap": "cheap call (list tabs)",
              "evaluate": "cheap call reaching the page (evaluate 1)"}
CHEAP_TOOL = {BUA: "browser get_tabs", PLAYWRIGHT: "browser_tabs list", DEVTOOLS: "list_pages"}
EVALUATE_TOOL = {BUA: "browser evaluate", PLAYWRIGHT: "browser_evaluate", DEVTOOLS: "evaluate_script"}
