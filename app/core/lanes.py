"""MCP lanes on the local socket: one connection per MCP client (`bua mcp`), one task per lane.

The lane says who it is in its auth frame: `{kind: "auth", role: "lane", token, task_id, label}`. Then
requests `{kind: "lane", id, op, args}` run concurrently (an MCP client may call tools in parallel) and are
answered by `{kind: "lane_result", id, ok, …}`, preceded for `task` by `{kind: "lane_event", id, type, data}`
frames. `{kind: "lane_cancel", id}` aborts one request (the MCP client's `notifications/cancelled`). The core
pushes `{kind: "lane_tabs", output}` and hears `{kind: "lane_seen"}` back (app/core/lane_tabs.py).

The person's controls reach a lane like any task: its id is registered with `Controls`, so Stop all and the
task's Stop abort what it is doing (and it keeps working for the client's next call). When the connection
closes, its pending requests are settled and its sessions end; its tabs stay open and leave the group.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from typing import Any

from app.abort import AbortSignal
from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.runtime import AgentRuntime
from app.agent.task_board import Milestone
from app.agent.tools import browser as browser_tool
from app.agent.tools.base import ToolOutput
from app.bridge.pool import BrowserBridgePool
from app.bridge.stream import read_message, write_message
from app.core.lane_ops import LANE_OPS, LaneCore, act
from app.core.lane_tabs import GET_TABS, LaneTabs
from app.protocol.actions import ActionModel
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode, RequestErrorCode, error_body
from app.store.screenshots import thumbnail
from native_host import framing

log = logging.getLogger(__name__)

DISCONNECTED = "the MCP client disconnected"
CANCELLED = "cancelled by the MCP client"
BRIDGE_WAIT_S = 10.0
"""How long a lane's action waits for a browser to connect (a core just started, Chrome reconnecting)."""
TASK_ID = re.compile(r"^mcp-[A-Za-z0-9_.-]{1,64}$")


@dataclass
class LaneBridge:
    """The pool as the lane's tools see it: the lane's label names the tab group, and a lane's first action
    waits a little for a browser that is on its way (starting or reconnecting) instead of failing at once; with
    none on its way it fails at once with the setup step."""

    pool: BrowserBridgePool
    label: str
    wait_s: float = BRIDGE_WAIT_S

    async def request(self, action: ActionModel, task_id: str, abort: AbortSignal | None = None,
                      timeout: float | None = None, browser: str | None = None,
                      label: str | None = None) -> Response:
        await self.pool.wait_if_expected(self.wait_s)
        return await self.pool.request(action, task_id, abort, timeout, browser, self.label)


