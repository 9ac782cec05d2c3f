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
* per hop (bench.pipe_hops, sampled in turn with the rows above): the native host's relay and the app bridge's
  own work, each timed in isolation against its floor; what is left of the no-op round trip is Chrome's native
  messaging and the extension's port and dispatcher; what the CDP round trip adds beyond the no-op is the
  extension's action path (validation, the tab gate, chrome.debugger) — each hop's share of the pipe's overhead
  over direct CDP is printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

from bench import pipe_hops, pipe_worker
from bench.live import live_browser
from bench.report import Report, Row, interleaved, on_loop_once, timed, wall_once
from native_host import framing
from tests.harness.actions import ask_extension, pool_request

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
            assert core.call(ask_extension(bridge, {"type": "get_tabs"}, "bench")).ok

        def get_tabs_mirrored() -> None:
            assert core.call(pool_request(bridge, {"type": "get_tabs"}, "bench")).ok

        def evaluate_direct() -> None:
            assert cdp.send("Runtime.evaluate", {"expression": "1", "returnByValue": True}, session)["result"]["value"] == 1

        for fn in (ping, get_tabs_via_pipe, get_tabs_mirrored, evaluate_via_pipe, evaluate_direct):
            timed(fn, 20)  # warm-up
        report.add(Row.timing("pipe", "no-op round trip (ping, app→host→ext→app), thread hop", timed(ping, n)))
        report.add(Row.timing("pipe", "get_tabs asked of the extension (chrome.tabs, no CDP), thread hop",
                              timed(get_tabs_via_pipe, n)))
        report.add(Row.timing("pipe", "get_tabs answered by the app's tab mirror, thread hop",
                              timed(get_tabs_mirrored, n)))
        report.add(Row.timing("pipe", "CDP Runtime.evaluate through the pipe, thread hop", timed(evaluate_via_pipe, n)))
        # Taken in turn, so that the difference compares samples that met the same load.
        hop_loop = pipe_hops.LoopThread()
        try:
            with pipe_hops.host_relay() as host, pipe_hops.host_floor() as host_floor, \
                    pipe_hops.bridge_echo(hop_loop) as (bridge_ping, bare_ping):
                turns = interleaved({
                    "noop": on_loop_once(core, lambda: bridge.control("ping")),
                    "via": on_loop_once(core, lambda: pool_request(
                        bridge, {"type": "evaluate", "expression": "1", "tab_id": tab_id}, "bench")),
                    "direct": wall_once(evaluate_direct),
                    "host": host, "host_floor": host_floor,
                    "bridge": pipe_hops.on_thread_loop(hop_loop, bridge_ping),
                    "bare": pipe_hops.on_thread_loop(hop_loop, bare_ping),
                }, n)
        finally:
            hop_loop.stop()
        noop = report.add(Row.timing("pipe", "no-op round trip, on the app's loop", turns["noop"]))
        via = report.add(Row.timing("pipe", "CDP Runtime.evaluate through the pipe, on the app's loop", turns["via"]))
        direct = report.add(Row.timing("pipe", "CDP Runtime.evaluate direct (--remote-debugging-pipe)",
                                       turns["direct"]))
        report.add(Row("pipe", "pipe overhead over direct CDP (p50 difference)", n,
                       value=round(via.p50_ms - direct.p50_ms, 3), unit="ms"))
        report.add(Row("pipe", "ratio pipe / direct (p50)", n, value=round(via.p50_ms / direct.p50_ms, 2), unit="x"))
        report.goal("pipe adds at most 1 ms at p50 over direct CDP", via.p50_ms - direct.p50_ms, 1.0, "ms")
        _hop_rows(report, turns, noop, via, direct)
        _worker_rows(report, pipe_worker.Worker(cdp), evaluate_via_pipe, get_tabs_via_pipe, tab_id, n)
        report.add(Row.timing("host", "native host cold start (spawn → host_ready)", host_cold_start(core.home, 20)))
        report.add(Row.timing("host", "python -c pass (interpreter floor)", python_startup(20)))


def _worker_rows(report: Report, worker: pipe_worker.Worker, evaluate: Callable[[], None],
                 get_tabs: Callable[[], None], tab_id: int, n: int) -> None:
    """The extension's action path from inside its worker: the CDP commands one action sends, and one
    chrome.debugger round trip timed there."""
    report.add(Row.timing("pipe-hop", "chrome.debugger Runtime.evaluate, timed in the extension's worker",
                          worker.debugger_round_trips(tab_id, n)))
    report.add(Row.timing("pipe-hop", "chrome.tabs.query (get_tabs', the tab feed's), timed in the worker",
                          worker.tabs_query_round_trips(n)))
    for name, action in (("evaluate", evaluate), ("get_tabs", get_tabs)):
        sent = worker.commands_of(action)
        listed = "could not count (chrome.debugger.sendCommand not wrappable)" if sent is None else \
            ", ".join(f"{method}×{count}" if count > 1 else method for method, count in sent.items()) or "none"
        report.add(Row("pipe-hop", f"CDP commands one {name} action sends via chrome.debugger", 1,
                       value=sum(sent.values()) if sent is not None else None, unit="commands", note=listed))


def _hop_rows(report: Report, turns: dict[str, list[float]], noop: Row, via: Row, direct: Row) -> None:
    """Each hop's p50 cost and its share of the pipe's overhead over direct CDP (p50 differences)."""
    for name, label in (("host", "native host relay, isolated (app socket → stdout → stdin → socket)"),
                        ("host_floor", "  its floor: the same I/O with no process between"),
                        ("bridge", "app bridge ping, isolated (peer on the same loop)"),
                        ("bare", "  its floor: the same framed round trip, no bridge")):
        report.add(Row.timing("pipe-hop", label, turns[name]))
    p50 = {name: Row.timing("", "", samples).p50_ms or 0.0 for name, samples in turns.items()}
    assert noop.p50_ms is not None and via.p50_ms is not None and direct.p50_ms is not None
    overhead = via.p50_ms - direct.p50_ms
    host = max(p50["host"] - p50["host_floor"], 0.0)
    bridge = max(p50["bridge"] - p50["bare"], 0.0)
    hops = {
        "app bridge (envelope, framing, futures, validation)": bridge,
        "native host relay (two threads, stdio and socket)": host,
        "Chrome native messaging + extension port/dispatch (no-op rest)": noop.p50_ms - host - bridge,
        "extension action path beyond direct CDP (evaluate − no-op − direct)": via.p50_ms - noop.p50_ms
        - direct.p50_ms,
    }
    for label, ms in hops.items():
        share = f"{100 * ms / overhead:.0f} % of the overhead" if overhead > 0 else ""
        report.add(Row("pipe-hop", label, len(turns["via"]), value=round(ms, 3), unit="ms", note=share))
