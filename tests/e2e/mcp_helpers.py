"""The MCP side of the e2e tests: `bua mcp` started by the SDK's own stdio client, as an MCP client starts it."""

from __future__ import annotations

import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from app.agent.page_text.region import read_view

ROOT = Path(__file__).resolve().parents[2]


def server_params(home: Path) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, args=["-m", "app", "mcp"], env={"BUA_HOME": str(home)},
                                 cwd=str(ROOT))


@asynccontextmanager
async def mcp_client(home: Path, name: str, errlog: Path | None = None) -> AsyncIterator[ClientSession]:
    log_path = errlog or home.parent / f"mcp-{name.replace(' ', '-')}.stderr"
    with open(log_path, "w") as log:
        async with stdio_client(server_params(home), errlog=log) as (read, write):
            async with ClientSession(read, write, client_info=types.Implementation(name=name, version="1")) as session:
                await session.initialize()
                yield session


def payload(result: types.CallToolResult) -> dict[str, Any]:
    """A result's first text block read as a model reads it (the facts, each page string at its key)."""
    first = result.content[0]
    assert isinstance(first, types.TextContent), result
    return read_view(first.text)


async def call(session: ClientSession, name: str, arguments: dict[str, Any] | None = None) -> types.CallToolResult:
    with anyio.fail_after(90):
        return await session.call_tool(name, arguments or {})


async def act(session: ClientSession, action: dict[str, Any]) -> dict[str, Any]:
    """One `browser` call that must succeed; its `result`."""
    result = await call(session, "browser", action)
    assert not result.is_error, result.content
    return payload(result)["result"]


async def lane_id(session: ClientSession) -> str:
    return (await call(session, "browser_status")).structured_content["task_id"]


async def eventually(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        await anyio.sleep(0.02)
    return False
