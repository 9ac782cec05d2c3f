"""Answers CLI clients (`bua act`, `bua status`, `bua stop`, `bua blocklist`, `bua run`) on the local socket.

A request is `{kind: "cli", id, op, args}`; the answer is `{kind: "cli_result", id, ok, …}`, preceded for
streaming ops by `{kind: "cli_event", id, type, data}` frames. A client that disconnects aborts what it runs.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import Any, Awaitable, Callable

from app.abort import AbortSignal
from app.bridge.stream import read_message, write_message
from app.core.lanes import TASK_ID as LANE_TASK_ID
from app.core.verbs import CoreVerbs
from app.protocol.actions import parse_action
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed, ErrorCode, RequestErrorCode, error_body
from app.safety.confirmations import person_confirms
from app.store.blocklist import InvalidEntry
from native_host import framing

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]
Op = Callable[[CoreVerbs, dict[str, Any], AbortSignal, Emit], Awaitable[dict[str, Any]]]


class CliService:
    """Each op is one core verb; the answer is what the verb returned, as JSON."""

    def __init__(self, core: CoreVerbs) -> None:
        self.core = core

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        abort = AbortSignal()
        try:
            while True:
                try:
                    message = await read_message(reader)
                except framing.FrameError as err:  # the stream cannot be trusted past a bad frame: answer, close
                    write_message(writer, {"v": 1, "kind": "cli_result", "id": None, "ok": False, "error": error_body(
                        RequestErrorCode.INVALID_REQUEST,
                        f"{err}; this connection is closed: reconnect and send one JSON object per frame")})
                    await writer.drain()
                    return
                if message is None:
                    return
                reply = await self._answer(message, abort, writer)
                write_message(writer, reply)
                await writer.drain()
        finally:
            abort.abort("client disconnected")

    async def _answer(self, message: dict[str, Any], abort: AbortSignal, writer: asyncio.StreamWriter) -> dict[str, Any]:
        op_name = message.get("op")
        op = OPS.get(op_name) if isinstance(op_name, str) else None
        base = {"v": 1, "kind": "cli_result", "id": message.get("id")}
        if op is None:
            return base | {"ok": False, "error": error_body(RequestErrorCode.INVALID_REQUEST,
                                                            f"unknown op {op_name!r}; valid: {', '.join(OPS)}")}

        def emit(kind: str, data: dict[str, Any]) -> None:
            write_message(writer, {"v": 1, "kind": "cli_event", "id": message.get("id"), "type": kind, "data": data})

        try:
            return base | await op(self.core, message.get("args") or {}, abort, emit)
        except Exception as err:  # a failing op answers; it never kills the core
            log.exception("cli op %s failed", op_name)
            return base | {"ok": False, "error": error_body(ErrorCode.INTERNAL_ERROR, str(err))}


async def _act(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    timeout = float(args["timeout_s"]) if "timeout_s" in args else None
    task_id = str(args.get("task_id") or "cli")
    wait_s = float(args["wait_s"]) if isinstance(args.get("wait_s"), (int, float)) else None
    if args.get("confirm") and (holder := _held_by(core, task_id)):
        response = Response.failure("r0", ErrorCode.INVALID_ACTION, (
            f"--confirm approves only the command line's own tasks, and task {task_id!r} belongs to {holder}: its "
            "sensitive actions are confirmed by the person in the bua window. Run the action without --confirm, "
            "or under a task name of your own (--task cli)"))
        return {"ok": False, "response": response.model_dump(mode="json", exclude_none=True)}
    try:  # the edge where `bua act`'s JSON becomes an action: parsed once, passed on as the model
        action = parse_action(args.get("action"))
    except ActionFailed as err:
        response = Response.failure("r0", err.code, err.message)
        return {"ok": False, "response": response.model_dump(mode="json", exclude_none=True)}
    # `bua act` never asks a window: a sensitive action runs only with --confirm (app/safety/confirmations.py).
    person_confirms.set(bool(args.get("confirm")))
    response = await core.act(action, task_id, abort, timeout, args.get("browser"), wait_s,
                              person=not args.get("task_id"))
    return {"ok": response.ok, "response": response.model_dump(mode="json", exclude_none=True)}


def _held_by(core: CoreVerbs, task_id: str) -> str | None:
    """Who other than the command line holds a task: an MCP client's lane (`mcp-…`, live or not) or an agent (a
    task on the board, running or finished: the command line never puts one there; a chat that runs holds its id
    through Controls, and any `bua act` on it answers TaskHeld). `--confirm` approves only the command line's own
    tasks, so an agent with a shell cannot approve what it or another agent was asked."""
    if LANE_TASK_ID.match(task_id):
        return "an MCP client's lane"
    if task_id in core.board.tasks:
        return "an agent"
    return None


async def _expect_browser(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    """`bua browser` is starting one: actions wait for it instead of failing at once (BrowserBridgePool.expect)."""
    seconds = args.get("seconds")
    core.expect_browser(min(float(seconds), 120.0) if isinstance(seconds, (int, float)) and seconds > 0 else 30.0)
    return {"ok": True, "result": {}}


async def _status(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    return {"ok": True, "result": await core.status()}


async def _stop(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    task = args.get("task_id")
    report = await core.stop(str(task) if task else None)
    return {"ok": True, "result": {"cancelled_tasks": report.cancelled_tasks,
                                   "settled_requests": report.settled_requests, "browsers": report.browsers}}


async def _blocklist(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    action, entry = args.get("action", "list"), str(args.get("entry") or "")
    if action == "list":
        return {"ok": True, "result": {"blocklist": await core.blocklist(), "browsers": []}}
    if action not in ("add", "remove"):
        return {"ok": False, "error": error_body(RequestErrorCode.INVALID_REQUEST,
                                                 f"unknown blocklist action {action!r}; valid: list, add, remove")}
    try:
        change = await (core.block(entry) if action == "add" else core.unblock(entry))
    except InvalidEntry as err:
        return {"ok": False, "error": error_body(RequestErrorCode.INVALID_ENTRY, str(err))}
    if change is None:
        return {"ok": False, "error": error_body(RequestErrorCode.NOT_FOUND, f"{entry!r} is not on the blocklist")}
    return {"ok": True, "result": {"blocklist": change.patterns, "browsers": change.browsers}}


async def _run(core: CoreVerbs, args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    conversation = str(args.get("conversation_id") or f"cli-{uuid.uuid4().hex[:8]}")
    outcome = await core.chat(conversation, str(args.get("prompt", "")), emit, abort)
    return {"ok": outcome.status in ("end_turn", "completed"),
            "result": {"conversation_id": conversation, "status": outcome.status, "text": outcome.text,
                       "error": outcome.error, "usage": outcome.usage.as_dict()}}


OPS: dict[str, Op] = {"act": _act, "expect_browser": _expect_browser, "status": _status, "stop": _stop, "blocklist": _blocklist, "run": _run}
