"""What holding the page's requests costs (extension/src/safety/network-hold.js, app/safety/network_holds.py).

There is no production switch that turns the hold off (issue 19: no message turns safety off). The baseline is a
bench-only build of the extension: a copy of extension/ in a temporary folder whose background.js neither gives
the dispatcher its `holds` nor starts a hold when a session starts (the lines that wire the hold in), loaded by a
second headless Chromium with its own core; a third build pauses only what the hold paused before every resource
type was (documents, fetch/XHR, beacons, event sources, CSP reports, other: `EARLIER_TYPES`), so that what pausing
images, scripts, styles, fonts and prefetches too costs is measured in the same run. The builds run side by side,
their samples taken in turn, and each row is the median of the paired differences (a hold − no hold) and their
ratio of medians.

The hold is on for as long as the session lasts (Fetch enabled on the session tab and its child targets from the
session's start), so an action turns nothing on or off: what an action pays is its window on the hold. On an
ordinary page (tests/e2e/network_site.py "bench"):
* click that makes no request (settle 0, no change list), and type into a field (settle 0): an action's own cost;
* click whose page makes an ordinary GET (effects window as the model gets it): the GET is paused and continued
  by the extension with no round trip to the app;
* click whose page POSTs to a checkout endpoint, held and allowed through the broker's "allow for this task on
  this site" path (set before the run, so no person's time is in it): the round trip of a held request
  (extension → host → app → data-flow check → answer_hold → continue) runs inside the effects window;
* `evaluate` that awaits a fetch, settle 0: a GET (continued by the extension) and the same POST held and
  allowed; here the action waits for the response, so the held request's whole round trip is in the difference:
  what a held request costs until Allow, the person's time left out;
* `evaluate` that starts a worker and awaits its first message: the worker starts paused (waitForDebuggerOnStart)
  until Fetch is on in it, which is what holding a child created during the action costs;
* a page load with many GET subresources ("many": 40 fetch GETs, 40 images, 4 frames), navigate until every
  fetch answered: each fetch, image and frame document is paused and continued (a document after the app's
  data-flow check);
* a page load with 40 images from its own host and 40 from another host, each with a query ("pictures"),
  navigate until every image settled: every image is paused (any resource type can carry data away); the page's
  own continue in the extension, the other host's go to the app's data-flow check first (their URL can carry
  data), so this is what a page full of third-party images costs;
* a click that opens a tab and submits a POST form into it, timed until the site received the POST: the new
  tab's POST is blocked by the session rule, the tab's own hold goes on when it joins the task and reloads it
  (safety/network-new-tabs.js), and the POST is held and allowed.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Awaitable, Callable
from unittest import mock

from bench.live import live_browser
from bench.report import Report, Row, interleaved, on_loop_once
from installer.extension_id import extension_dir
from tests.e2e.network_site import NetworkSite
from tests.harness.actions import pool_request

TASK = "bench-net"
WIRING = ("  holds,\n", "  holdSessions(type, data);\n", "sessions.ready().then(() => holds.restore(sessions.all()));\n",
          "  if (tab.id !== undefined && tab.openerTabId !== undefined) holds.opened(tab.openerTabId, tab.id);\n",
          "  holds.opened(details.sourceTabId, details.tabId);\n")
"""The lines of background.js that wire the hold in: the dispatcher's, the session events', the restart's, the
opened tabs'."""
EVERY_TYPE = 'const PATTERNS = [{ urlPattern: "*", requestStage: "Request" }];\n'
"""The line of safety/network-tab-hold.js that pauses every request, whatever its resource type."""
EARLIER_TYPES = ('const PATTERNS = ["Document", "XHR", "Fetch", "Ping", "EventSource", "CSPViolationReport", "Other"]'
                 '.map((resourceType) => ({ urlPattern: "*", resourceType, requestStage: "Request" }));\n')
"""What it paused before images, scripts, styles, fonts and prefetches were (the earlier design, for comparison)."""


def bench_build(into: Path, edits: dict[str, tuple[str, ...] | tuple[tuple[str, str], ...]]) -> Path:
    """A copy of the extension with lines of its files removed or replaced (bench only, never shipped): `edits`
    maps a file to the lines to remove, or to (line, replacement) pairs."""
    target = into / "extension"
    shutil.copytree(extension_dir(), target, ignore=shutil.ignore_patterns("node_modules", "test"))
    for name, lines in edits.items():
        path = target / name
        text = path.read_text()
        for line in lines:
            old, new = line if isinstance(line, tuple) else (line, "")
            if text.count(old) != 1:
                raise RuntimeError(f"bench/nethold_bench.py: {name} no longer has {old.strip()!r}; update the bench "
                                   "to the lines that wire the hold in")
            text = text.replace(old, new)
        path.write_text(text)
    return target


