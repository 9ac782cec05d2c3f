"""bua against its peers: Playwright MCP and chrome-devtools-mcp (pinned in bench/peers/package.json, installed by
`make bench`), the same tasks on the same pages (bench.peers_pages, on 127.0.0.1), in one run.

All three are driven over stdio by the official MCP SDK's client (bench.peers_client, in a process of its own):
`bua mcp` against this bench's core and its browser (Debian's Chromium with the extension), each peer launching
Debian's Chromium headless itself. Each task is a fixed script per server (bench.peers_tasks) that reads every
element's ref from that server's own answers and checks that the job got done. The servers take turns: each
round runs each task once per server, the order rotating per round; the cheap call is sampled in turn, A B C A
B C. A peer that is not installed or does not start is reported with why, and its columns are left out.

Rows: per task and server, the characters the model reads (the tool results' text), the calls made, and p50/p95
per call; the ratio against the best peer. Each server's last run of each task, call by call with its answer, is
written to bench/results/peers-answers.json. Goals: the seed scenario at most 0.5× the best peer's characters, the
form at most 0.75×, and the cheap call's p50 at most 1.0× chrome-devtools-mcp's.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.live import live_browser
from bench.peers_pages import PeerPages
from bench.peers_servers import BUA, DEVTOOLS, PLAYWRIGHT
from bench.peers_tasks import CHEAP_TOOL, EVALUATE_TOOL, TASK_NAMES
from bench.report import RESULTS, Report, Row
from tests.e2e.mcp_helpers import ROOT

PEERS = (PLAYWRIGHT, DEVTOOLS)
CHAR_GOALS = {"seed": 0.5, "form": 0.75}
CHEAP_GOAL = 1.0
WORK_TASKS = ("seed", "form", "table")
ONLY_CHEAP_ENV = "BUA_PEERS_CHEAP_ONLY"
"""Set to 1 to run only the cheap calls (a quick look at the pipe; `make bench` runs everything)."""


def _client(home: Path, work: Path, urls: dict[str, str], rounds: int, cheap_n: int) -> dict[str, Any]:
    config = work / "peers-config.json"
    tasks = [] if os.environ.get(ONLY_CHEAP_ENV) == "1" else list(WORK_TASKS)
    config.write_text(json.dumps({"home": str(home), "work": str(work), "urls": urls, "rounds": rounds,
                                  "cheap_n": cheap_n, "tasks": tasks}))
    done = subprocess.run([sys.executable, "-m", "bench.peers_client", str(config)], cwd=ROOT, capture_output=True,
                          text=True, timeout=3600)
    if done.returncode != 0:
        raise RuntimeError(f"bench.peers_client failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return dict(json.loads(done.stdout.strip().splitlines()[-1])["servers"])


def _chars(entry: dict[str, Any]) -> int:
    """The task's characters: the median over rounds (a script's answer sizes vary only with the page's timing)."""
    return int(statistics.median(entry["chars"]))


def _add_task_rows(report: Report, task: str, servers: dict[str, Any]) -> dict[str, int]:
    chars: dict[str, int] = {}
    for name, data in servers.items():
        entry = data.get("tasks", {}).get(task)
        if not entry:
            continue
        failures = entry["failures"]
        rounds = len(entry["chars"])
        label = {"cheap": CHEAP_TOOL, "evaluate": EVALUATE_TOOL}.get(task, {}).get(name, name)
        note = f"{len(failures)}/{rounds} failed: {failures[0][:200]}" if failures else ""
        row = Row.timing("peers", f"{TASK_NAMES[task]}: {label}"[:52], entry["seconds"], note=note)
        row.value, row.unit = _chars(entry), f"chars, {len(entry['seconds']) // max(rounds, 1)} calls"
        report.add(row)
        if not failures:
            chars[name] = _chars(entry)
    return chars


def _best_peer(values: dict[str, float]) -> tuple[str, float] | None:
    peers = [(values[p], p) for p in PEERS if p in values]
    return (min(peers)[1], min(peers)[0]) if peers else None


def _report(report: Report, servers: dict[str, Any]) -> None:
    for name, data in servers.items():
        if "skipped" in data:
            report.add(Row("peers", f"{name}: skipped", 0, note=data["skipped"][:300]))
        else:
            version = f" {data['version']}" if data.get("version") else ""
            report.add(Row("peers", f"{name}{version}: tool list (tools/list JSON)", 1,
                           value=data["tool_list_chars"], unit="chars"))
    for task in WORK_TASKS:
        chars = _add_task_rows(report, task, servers)
        best = _best_peer({k: float(v) for k, v in chars.items()})
        if best is None or BUA not in chars:
            continue
        ratio = chars[BUA] / best[1]
        report.add(Row("peers", f"{task}: bua / best peer ({best[0]}) characters", 1, value=round(ratio, 3), unit="x"))
        if task in CHAR_GOALS:
            report.goal(f"peers: {task} at most {CHAR_GOALS[task]}x the best peer's characters ({best[0]})", ratio,
                        CHAR_GOALS[task], "x")
    for task, what in (("cheap", "cheap call"), ("evaluate", "evaluate 1")):
        _add_task_rows(report, task, servers)
        seconds = {n: d["tasks"][task]["seconds"] for n, d in servers.items() if task in d.get("tasks", {})}
        if BUA not in seconds:
            continue
        p50 = {n: statistics.median(s) for n, s in seconds.items()}
        for peer in PEERS:
            if peer in p50:
                report.add(Row("peers", f"{what} p50: bua / {peer}", len(seconds[BUA]),
                               value=round(p50[BUA] / p50[peer], 3), unit="x"))
        if task == "cheap" and DEVTOOLS in p50:
            report.goal("peers: cheap call p50 at most 1.0x chrome-devtools-mcp's list_pages",
                        p50[BUA] / p50[DEVTOOLS], CHEAP_GOAL, "x")


def run(report: Report, fixture_url: str, rounds: int = 3, cheap_n: int = 200) -> None:
    pages = PeerPages()
    try:
        with live_browser("bua-bench-peers-") as (core, _browser, _bridge), \
                tempfile.TemporaryDirectory(prefix="bua-bench-peers-work-") as tmp:
            servers = _client(core.home, Path(tmp), pages.urls(), rounds, cheap_n)
    finally:
        pages.stop()
    _report(report, servers)
    RESULTS.mkdir(parents=True, exist_ok=True)
    answers = {name: {task: entry.get("answers", []) for task, entry in data.get("tasks", {}).items()}
               for name, data in servers.items()}
    (RESULTS / "peers-answers.json").write_text(json.dumps(answers, indent=1, ensure_ascii=False))
