"""A process of its own that holds one MCP client session (and one bare lane) and times calls on command.

`python -m bench.mcp_sampler HOME`: reads `mcp` or `lane` lines on stdin, answers each with the seconds one
`get_tabs` took that way, timed on this process's loop. Kept out of the bench's process so the client's own
Python work does not compete for the core's interpreter lock, as a real MCP client (another program) does not.
"""

from __future__ import annotations

import asyncio
import sys
import time
import uuid
from pathlib import Path

import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client

from app.mcp.lane import LaneClient
from tests.e2e.mcp_helpers import server_params

GET_TABS = {"type": "get_tabs"}


async def via_mcp(session: ClientSession, lane: LaneClient) -> float:
    start = time.perf_counter()
    result = await session.call_tool("browser", GET_TABS)
    elapsed = time.perf_counter() - start
    assert not result.is_error, result.content
    return elapsed


async def via_lane(session: ClientSession, lane: LaneClient) -> float:
    start = time.perf_counter()
    reply = await lane.call("act", {"action": GET_TABS})
    elapsed = time.perf_counter() - start
    assert reply["ok"] and not reply["output"]["is_error"], reply
    return elapsed


SAMPLES = {"mcp": via_mcp, "lane": via_lane}


async def main(home: Path) -> None:
    loop = asyncio.get_running_loop()
    with open(home.parent / "bench-mcp.stderr", "w") as errlog:
        async with stdio_client(server_params(home), errlog=errlog) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(name="bench", version="1")) as session:
                await session.initialize()
                lane = await LaneClient.connect(home, f"mcp-bench-{uuid.uuid4().hex[:6]}", "bench lane")
                print("ready", flush=True)
                while (command := (await loop.run_in_executor(None, sys.stdin.readline)).strip()) in SAMPLES:
                    print(await SAMPLES[command](session, lane), flush=True)
                await lane.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
