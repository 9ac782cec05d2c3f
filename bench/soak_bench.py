"""Soak: 1,000 actions across 10 concurrent tasks with random Stop and End, in real Chromium.

Measured: the app's RSS and the extension service worker's JS heap (after a GC) at 0, 500 and 1,000 actions;
what is left at the end once every task ended its session (sessions in the app and in the extension, tabs,
debugger attachments, listeners); and the time from killing the native host to the next successful action.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from app.abort import AbortSignal
from bench.live import live_browser
from bench.report import Report, Row
from tests.e2e.actions_helpers import in_extension
from tests.harness.actions import pool_request

TASKS = 10
ACTIONS = 1000
CHECKPOINTS = (0, 500, 1000)
STOP_P = 0.02
END_P = 0.02
RECONNECT_RUNS = 3
SEED = 14
MIB = 1024 * 1024


@dataclass
class Tally:
    ok: int = 0
    stopped: int = 0
    failed: list[str] = field(default_factory=list)
    stops: int = 0
    ends: int = 0
    latencies: list[float] = field(default_factory=list)


def rss_bytes() -> int:
    gc.collect()
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


class Worker:
    """A CDP session on the extension's service worker (attached per use: the worker may restart)."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.cdp = browser.cdp

    def _session(self) -> str:
        return self.cdp.send("Target.attachToTarget", {"targetId": self.cdp.extension_worker(), "flatten": True})["sessionId"]

    def heap_bytes(self) -> int:
        session = self._session()
        try:
            self.cdp.send("HeapProfiler.collectGarbage", {}, session)
            return int(self.cdp.send("Runtime.getHeapUsage", {}, session)["usedSize"])
        finally:
            self.cdp.send("Target.detachFromTarget", {"sessionId": session})

    def evaluate(self, expression: str) -> Any:
        return in_extension(self.browser, expression)


def _actions(page_url: str) -> list[tuple[float, dict[str, Any]]]:
    return [
        (0.10, {"type": "navigate", "url": page_url}),
        (0.30, {"type": "extract"}),
        (0.20, {"type": "evaluate", "expression": "document.title + ':' + document.links.length"}),
        (0.10, {"type": "screenshot"}),
        (0.10, {"type": "scroll", "direction": "down", "amount": 200}),
        (0.10, {"type": "get_tabs"}),
        (0.10, {"type": "wait_for", "selector": "#away", "timeout_ms": 2000}),
    ]


class SoakTask:
    """One of the concurrent tasks. A Stop or End closes its task id for good (the extension refuses further
    actions until a new instruction), so it carries on as a new generation: `soak-3-g2`, as a new instruction
    from the person would."""

    def __init__(self, index: int, rng: random.Random) -> None:
        self.index = index
        self.generation = 0
        self.rng = rng
        self.fresh = True

    @property
    def task_id(self) -> str:
        return f"soak-{self.index}-g{self.generation}"

    def next_generation(self) -> None:
        self.generation += 1
        self.fresh = True

    async def run(self, core: Any, count: int, page_url: str, tally: Tally) -> None:
        weights, actions = zip(*_actions(page_url), strict=True)
        for _ in range(count):
            roll = self.rng.random()
            if roll < STOP_P:
                tally.stops += 1
                await core.stop_task(self.task_id)
                self.next_generation()
            elif roll < STOP_P + END_P:
                tally.ends += 1
                await core.end_session(self.task_id)
                self.next_generation()
            action = {"type": "navigate", "url": page_url} if self.fresh else self.rng.choices(actions, weights)[0]
            await self._one(core, action, tally)

    async def _one(self, core: Any, action: dict[str, Any], tally: Tally) -> None:
        task_id = self.task_id
        abort = AbortSignal()
        core.controls.register(task_id, abort, owner="action")
        start = time.perf_counter()
        try:
            if self.rng.random() < STOP_P:  # a Stop that lands while the action is in flight
                tally.stops += 1
                asyncio.get_running_loop().call_later(self.rng.uniform(0, 0.05), lambda: asyncio.ensure_future(
                    core.stop_task(task_id)))
            response = await pool_request(core.pool, action, task_id, abort)
        finally:
            core.controls.unregister(task_id, abort)
        tally.latencies.append(time.perf_counter() - start)
        if response.ok:
            tally.ok += 1
            self.fresh = False
        elif response.error.code == "stopped":
            tally.stopped += 1
            if task_id == self.task_id:
                self.next_generation()
        else:
            tally.failed.append(f"{task_id} {action['type']}: {response.error.code}: {response.error.message[:80]}")

    async def close(self, core: Any) -> None:
        """The task's own cleanup at its end: close the tabs it holds, then end its session."""
        tabs = await pool_request(core.pool, {"type": "get_tabs"}, self.task_id)
        for tab in tabs.result["tabs"] if tabs.ok else []:
            if tab.get("in_task"):
                await pool_request(core.pool, {"type": "close_tab", "tab_id": tab["tab_id"]}, self.task_id)
        await core.end_session(self.task_id)


async def _phase(core: Any, tasks: list[SoakTask], per_task: int, page_url: str, tally: Tally) -> None:
    await asyncio.gather(*(task.run(core, per_task, page_url, tally) for task in tasks))