class Lane:
    def __init__(self, core: LaneCore, task_id: str, label: str, writer: asyncio.StreamWriter,
                 runtime: AgentRuntime) -> None:
        self.core = core
        self.runtime = runtime
        """Shared by the lane's `browser` calls (which use no model); `browser_task` builds its own."""
        self.task_id = task_id
        self.label = label
        self.description = f"{label} (MCP)"
        self.writer = writer
        self.bridge = LaneBridge(core.pool, label)
        self.steps = 0
        self.stopped: str | None = None
        self.running: dict[Any, AbortSignal] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.tabs: LaneTabs | None = None
        """The get_tabs output pushed to `bua mcp` (app/core/lane_tabs.py), from the lane's first frame on."""
        self.answered_ahead = 0
        """How many get_tabs `bua mcp` answered from the push (each then run here: lane_seen)."""
        self.stop_signal = self._arm()

    # -- the person's controls --------------------------------------------
    def _arm(self) -> AbortSignal:
        """Stop and Stop all abort the signal registered for the task: every request of the lane settles at
        once, and the lane stays stopped (as a stopped agent task does): its later calls answer `stopped`
        until the client reconnects, which opens a new lane."""
        stop_signal = AbortSignal()
        stop_signal.add_callback(self._stopped)
        self.core.controls.register(self.task_id, stop_signal)
        return stop_signal

    def _stopped(self, reason: str) -> None:
        self.stopped = reason
        if self.tabs is not None:
            self.tabs.push()  # a stopped lane's get_tabs is the core's to answer (`stopped`)

    def open(self) -> None:
        self.core.board.start(self.task_id, self.description)

    def resume_on_board(self) -> None:
        """After a browser_task finished (or a Stop), the lane shows as working again when it acts."""
        record = self.core.board.tasks.get(self.task_id)
        if record is None or record.status != "running" or record.description != self.description:
            self.core.board.start(self.task_id, self.description)

    def deps(self, abort: AbortSignal, runtime: AgentRuntime | None = None) -> Deps:
        return Deps(context=RuntimeContext(task_id=self.task_id),
                    services=ToolServices(browser_bridge=self.bridge, task_board=self.core.board),
                    runtime=runtime or self.runtime, abort=abort)

    def post_milestone(self, raw: dict[str, Any], output: ToolOutput) -> None:
        milestone_line = browser_tool.BROWSER.milestone
        assert milestone_line is not None
        self.steps += 1
        milestone = Milestone(
            self.task_id, self.steps, str(raw.get("type", "browser")) if isinstance(raw, dict) else "browser",
            milestone_line(raw if isinstance(raw, dict) else {}, output),
            output.images[0].data_url if output.images else None,
            ok=not output.is_error and output.data.get("ok", True) is not False)
        self.core.board.post_milestone(milestone)
        if milestone.screenshot is not None:
            self._spawn(self._shrink(milestone))

    async def _shrink(self, milestone: Milestone) -> None:
        """A lane may live for hours: its screenshots stay on the board as thumbnails, not full images (an
        agent task's are shrunk when it finishes; a lane's right after the popup got the full one)."""
        full = milestone.screenshot
        if full is not None:
            milestone.screenshot = await asyncio.to_thread(thumbnail, full) or full

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- the connection ---------------------------------------------------
    def _write(self, frame: dict[str, Any]) -> None:
        if not self.writer.is_closing():
            write_message(self.writer, frame)

    async def serve(self, reader: asyncio.StreamReader) -> None:
        self.open()
        self.tabs = LaneTabs(self.core.pool, self.task_id, self._write, lambda: self.stopped is None,
                             self.runtime.settings.change_lists)
        self.tabs.push()
        try:
            while True:
                try:
                    message = await read_message(reader)
                except framing.FrameError as err:
                    log.warning("lane %s sent a malformed frame: %s", self.task_id, err)
                    if err.fatal:
                        return
                    continue
                if message is None:
                    return
                if message.get("kind") == "lane_cancel":
                    abort = self.running.get(message.get("id"))
                    if abort is not None:
                        abort.abort(CANCELLED)
                elif message.get("kind") == "lane":
                    self._spawn(self._answer(message))
                elif message.get("kind") == "lane_seen":
                    # bua mcp answered a get_tabs from the push: it runs here as if asked, before the next
                    # frame is read (the guard sees what the model saw; the board gets the step).
                    self.answered_ahead += 1
                    seen = act(self, {"action": dict(GET_TABS)}, self.stop_signal.child(), lambda _k, _d: None)
                    if self.tabs is not None and self.tabs.output() is not None:
                        await seen  # the tab mirror answers it at once
                    else:
                        self._spawn(seen)  # it would ask the browser: the lane's next frames do not wait for it
        except ConnectionError:
            return
        finally:
            await self.close()

    async def _answer(self, message: dict[str, Any]) -> None:
        request_id = message.get("id")
        op_name = message.get("op")
        op = LANE_OPS.get(op_name) if isinstance(op_name, str) else None
        base = {"v": 1, "kind": "lane_result", "id": request_id}
        if op is None:
            reply = base | {"ok": False, "error": error_body(RequestErrorCode.INVALID_REQUEST,
                                                             f"unknown op {op_name!r}; valid: {', '.join(LANE_OPS)}")}
        else:
            abort = self.stop_signal.child()
            self.running[request_id] = abort

            def emit(kind: str, data: dict[str, Any]) -> None:
                if not self.writer.is_closing():
                    write_message(self.writer, {"v": 1, "kind": "lane_event", "id": request_id, "type": kind,
                                                "data": data})

            try:
                reply = base | await op(self, message.get("args") or {}, abort, emit)
            except Exception as err:  # a failing op answers; it never kills the lane or the core
                log.exception("lane op %s failed", op_name)
                reply = base | {"ok": False, "error": error_body(ErrorCode.INTERNAL_ERROR, str(err))}
            finally:
                self.running.pop(request_id, None)
        if not self.writer.is_closing():
            write_message(self.writer, reply)
            try:
                await self.writer.drain()
            except ConnectionError:
                pass

    async def close(self) -> None:
        """The client went away: settle what it waits for, end its sessions, leave its tabs to the person."""
        if self.tabs is not None:
            self.tabs.close()
        for abort in list(self.running.values()):
            abort.abort(DISCONNECTED)
        for bridge in self.core.pool.bridges:
            bridge.abort_pending(DISCONNECTED, self.task_id)
        self.core.controls.unregister(self.task_id, self.stop_signal)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        await self.core.controls.broadcast("end_session", {"task_id": self.task_id, "reason": "client_disconnected"})
        self.core.board.finish(self.task_id, "ended")
        if self.core.pool.safety is not None:
            self.core.pool.safety.forget(self.task_id)  # a lane never comes back: each connection is a new task id


class LaneService:
    """Accepts lanes on the core's socket (role "lane"); one `Lane` per connection."""

    def __init__(self, core: LaneCore) -> None:
        self.core = core
        self.lanes: dict[str, Lane] = {}

    def distinct_label(self, label: str) -> str:
        """The client's name, numbered when a live lane already has it ("Claude Code 2"): two clients of one kind
        get tab groups, milestones and popup rows a person can tell apart."""
        taken = {lane.label for lane in self.lanes.values()}
        if label not in taken:
            return label
        return next(f"{label} {n}" for n in range(2, len(taken) + 3) if f"{label} {n}" not in taken)

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: dict[str, Any]) -> None:
        task_id = str(hello.get("task_id") or "")
        label = str(hello.get("label") or "").strip()[:60] or "MCP client"
        if not TASK_ID.match(task_id) or task_id in self.lanes:
            why = "is taken by a live lane" if task_id in self.lanes else "must look like mcp-<letters, digits>"
            write_message(writer, {"v": 1, "kind": "lane_refused", "message": f"task_id {task_id!r} {why}"})
            await writer.drain()
            return
        label = self.distinct_label(label)
        settings = await asyncio.to_thread(self.core.agent_settings)
        lane = Lane(self.core, task_id, label, writer, AgentRuntime(settings))
        self.lanes[task_id] = lane
        write_message(writer, {"v": 1, "kind": "lane_ready", "task_id": task_id})
        try:
            await lane.serve(reader)
        finally:
            self.lanes.pop(task_id, None)

