"""The peer suite's MCP client, in a process of its own (as a real MCP client is: its Python work does not
compete for the core's interpreter lock): the official SDK's stdio client holds one session with each server and
runs the tasks' scripts, servers in turn.


`python -m bench.peers_client CONFIG.json`: CONFIG names `home` (the running core's), `work` (a scratch folder),
`urls` (task → page), `rounds`, `cheap_n` and optionally `tasks` (the work tasks to run; the cheap calls
always run). Prints one JSON object on stdout: per server, either `skipped`
(why) or its version, its tool list's size and, per task, the characters read per round, each call's seconds,
any failure, and the last run's calls with their answers.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client

from bench import peers_servers
from bench.peers_tasks import CHEAP_SETUP, TASKS, Recorder, TaskFailed

START_TIMEOUT_S = 120.0
CALL_TIMEOUT_S = 120.0
VERSIONS = {peers_servers.PLAYWRIGHT: "@playwright/mcp", peers_servers.DEVTOOLS: "chrome-devtools-mcp"}


async def _open(stack: AsyncExitStack, server: peers_servers.Server, errlog: Any) -> tuple[ClientSession, int]:
    assert server.params is not None
    read, write = await stack.enter_async_context(stdio_client(server.params, errlog=errlog))
    info = types.Implementation(name="bua-peer-bench", version="1")
    session = await stack.enter_async_context(ClientSession(read, write, client_info=info))
    with anyio.fail_after(START_TIMEOUT_S):
        await session.initialize()
        tools = (await session.list_tools()).tools
    listed = json.dumps([t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools])
    return session, len(listed)


async def _run_once(session: ClientSession, task: str, server: str, url: str) -> tuple[Recorder, str]:
    """The task's script once: what it recorded, and why it failed ("" when it did not)."""
    recorder = Recorder(session)
    try:
        with anyio.fail_after(CALL_TIMEOUT_S):
            await TASKS[task][server](recorder, url)
    except (TaskFailed, TimeoutError) as error:
        return recorder, str(error) or type(error).__name__
    return recorder, ""


def _record(out: dict[str, Any], name: str, task: str, recorder: Recorder, failed: str) -> None:
    entry = out[name]["tasks"].setdefault(task, {"chars": [], "seconds": [], "failures": []})
    entry["chars"].append(recorder.chars)
    entry["seconds"] += recorder.seconds
    if failed:
        entry["failures"].append(failed)
    entry["answers"] = recorder.texts


async def main(config: dict[str, Any]) -> dict[str, Any]:
    work = Path(config["work"])
    servers = [peers_servers.bua(Path(config["home"])), peers_servers.playwright(work),
               peers_servers.devtools(work)]
    out: dict[str, Any] = {}
    sessions: dict[str, ClientSession] = {}
    async with AsyncExitStack() as stack:
        for server in servers:
            if server.params is None:
                out[server.name] = {"skipped": server.missing}
                continue
            errlog = stack.enter_context(open(work / f"{server.name}.stderr", "w"))
            try:
                session, listed = await _open(stack, server, errlog)
            except Exception as error:  # a peer that does not start is reported, not fatal
                out[server.name] = {"skipped": f"did not start: {type(error).__name__}: {error}"}
                continue
            sessions[server.name] = session
            out[server.name] = {"version": peers_servers.installed_version(VERSIONS.get(server.name, "")),
                                "tool_list_chars": listed, "tasks": {}}
        names = list(sessions)
        work_tasks = [t for t in ("seed", "form", "table") if t in config.get("tasks", TASKS)]
        for task in work_tasks:
            for name in names:  # warm-up: each peer launches its browser on its first call
                await _run_once(sessions[name], task, name, config["urls"][task])
        for round_no in range(config["rounds"]):
            for task in work_tasks:
                order = names[round_no % len(names):] + names[:round_no % len(names)] if names else []
                for name in order:
                    _record(out, name, task, *await _run_once(sessions[name], task, name, config["urls"][task]))
            print(f"peers: round {round_no + 1}/{config['rounds']} done", file=sys.stderr, flush=True)
        for name in names:
            await CHEAP_SETUP[name](Recorder(sessions[name]), config["urls"]["plain"])
        for _ in range(config["cheap_n"]):  # sampled in turn, A B C A B C, each call its own sample
            for task in ("cheap", "evaluate"):
                for name in names:
                    _record(out, name, task, *await _run_once(sessions[name], task, name, ""))
    return out


if __name__ == "__main__":
    started = time.perf_counter()
    result = asyncio.run(main(json.loads(Path(sys.argv[1]).read_text())))
    print(json.dumps({"servers": result, "seconds": time.perf_counter() - started}))
