"""`python -m bench.mcp_echo`: an MCP server with one tool that answers at once, on the same stdio transport as
`bua mcp` (app.mcp.stdio): the floor of an MCP round trip with the SDK on both ends, for the `mcp` suite."""

from __future__ import annotations

import asyncio
from typing import Any

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from app.mcp.stdio import open_stdio


async def list_tools(ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=[types.Tool(name="echo", input_schema={"type": "object"})])


async def call_tool(ctx: ServerRequestContext[Any], params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(text="{}")])


async def main() -> None:
    server: Server[Any] = Server("echo", on_list_tools=list_tools, on_call_tool=call_tool)
    stdio = await open_stdio()
    async with stdio_server(*((stdio.stdin, stdio.stdout) if stdio else ())) as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    asyncio.run(main())
