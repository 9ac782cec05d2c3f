"""`bua mcp` against the core directly, in one browser, one run.

* Round trip of the cheapest action (`get_tabs`: chrome.tabs, no CDP) three ways, sampled in turn:
  - through `bua mcp`: the SDK's stdio client → `bua mcp` (JSON-RPC, the SDK's server) → the lane socket →
    the core → host → extension and back, timed on the MCP client's loop, in a process of its own
    (bench.mcp_sampler), as a real MCP client is;
  - through the lane socket alone (what `bua mcp` does inside, without MCP), timed in that same process;
  - directly on the core's loop (`pool.request`, as the built-in subagent sends its actions), which the core's
    tab mirror answers (app/bridge/tab_mirror.py), and past the mirror, asked of the extension, for the pipe;
  - and, for scale, the SDK's own floor: a tool that answers at once (bench.mcp_echo), SDK on both ends.
  Goal: MCP adds under 1 ms at p50 over the core directly. The call is then split per hop: the SDK floor and
  bua's MCP server beyond it (`bua mcp` answers a bare get_tabs from what the core pushed: app/core/lane_tabs.py),
  then what a call that goes further adds: the lane socket and op, the core, the pipe to the extension.
* Cold start: spawn `bua mcp` → initialize → first tool result (`browser_status`), with a running core and
  without one (then `bua mcp` starts its own core in-process).
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Callable

from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client

from bench.live import live_browser
from bench.report import Report, Row, interleaved, on_loop_once
from tests.e2e.mcp_helpers import ROOT, server_params
from tests.harness.actions import ask_extension, pool_request

GET_TABS = {"type": "get_tabs"}


class SamplerProcess:
    """bench.mcp_sampler in a process of its own; `sampler(kind)` takes one sample there."""

    def __init__(self, home: Path) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "bench.mcp_sampler", str(home)], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None and self.proc.stdout.readline().strip() == "ready"

    def sampler(self, kind: str) -> Callable[[], float]:
        def once() -> float:
            assert self.proc.stdin is not None and self.proc.stdout is not None
            self.proc.stdin.write(kind + "\n")
            self.proc.stdin.flush()
            return float(self.proc.stdout.readline())
        return once

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(30)


async def _first_result(home: Path) -> float:
    start = time.perf_counter()
    with open(home.parent / f"cold-{uuid.uuid4().hex[:6]}.stderr", "w") as errlog:
        async with stdio_client(server_params(home), errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                result = await session.call_tool("browser_status", {})
                elapsed = time.perf_counter() - start
    assert not result.is_error, result.content
    return elapsed


def cold_starts(home_for: Callable[[int], Path], n: int) -> list[float]:
    return [asyncio.run(_first_result(home_for(i))) for i in range(n)]


def _hop_shares(report: Report, n: int, mcp: float, lane: float, echo: float, direct: float, asked: float) -> None:
    """One MCP get_tabs split per hop (p50 differences), each with its share of the whole call. bua mcp answers a
    bare get_tabs from what the core pushed ahead (app/core/lane_tabs.py), so the call itself is the SDK floor and
    bua mcp's own work; the hops a call that goes further adds are listed after, with their p50s."""
    hops = {
        "the MCP SDK's own round trip (client + server, the echo floor)": echo,
        "bua's MCP server beyond the SDK floor (the pushed answer, the result, the note)": mcp - echo,
    }
    for label, ms in hops.items():
        report.add(Row("mcp-hop", label, n, value=round(ms, 3), unit="ms", note=f"{100 * ms / mcp:.0f} % of the call"))
    further = {
        "+ a call that reaches the core: the lane socket and op (lane − direct)": lane - direct,
        "+ the core's own work (pool.request, the guard, the tab mirror)": direct,
        "+ a call that reaches the extension: the pipe to it and back (asked − direct)": asked - direct,
    }
    for label, ms in further.items():
        report.add(Row("mcp-hop", label, n, value=round(ms, 3), unit="ms", note="not in a get_tabs call"))


def run(report: Report, fixture_url: str, n: int = 200) -> None:
    with live_browser("bua-bench-mcp-") as (core, browser, bridge):
        client = SamplerProcess(core.home)
        try:
            samplers: dict[str, Callable[[], float]] = {
                "mcp": client.sampler("mcp"),
                "lane": client.sampler("lane"),
                "echo": client.sampler("echo"),
                "direct": on_loop_once(core, lambda: pool_request(core.pool, GET_TABS, "bench")),
                "extension": on_loop_once(core, lambda: ask_extension(bridge, GET_TABS, "bench")),
            }
            interleaved(samplers, 20)  # warm-up
            turns = interleaved(samplers, n)
        finally:
            client.close()
        mcp = report.add(Row.timing("mcp", "get_tabs through bua mcp (stdio JSON-RPC; the core's push)", turns["mcp"]))
        lane = report.add(Row.timing("mcp", "get_tabs through the lane socket alone (no MCP, the core answers)", turns["lane"]))
        echo = report.add(Row.timing("mcp", "MCP floor: a tool that answers at once, SDK client + SDK server",
                                     turns["echo"]))
        direct = report.add(Row.timing("mcp", "get_tabs on the core's loop (as the subagent sends it: the mirror)",
                                       turns["direct"]))
        asked = report.add(Row.timing("mcp", "get_tabs asked of the extension on the core's loop (past the mirror)",
                                      turns["extension"]))
        answered = core.run(lambda: bridge.tabs.answered)
        report.add(Row("mcp", "get_tabs the tab mirror answered (the rest asked the extension)", answered,
                       value=answered, unit="calls"))
        report.add(Row("mcp", "what the mirror saves a get_tabs: the pipe to the extension (p50 difference)", n,
                       value=round(asked.p50_ms - direct.p50_ms, 3), unit="ms"))
        report.add(Row("mcp", "MCP overhead over the core directly (p50 difference)", n,
                       value=round(mcp.p50_ms - direct.p50_ms, 3), unit="ms"))
        report.add(Row("mcp", "MCP overhead over the core directly (p95 difference)", n,
                       value=round(mcp.p95_ms - direct.p95_ms, 3), unit="ms"))
        report.goal("bua mcp adds under 1 ms at p50 over the core directly", mcp.p50_ms - direct.p50_ms, 1.0, "ms")
        _hop_shares(report, n, mcp.p50_ms, lane.p50_ms, echo.p50_ms, direct.p50_ms, asked.p50_ms or 0.0)
        report.add(Row.timing("mcp", "cold start: spawn bua mcp → first tool result, core running",
                              cold_starts(lambda _i: core.home, 10)))
    with tempfile.TemporaryDirectory(prefix="bua-bench-mcp-cold-") as tmp:
        report.add(Row.timing("mcp", "cold start: spawn bua mcp → first tool result, no core (starts one)",
                              cold_starts(lambda i: Path(tmp) / f"home-{i}", 10)))
