"""Stop all: with 1, 10 and 50 pending requests (each task waiting on a 10 s wait_for in its own tab), the time
from the call until every pending request is settled, and until the last session_ended event arrives; and, with
the agent waiting on a model reply that takes 5 s (scripted server), the time until the chat turn has ended."""

from __future__ import annotations

import asyncio

from app.abort import AbortSignal
from app.demo.run import ScriptedTurn, scripted_turn
from app.demo.scripted_model.policy import route
from app.demo.scripted_model.server import ScriptedModelServer
from bench.live import live_browser
from bench.report import Report, Row
from tests.harness.actions import pool_request

COUNTS = (1, 10, 50)
RUNS = 3


async def one_run(core, page_url: str, n: int, run: int) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    tasks = [f"stop-{n}-{run}-{i}" for i in range(n)]
    for task in tasks:
        response = await pool_request(core.pool, {"type": "navigate", "url": page_url}, task)
        assert response.ok, response.error
    settled: list[float] = []
    ended: list[float] = []
    remove = core.pool.subscribe(lambda b, e: ended.append(loop.time()) if e.type == "session_ended" else None)
    pending = []
    for task in tasks:
        abort = AbortSignal()
        core.controls.register(task, abort)
        request = asyncio.ensure_future(pool_request(core.pool,
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


async def stop_during_model_call(core, scripted: ScriptedTurn, run: int) -> float:
    """Seconds from Stop all until the chat turn that waits on a slow model reply has returned, cancelled."""
    loop = asyncio.get_running_loop()
    turn = asyncio.ensure_future(core.chat(f"stop-model-{run}", "Say hello.", settings=scripted.settings,
                                           client=scripted.client))
    while not core.controls.running:
        await asyncio.sleep(0.005)
    await asyncio.sleep(0.3)  # the request is at the server, which answers only after 5 s
    start = loop.time()
    await core.stop_all()
    outcome = await turn
    assert outcome.status == "cancelled", outcome.status
    return loop.time() - start


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
        server = ScriptedModelServer(route, reply_delay_s=5)
        try:
            scripted = scripted_turn(core.core.agent_settings(), server)
            model = [core.call(stop_during_model_call(core.core, scripted, attempt), timeout=60)
                     for attempt in range(5)]
        finally:
            server.stop()
        row = report.add(Row.timing("stop", "Stop all during a model call: the turn has ended", model))
        report.goal("Stop all ends a turn waiting on the model in < 100 ms (p95)", row.p95_ms, 100, "ms")