async def _end_everything(core: Any, tasks: list[SoakTask]) -> None:
    for task in tasks:
        await task.close(core)
    await core.stop_all()


def _leaks(core: Any, worker: Worker, baseline_pages: int, baseline_listeners: int,
           baseline_dynamic: int) -> dict[str, int]:
    time.sleep(2.0)  # session_ended events, tab closes and the last effects watches settle
    pages = [t for t in core.browser_cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "page"]
    attached = worker.evaluate("chrome.debugger.getTargets().then(ts => ts.filter(t => t.attached && "
                               "t.type === 'page').length)")
    stored = worker.evaluate("chrome.storage.session.get('bua.sessions').then(g => "
                             "((g['bua.sessions'] || {}).sessions || []).length)")
    held = worker.evaluate("chrome.storage.session.get('bua.taskTabs').then(g => "
                           "Object.values(g['bua.taskTabs'] || {}).flat().length)")
    dynamic = worker.evaluate(DYNAMIC_LISTENERS)
    return {
        "sessions in the app": len(core.core.sessions.rows()),
        "sessions in the extension": int(stored or 0),
        "tabs bua still holds": int(held or 0),
        "debugger attachments": int(attached or 0),
        "extension listeners (tabs.onCreated, over the start)": max(0, int(dynamic or 0) - baseline_dynamic),
        "app listeners (pool, sessions, task board)": max(0, _app_listeners(core) - baseline_listeners),
        "_tabs left open": max(0, len(pages) - baseline_pages),
    }


DYNAMIC_LISTENERS = "chrome.tabs.onCreated.hasListeners() ? 1 : 0"
"""An effects watch listens to tabs.onCreated while it runs (Chrome tells only whether an event has listeners)."""


def _app_listeners(core: Any) -> int:
    c = core.core
    return len(c.pool._listeners) + len(c.sessions._listeners) + len(c.board._listeners)


async def _reconnect_once(core: Any) -> float:
    bridge = core.pool.select()
    os.kill(bridge.info.host_pid, signal.SIGKILL)
    start = time.perf_counter()
    while True:
        response = await pool_request(core.pool, {"type": "get_tabs"}, "soak-reconnect", timeout=5)
        if response.ok and core.pool.select() is not bridge:
            return time.perf_counter() - start
        await asyncio.sleep(0.02)


def run(report: Report, fixture_url: str) -> None:
    page_url = fixture_url.replace("/index.html", "/sessions.html")
    rng = random.Random(SEED)
    with live_browser("bua-bench-soak-") as (core, browser, bridge):
        core.browser_cdp = browser.cdp
        worker = Worker(browser)
        baseline_pages = len([t for t in browser.cdp.send("Target.getTargets")["targetInfos"] if t["type"] == "page"])
        baseline_listeners = _app_listeners(core)
        baseline_dynamic = int(worker.evaluate(DYNAMIC_LISTENERS) or 0)
        tasks = [SoakTask(i, random.Random(rng.random())) for i in range(TASKS)]
        tally = Tally()
        rss: list[int] = []
        heap: list[int] = []
        done = 0
        for checkpoint in CHECKPOINTS:
            if checkpoint > done:
                core.call(_phase(core.core, tasks, (checkpoint - done) // TASKS, page_url, tally), timeout=1800)
                done = checkpoint
            rss.append(rss_bytes())
            heap.append(worker.heap_bytes())
        core.call(_end_everything(core.core, tasks), timeout=120)
        leaks = _leaks(core, worker, baseline_pages, baseline_listeners, baseline_dynamic)
        reconnects = [core.call(_reconnect_once(core), timeout=60) for _ in range(RECONNECT_RUNS)]

    generations = sum(t.generation + 1 for t in tasks)
    report.add(Row.timing("soak", f"{ACTIONS} actions, {TASKS} tasks: one action", tally.latencies,
                          note=f"ok {tally.ok}, stopped {tally.stopped}, failed {len(tally.failed)}; "
                               f"{tally.stops} Stop, {tally.ends} End, {generations} task ids"))
    for label, series in (("app RSS", rss), ("service worker JS heap", heap)):
        for checkpoint, value in zip(CHECKPOINTS, series, strict=True):
            report.add(Row("soak", f"{label} at {checkpoint:>4} actions", 1, value=round(value / MIB, 2),
                           unit="MiB"))
        growth = (series[2] - series[1]) / series[1] * 100 if series[1] else float("nan")
        report.add(Row("soak", f"{label} growth 500 -> 1000 actions", 1, value=round(growth, 2), unit="%"))
        report.goal(f"{label} grows < 10 % from 500 to 1000 actions", growth, 10, "%")
    left_open = leaks.pop("_tabs left open")
    report.add(Row("soak", "tabs left open at the end", 1, value=left_open,
                   note="(tabs of sessions ended by Stop/End stay for the person; not held by bua)"))
    for name, count in leaks.items():
        report.add(Row("soak", f"leaked {name} at the end", 1, value=count))
        report.goal(f"no leaked {name}", count, 0, "")
    row = report.add(Row.timing("soak", "host killed -> next successful action", reconnects))
    report.goal("reconnect after a host kill < 2 s (p95)", row.p95_ms, 2000, "ms")
    for failure in tally.failed[:10]:
        report.add(Row("soak", "failure", 1, value=failure))
