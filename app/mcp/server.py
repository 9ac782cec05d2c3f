"""`bua mcp`: a stdio MCP server on the official SDK's low-level `Server`, one lane per MCP client.

An MCP client starts `bua mcp` as a subprocess, so one process is one client: its lane (task id, tab group
"bua · <clientInfo.name>") opens on the first tool call, when the client has said who it is, and closes when
the client goes away (stdin ends). Stdio only: a local HTTP port could be reached by any web page the person
opens (DNS rebinding), and the person's logged-in browser is exactly what such a page must never reach.
"""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from app.mcp import results, tools
from app.mcp.boot import STARTED_NOTE, CoreHandle, find_or_start_core
from app.mcp.lane import CoreGone, LaneClient
from app.mcp.stdio import open_stdio

INSTRUCTIONS = ("bua gives you the person's own, logged-in browser. You work in your own lane: the tabs you open "
                "sit in a tab group named after you, other clients never see them and you never see theirs. "
                "Use `browser` for single steps (its description is the full guide: extract first, act by uid), "
                "`browser_task` to hand over a whole job and get one summary back, `browser_status` to find your "
                "tabs. The person can stop you at any time (Stop, the blocklist); an error names the next step.")


GET_TABS: dict[str, Any] = {"type": "get_tabs"}
"""The call answered here from what the core pushed ahead, when it did (app/core/lane_tabs.py): a bare get_tabs."""

KNOWN_CLIENTS = {"claude-code": "Claude Code", "claude-ai": "Claude Desktop", "cursor-vscode": "Cursor",
                 "Visual Studio Code": "VS Code", "Visual Studio Code - Insiders": "VS Code Insiders"}
"""`clientInfo.name` as these clients send it → the name the person knows them by (the tab group's label)."""


def label_for(info: types.Implementation | None) -> str:
    if info is None:
        return "MCP client"
    return info.title or KNOWN_CLIENTS.get(info.name) or info.name or "MCP client"


def client_label(ctx: ServerRequestContext[Any]) -> str:
    params = ctx.session.client_params
    return label_for(params.client_info if params is not None else None)


class LaneServer:
    """The MCP handlers of one client: tools list, tool calls forwarded to this client's lane in the core."""

    def __init__(self, handle: CoreHandle) -> None:
        self.handle = handle
        self.lane: LaneClient | None = None
        self._opening = asyncio.Lock()
        instructions = f"{INSTRUCTIONS}\n\n{STARTED_NOTE}" if handle.started_here else INSTRUCTIONS
        self.server: Server[Any] = Server("bua", version="0.1.0", instructions=instructions,
                                          on_list_tools=self.list_tools, on_call_tool=self.call_tool)
        # bua exports no traces: the SDK's default OpenTelemetry middleware (a span per message, a no-op without an
        # exporter) still cost 7 % of an MCP round trip (bench `peers`, the cheap call).
        self.server.middleware = [m for m in self.server.middleware if type(m).__name__ != "OpenTelemetryMiddleware"]
        self._tools = tools.mcp_tools()

    async def list_tools(self, ctx: ServerRequestContext[Any],
                         params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tools)

    async def _lane(self, ctx: ServerRequestContext[Any]) -> LaneClient:
        """This client's lane, opened on first use; reopened (a new lane) when the core went away meanwhile,
        on a core this process starts if none answers any more."""
        async with self._opening:
            if self.lane is not None and self.lane.alive:
                return self.lane
            if self.lane is not None:
                await self.lane.close()
                self.lane = None
            task_id, label = f"mcp-{uuid.uuid4().hex[:12]}", client_label(ctx)
            try:
                self.lane = await LaneClient.connect(self.handle.home, task_id, label)
            except CoreGone:
                if self.handle.started_here:
                    raise
                self.handle = await find_or_start_core(self.handle.home)
                self.lane = await LaneClient.connect(self.handle.home, task_id, label)
            return self.lane

    async def call_tool(self, ctx: ServerRequestContext[Any],
                        params: types.CallToolRequestParams) -> types.CallToolResult:
        arguments = params.arguments or {}
        try:
            lane = await self._lane(ctx)
            if params.name == tools.BROWSER:
                pushed = lane.pushed_get_tabs() if arguments == GET_TABS else None
                return results.browser_result(pushed or await lane.call("act", {"action": arguments}))
            if params.name == tools.BROWSER_TASK:
                return results.task_result(await self._task(ctx, lane, arguments))
            if params.name == tools.BROWSER_STATUS:
                return results.status_result(await lane.call("status", {}))
        except CoreGone as err:
            return results.failure("extension_disconnected", f"{err}; the next call opens a new lane on a running "
                                   "bua core (or on one this MCP server starts)")
        valid = ", ".join(t.name for t in self._tools)
        return results.failure("invalid_action", f"unknown tool {params.name!r}; valid: {valid}")

    async def _task(self, ctx: ServerRequestContext[Any], lane: LaneClient,
                    arguments: dict[str, Any]) -> dict[str, Any]:
        """The subagent's milestones become progress notifications, in order, all sent before the result."""
        send, receive = anyio.create_memory_object_stream[dict[str, Any]](float("inf"))

        async def pump() -> None:
            async with receive:
                async for milestone in receive:
                    await ctx.session.report_progress(float(milestone.get("step", 0)), None,
                                                      str(milestone.get("summary", "")))

        async with anyio.create_task_group() as group:
            group.start_soon(pump)
            with send:
                reply = await lane.call("task", arguments, on_event=lambda _kind, data: send.send_nowait(data))
        return reply

    async def close(self) -> None:
        if self.lane is not None:
            await self.lane.close()


async def serve(home: Path) -> None:
    handle = await find_or_start_core(home)
    lane_server = LaneServer(handle)
    stdio = await open_stdio()
    try:
        async with stdio_server(*((stdio.stdin, stdio.stdout) if stdio else ())) as (read, write):
            await lane_server.server.run(read, write, lane_server.server.create_initialization_options())
    finally:
        await lane_server.close()
        await handle.close()
