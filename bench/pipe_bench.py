"""Round trips through the whole pipe vs. the same CDP command sent directly, in one browser, one run.

* no-op: control ping, app → host → extension → app (no CDP at all)
* CDP through the pipe: `evaluate "1"` (one Runtime.evaluate in the extension)
  Both are timed twice: from the bench's thread (each call hops onto the app's event loop thread and back,
  as a UI call does) and on the app's event loop itself, where the agent loop issues its browser calls; the
  goal is judged on the latter, the pipe itself.
* CDP direct: Runtime.evaluate "1" on the same tab over --remote-debugging-pipe
The on-loop rows and the direct one are sampled in turn (no-op, pipe, direct, no-op, …), so the difference
compares samples that met the same load.
* native-host cold start: spawn → host_ready on stdout, with a live core
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.live import live_browser
from bench.report import Report, Row, interleaved, on_loop_once, timed, wall_once
from native_host import framing
from tests.harness.actions import pool_request

ROOT = Path(__file__).resolve().parents[1]


def host_cold_start(home: Path, n: int) -> list[float]:
    env = dict(os.environ, BUA_HOME=str(home), PYTHONPATH=str(ROOT))
    samples = []
    for _ in range(n):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "native_host", "chrome-extension://bench/"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        body = framing.read_frame_body(proc.stdout.read)
        samples.append(time.perf_counter() - start)
        assert body and json.loads(body)["type"] == "host_ready"
        proc.stdin.close()
        proc.wait(5)
    return samples


def python_startup(n: int) -> list[float]:
    return timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), n)


def run(report: Report, fixture_url: str, n: int = 200) -> None:
    with live_browser("bua-bench-") as (core, browser, bridge):
        cdp = browser.cdp
        nav = core.call(pool_request(core.pool, {"type": "navigate", "url": fixture_url}, "bench"))
        assert nav.ok, nav.error
        tab_id = nav.result["tab_id"]

        def ping() -> None:
            assert core.call(bridge.control("ping")).ok

        def evaluate_via_pipe() -> None:
            response = core.call(pool_request(bridge, {"type": "evaluate", "expression": "1", "tab_id": tab_id}, "bench"))
            assert response.ok, response.error

        targets = cdp.send("Target.getTargets")["targetInfos"]
        page = next(t for t in targets if t["type"] == "page" and t["url"] == nav.result["url"])
        session = cdp.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True})["sessionId"]

        def get_tabs_via_pipe() -> None:
            assert core.call(pool_request(bridge, {"type": "get_tabs"}, "bench")).ok

        def evaluate_direct() -> None:
            assert cdp.send("Runtime.evaluate", {"expression": "1", "returnByValue": True}, session)["result"]["value"] == 1

        for fn in (ping, get_tabs_via_pipe, evaluate_via_pipe, evaluate_direct):
            timed(fn, 20)  # warm-up
        report.add(Row.timing("pipe", "no-op round trip (ping, app→host→ext→app), thread hop", timed(ping, n)))
        report.add(Row.timing("pipe", "get_tabs through the pipe (chrome.tabs, no CDP), thread hop",
                              timed(get_tabs_via_pipe, n)))
        report.add(Row.timing("pipe", "CDP Runtime.evaluate through the pipe, thread hop", timed(evaluate_via_pipe, n)))
        # Taken in turn, so that the difference compares samples that met the same load.
        turns = interleaved({
            "noop": on_loop_once(core, lambda: bridge.control("ping")),
            "via": on_loop_once(core, lambda: pool_request(bridge, {"type": "evaluate", "expression": "1", "tab_id": tab_id},
                                                             "bench")),
            "direct": wall_once(evaluate_direct),
        }, n)
        report.add(Row.timing("pipe", "no-op round trip, on the app's loop", turns["noop"]))
        via = report.add(Row.timing("pipe", "CDP Runtime.evaluate through the pipe, on the app's loop", turns["via"]))
        direct = report.add(Row.timing("pipe", "CDP Runtime.evaluate direct (--remote-debugging-pipe)",
                                       turns["direct"]))
        report.add(Row("pipe", "pipe overhead over direct CDP (p50 difference)", n,
                       value=round(via.p50_ms - direct.p50_ms, 3), unit="ms"))
        report.add(Row("pipe", "ratio pipe / direct (p50)", n, value=round(via.p50_ms / direct.p50_ms, 2), unit="x"))
        report.goal("pipe adds at most 1 ms at p50 over direct CDP", via.p50_ms - direct.p50_ms, 1.0, "ms")
        report.add(Row.timing("host", "native host cold start (spawn → host_ready)", host_cold_start(core.home, 20)))
        report.add(Row.timing("host", "python -c pass (interpreter floor)", python_startup(20)))
