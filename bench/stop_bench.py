"""Stop all: with 1, 10 and 50 pending requests (each task waiting on a 10 s wait_for in its own tab), the time
from the call until every pending request is settled, and until the last session_ended event arrives."""

from __future__ import annotations

import asyncio

from app.bridge.abort import AbortSignal
from bench.report import Report, Row
from bench.live import live_browser

COUNTS = (1, 10, 50)
RUNS = 3


async def one_run(core, page_url: str, n: int, run: int) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    tasks = [f"stop-{n}-{run}-{i}" for i in range(n)]
    for task in tasks:
        response = await core.pool.request({"type": "navigate", "url": page_url}, task)
        assert response.ok, response.error
    settled: list[float] = []
    ended: list[float] = []
    remove = core.pool.subscribe(lambda b, e: ended.append(loop.time()) if e.type == "session_ended" else None)
    pending = []
    for task in tasks:
        abort = AbortSignal()
        core.controls.register(task, abort)
        request = asyncio.ensure_future(core.pool.request(
            {"type": "wait_for", "selector": "#never-shown", "timeout_ms": 10_000}, task, abort))
        request.add_done_callback(lambda _f: settled.append(loop.time()))
        pending.append(request)
    while sum(b.pending_count for b in core.pool.bridges) < n:
        await asyncio.sleep(0.005)
    start = loop.time()
    await core.stop_all()
    await asyncio.gather(*pending)
    while len(ended) < n and loop.time() - start < 5:
        await asyncio.sleep(0.002)
    remove()
    for request in pending:
        assert request.result().error.message == "stopped by user"
    return max(settled) - start, (max(ended) - start) if len(ended) >= n else float("nan")


def run(report: Report, fixture_url: str) -> None:
    page_url = fixture_url.replace("/index.html", "/sessions.html")
    with live_browser("bua-bench-stop-") as (core, browser, bridge):
        for n in COUNTS:
            settle, last_event = [], []
            for attempt in range(RUNS):
                s, e = core.call(one_run(core.core, page_url, n, attempt), timeout=300)
                settle.append(s)
                last_event.append(e)
            row = report.add(Row.timing("stop", f"Stop all, {n:>2} pending: every request settled", settle))
            report.add(Row.timing("stop", f"Stop all, {n:>2} pending: last session_ended event", last_event))
            report.goal(f"Stop all settles {n} pending in < 100 ms (p95)", row.p95_ms, 100, "ms")
            report.goal(f"last session_ended for {n} sessions in < 500 ms (p95)",
                        report.rows[-1].p95_ms, 500, "ms")