BUILDS = {"none": {"background.js": WIRING},
          "earlier": {"src/safety/network-tab-hold.js": ((EVERY_TYPE, EARLIER_TYPES),)}}
"""The bench builds beside the real one: without the hold, and with the hold pausing only the earlier types."""


class Lane:
    """One core + browser, its tab on the bench page."""

    def __init__(self, core: Any, bridge: Any, page: str) -> None:
        self.core = core
        self.bridge = bridge
        self.ids = iter(range(10**9))
        self.page = page
        nav = core.call(pool_request(core.pool, {"type": "navigate", "url": page}, TASK))
        assert nav.ok, nav.error
        self.tab = nav.result["tab_id"]
        core.core.pool.safety.allow_task_site(TASK, "127.0.0.1", sensitive=True, data_flow=True)

    def send(self, action: dict[str, Any]) -> Awaitable[Any]:
        request_id = f"bench-net-{next(self.ids)}"
        raw = {"v": 1, "kind": "request", "id": request_id, "task_id": TASK, "action": {**action, "tab_id": self.tab}}
        return self.bridge.send_and_wait(raw, request_id, None, 30)

    def sampler(self, action: dict[str, Any]) -> Callable[[], float]:
        return on_loop_once(self.core, lambda: self.send(action))

    def check(self, action: dict[str, Any]) -> dict[str, Any]:
        response = self.core.call(self.send(action))
        assert response.ok, response.error
        return response.result


CASES = {
    "click, no request (settle 0)": {"type": "click", "selector": "#count", "settle_ms": 0, "report_changes": False},
    "type, no request (settle 0)": {"type": "type", "selector": "#q", "text": "teapot", "clear": True, "settle_ms": 0,
                                    "report_changes": False},
    "click making an ordinary GET": {"type": "click", "selector": "#get", "report_changes": False},
    "click whose POST is held and allowed (no person)": {"type": "click", "selector": "#post", "report_changes": False},
    "evaluate awaiting a GET fetch (settle 0)": {"type": "evaluate", "settle_ms": 0, "report_changes": False,
                                                 "expression": "fetch('/api/items').then((r) => r.status)"},
    "evaluate awaiting a POST held and allowed (settle 0)": {
        "type": "evaluate", "settle_ms": 0, "report_changes": False,
        "expression": "fetch('/api/checkout', {method: 'POST', body: 'items=3'}).then((r) => r.status)"},
    "evaluate awaiting a new worker's first message (settle 0)": {
        "type": "evaluate", "settle_ms": 0, "report_changes": False,
        "expression": "new Promise((ok) => { const w = new Worker('/ready-worker.js?' + Math.random());"
                      " w.onmessage = () => { w.terminate(); ok(1); }; })"},
}
NEW_TAB_POST = {"type": "click", "selector": "#tab-post", "settle_ms": 0, "report_changes": False}
"""Opens a tab and submits a POST form into it (the previous sample's tab is closed first): a click, as window.open
without a person's gesture is refused by the popup blocker."""
NEW_TAB_ROUNDS = 20
PAGE_LOAD_ROUNDS = 20
ALL_LOADED = "window.loaded.then((n) => n)"
"""The "many" page's promise of its fetches (evaluate awaits it)."""


def until_arrived(lane: "Lane", site: NetworkSite, action: dict[str, Any]) -> Callable[[], float]:
    """A sampler: from sending the action until the site received the new tab's POST (seconds)."""
    def sample() -> float:
        before = len(site.saw("/api/checkout/tab", "POST"))
        started = time.perf_counter()
        lane.check(action)
        deadline = started + 30
        while len(site.saw("/api/checkout/tab", "POST")) == before:
            if time.perf_counter() > deadline:
                raise RuntimeError("the new tab's POST never arrived")
            time.sleep(0.002)
        return time.perf_counter() - started
    return sample


