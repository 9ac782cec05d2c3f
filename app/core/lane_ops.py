"""What an MCP lane can ask of the core: `act` (one browser action), `task` (the browser subagent on a whole
job, milestones streamed), `status` (this lane's view of sessions and the blocklist).

Each answers `{ok, output | result | error}`; a browser output crosses the socket as data plus images apart,
so the MCP server can hand screenshots on as image content.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any, Awaitable, Callable, Protocol

from app.abort import AbortSignal
from app.agent.context import Deps
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.subagent_run import run_subagent
from app.agent.subagents import BROWSER_SUBAGENT
from app.agent.task_board import TaskBoard
from app.agent.tools import browser as browser_tool
from app.agent.tools.base import ToolOutput
from app.bridge.pool import BrowserBridgePool
from app.core.chat import ChatService
from app.core.control import Controls
from app.core.sessions import SessionsTable
from app.protocol.errors import ErrorCode, RequestErrorCode, error_body
from app.store.db import Store


class LaneCore(Protocol):
    """What a lane uses of the core (the core itself: app.core.service.Core)."""

    pool: BrowserBridgePool
    board: TaskBoard
    controls: Controls
    sessions: SessionsTable
    store: Store
    chat_service: ChatService

    def agent_settings(self) -> AgentSettings: ...


class Lane(Protocol):
    """What an op uses of its lane (app.core.lanes.Lane)."""

    core: LaneCore
    task_id: str
    label: str
    stopped: str | None

    def deps(self, abort: AbortSignal, runtime: AgentRuntime | None = None) -> Deps: ...

    def resume_on_board(self) -> None: ...

    def post_milestone(self, raw: dict[str, Any], output: ToolOutput) -> None: ...


Emit = Callable[[str, dict[str, Any]], None]
LaneOp = Callable[[Lane, dict[str, Any], AbortSignal, Emit], Awaitable[dict[str, Any]]]

# A lane's actions reach the browser through the pool, whose safety guard (app/safety/guard.py) holds a sensitive
# action for the person, or answers `confirmation_required` when no app window is there to ask in: lanes need no
# hook of their own.


def _refused(action: Any, code: ErrorCode, message: str) -> dict[str, Any]:
    """A browser output that never reached the browser (stopped lane, confirmation needed)."""
    output = ToolOutput({"ok": False, "action": action, "error": error_body(code, message)}, is_error=True)
    return {"ok": True, "output": output_frame(output)}


def _stopped_message(lane: Lane) -> str:
    return (f"the person stopped this client's browser work ({lane.stopped}): do nothing more in the browser; report "
            "what you did and found so far. Reconnecting this MCP server starts a new lane.")


def output_frame(output: ToolOutput) -> dict[str, Any]:
    """A tool output as it crosses the socket: data, images apart (never base64 inside the data)."""
    return {"data": output.data, "is_error": output.is_error, "boundary": output.boundary,
            "images": [{"media_type": i.media_type, "data": i.data_b64} for i in output.images]}


async def act(lane: Lane, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    raw = args.get("action")
    if not isinstance(raw, dict):
        return {"ok": False, "error": error_body(RequestErrorCode.INVALID_REQUEST,
                                                 "`action` must be an object with a `type`, e.g. {\"type\": \"extract\"}")}
    if lane.stopped is not None:
        return _refused(raw.get("type"), ErrorCode.STOPPED, _stopped_message(lane))
    lane.resume_on_board()
    output = await browser_tool.execute(raw, lane.deps(abort))
    lane.post_milestone(raw, output)
    return {"ok": True, "output": output_frame(output)}


async def task(lane: Lane, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    prompt = str(args.get("prompt") or "").strip()
    if not prompt:
        return {"ok": False, "error": error_body(RequestErrorCode.INVALID_REQUEST,
                                                 "`prompt` is empty: describe the whole job, self-contained")}
    if lane.stopped is not None:
        return {"ok": False, "error": error_body(ErrorCode.STOPPED, _stopped_message(lane))}
    description = str(args.get("description") or "").strip() or prompt[:60]
    settings = await asyncio.to_thread(lane.core.agent_settings)

    def forward(kind: str, payload: dict[str, Any]) -> None:
        if kind == "subagent_milestone":
            emit("milestone", {k: v for k, v in payload.items() if k != "screenshot"})

    runtime = AgentRuntime(settings, lane.core.chat_service.client_factory, forward)
    deps = lane.deps(abort, runtime)
    result = await run_subagent(BROWSER_SUBAGENT, f"{lane.label}: {description}", prompt, deps,
                                call_id=uuid.uuid4().hex[:8])
    return {"ok": True, "result": result}


async def status(lane: Lane, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    """The lane sees its own tabs in full and only how many sessions other tasks hold."""
    core = lane.core
    mine = [row.as_dict() for row in core.sessions.for_task(lane.task_id)]
    record = core.board.tasks.get(lane.task_id)
    return {"ok": True, "result": {
        "task_id": lane.task_id, "label": lane.label,
        "browsers": [{"browser": b["browser"], "profile_id": b["profile_id"]} for b in core.pool.status()],
        "sessions": [{k: row[k] for k in ("tab_id", "url", "title", "domain", "started", "last_action_type")}
                     for row in mine],
        "other_sessions": len(core.sessions.rows()) - len(mine),
        "steps": len(record.milestones) if record else 0,
        "blocklist": await asyncio.to_thread(core.store.blocklist),
    }}


LANE_OPS: dict[str, LaneOp] = {"act": act, "task": task, "status": status}
