"""A process of its own that holds one MCP client session (and one bare lane) and times calls on command.

`python -m bench.mcp_sampler HOME`: reads `mcp`, `lane` or `echo` lines on stdin, answers each with the seconds
one `get_tabs` took that way (`echo`: one call of bench.mcp_echo's tool, the SDK's own floor), timed on this
process's loop. Kept out of the bench's process so the client's own
Python work does not compete for the core's interpreter lock, as a real MCP client (another program) does not.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from contextlib import AsyncExitStack
from pathlib import Path

import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from app.mcp.lane import LaneClient
from tests.e2e.mcp_helpers import ROOT, server_params

GET_TABS = {"type": "get_tabs"}


async def via_mcp(session: ClientSession, lane: LaneClient, echo: ClientSession) -> float:
    start = time.perf_counter()
    result = await session.call_tool("browser", GET_TABS)
    elapsed = time.perf_counter() - start
    assert not result.is_error, result.content
    return elapsed


async def via_lane(session: ClientSession, lane: LaneClient, echo: ClientSession) -> float:
    start = time.perf_counter()
    reply = await lane.call("act", {"action": GET_TABS})
    elapsed = time.perf_counter() - start
    assert reply["ok"] and not reply["output"]["is_error"], reply
    return elapsed


async def via_echo(session: ClientSession, lane: LaneClient, echo: ClientSession) -> float:
    start = time.perf_counter()
    await echo.call_tool("echo", {})
    return time.perf_counter() - start


SAMPLES = {"mcp": via_mcp, "lane": via_lane, "echo": via_echo}


async def main(home: Path) -> None:
    loop = asyncio.get_running_loop()
    echo_params = StdioServerParameters(command=sys.executable, args=["-m", "bench.mcp_echo"], cwd=str(ROOT))
    with open(home.parent / "bench-mcp.stderr", "w") as errlog:
        async with AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(stdio_client(server_params(home), errlog=errlog))
            info = types.Implementation(name="bench", version="1")
            session = await stack.enter_async_context(ClientSession(read, write, client_info=info))
            await session.initialize()
            read, write = await stack.enter_async_context(stdio_client(echo_params, errlog=errlog))
            echo = await stack.enter_async_context(ClientSession(read, write, client_info=info))
            await echo.initialize()
            lane = await LaneClient.connect(home, f"mcp-bench-{uuid.uuid4().hex[:6]}", "bench lane")
            print("ready", flush=True)
            while (command := (await loop.run_in_executor(None, sys.stdin.readline)).strip()) in SAMPLES:
                print(await SAMPLES[command](session, lane, echo), flush=True)
            await lane.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