def run(report: Report, fixture_url: str, n: int = 60) -> None:
    site = NetworkSite()
    page = site.url("/p/bench")
    try:
        with ExitStack() as stack:
            core, _browser, bridge = stack.enter_context(live_browser("bua-bench-hold-"))
            held = Lane(core, bridge, page)
            lanes = {"hold": held}
            for name, edits in BUILDS.items():
                build = bench_build(Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=f"bua-bench-{name}-"))),
                                    edits)
                with mock.patch("app.browser.launch.extension_dir", lambda build=build: build):
                    core2, _browser2, bridge2 = stack.enter_context(live_browser(f"bua-bench-{name}-"))
                lanes[name] = Lane(core2, bridge2, page)
            plain = lanes["none"]
            post = CASES["click whose POST is held and allowed (no person)"]
            assert "held_requests" not in held.check(post)["effects"], "allowed for the task: no person asked"
            before = len(site.saw("/api/checkout"))
            plain.check(post)
            for name, action in CASES.items():
                for _ in range(5):
                    for lane in lanes.values():
                        lane.check(action)
                turns = interleaved({key: lane.sampler(action) for key, lane in lanes.items()}, n)
                added = side_by_side(report, name, turns)
                if "no request" in name:
                    report.goal(f"network hold added per {name.split(',')[0]}", added, 5.0, "ms")
            page_load(report, site, lanes)
            new_tab(report, site, lanes)
            assert len(site.saw("/api/checkout")) > before, "the held POSTs went through once allowed"
    finally:
        site.stop()


def new_tab(report: Report, site: NetworkSite, lanes: dict[str, Lane]) -> None:
    """What a held request from a tab the action opens costs until Allow (the person's time left out)."""
    name = "tab the action opens, its POST held and allowed: action sent until the POST arrived"
    for _ in range(3):
        for lane in lanes.values():
            until_arrived(lane, site, NEW_TAB_POST)()
    side_by_side(report, name, interleaved({key: until_arrived(lane, site, NEW_TAB_POST) for key, lane in lanes.items()},
                                           NEW_TAB_ROUNDS))


LANE_NAMES = {"hold": "with the network hold", "earlier": "with the hold pausing only documents, fetch/XHR, beacons "
              "and other (the earlier design)", "none": "bench build without it"}


def side_by_side(report: Report, name: str, turns: dict[str, list[float]]) -> float:
    """The rows of one case measured with the hold, with the earlier hold and without it, interleaved: the timings,
    and what each hold added (the median paired difference, ms); what the hold added is returned."""
    rows = {key: report.add(Row.timing("nethold", f"{name}, {LANE_NAMES[key]}", series)) for key, series in turns.items()}
    added = {key: paired_difference(turns[key], turns["none"]) for key in turns if key != "none"}
    for key, value in added.items():
        label = "added" if key == "hold" else "added by the earlier design"
        report.add(Row("nethold", f"{name}: {label} (median paired difference)", len(turns[key]), value=round(value, 2),
                       unit="ms", note=f"ratio of p50s {(rows[key].p50_ms or 0) / (rows['none'].p50_ms or 1):.2f}x"))
    return added["hold"]


def paired_difference(a: list[float], b: list[float]) -> float:
    """The median of the paired differences a − b, in ms."""
    paired = sorted((x - y) * 1000 for x, y in zip(a, b, strict=True))
    return paired[len(paired) // 2]


def loads(lane: "Lane", url: str) -> Callable[[], float]:
    """A sampler: navigate to the page, then await every fetch it made (seconds, on the core's loop)."""
    rounds = iter(range(10**9))

    async def both() -> Any:
        nav = await lane.send({"type": "navigate", "url": f"{url}?round={next(rounds)}"})
        assert nav.ok, nav.error
        return await lane.send({"type": "evaluate", "expression": ALL_LOADED, "settle_ms": 0, "report_changes": False})
    return on_loop_once(lane.core, both)


PAGE_LOADS = {"page load with 40 fetch GETs, 40 images, 4 frames: navigate + await the fetches": "/p/many",
              "page load with 40 images from its host and 40 from another host with a query: navigate + await "
              "every image": "/p/pictures"}


def page_load(report: Report, site: NetworkSite, lanes: dict[str, Lane]) -> None:
    """Page loads with many GET subresources, side by side (the session-long hold's cost on ordinary browsing)."""
    for name, path in PAGE_LOADS.items():
        url = site.url(path)
        for lane in lanes.values():
            for _ in range(3):
                loads(lane, url)()
            assert lane.check({"type": "evaluate", "expression": ALL_LOADED}).get("value") == 40
        side_by_side(report, name, interleaved({key: loads(lane, url) for key, lane in lanes.items()}, PAGE_LOAD_ROUNDS))
    for lane in lanes.values():
        lane.check({"type": "navigate", "url": lane.page})
