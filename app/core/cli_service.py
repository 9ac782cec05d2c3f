"""Answers CLI clients (`bua act`, `bua status`, `bua stop`, `bua blocklist`, `bua run`) on the local socket.

A request is `{kind: "cli", id, op, args}`; the answer is `{kind: "cli_result", id, ok, …}`, preceded for
streaming ops by `{kind: "cli_event", id, type, data}` frames. A client that disconnects aborts what it runs.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import uuid
from typing import TYPE_CHECKING, Any, Awaitable, Callable

from app.bridge.abort import AbortSignal
from app.bridge.stream import read_message, write_message
from app.core.control import TaskHeld
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode
from app.store.blocklist import InvalidEntry
from native_host import framing

if TYPE_CHECKING:
    from app.core.service import Core

log = logging.getLogger(__name__)

Emit = Callable[[str, dict[str, Any]], None]
Op = Callable[["Core", dict[str, Any], AbortSignal, Emit], Awaitable[dict[str, Any]]]


class CliService:
    def __init__(self, core: "Core") -> None:
        self.core = core
        self.started = time.time()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        abort = AbortSignal()
        try:
            while True:
                try:
                    message = await read_message(reader)
                except framing.FrameError as err:  # the stream cannot be trusted past a bad frame: answer, close
                    write_message(writer, {"v": 1, "kind": "cli_result", "id": None, "ok": False, "error": {
                        "code": "invalid_request",
                        "message": f"{err}; this connection is closed: reconnect and send one JSON object per frame"}})
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
            return base | {"ok": False, "error": {"code": "invalid_request",
                                                  "message": f"unknown op {op_name!r}; valid: {', '.join(OPS)}"}}

        def emit(kind: str, data: dict[str, Any]) -> None:
            write_message(writer, {"v": 1, "kind": "cli_event", "id": message.get("id"), "type": kind, "data": data})

        try:
            return base | await op(self.core, message.get("args") or {}, abort, emit)
        except Exception as err:  # a failing op answers; it never kills the core
            log.exception("cli op %s failed", op_name)
            return base | {"ok": False, "error": {"code": "internal_error", "message": str(err)}}


async def _act(core: "Core", args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    timeout = float(args["timeout_s"]) if "timeout_s" in args else None
    if not core.pool.bridges and args.get("wait_s"):
        try:
            await core.pool.wait_for_bridge(float(args["wait_s"]))
        except TimeoutError:
            pass
    task_id = str(args.get("task_id") or "cli")
    try:
        core.controls.register(task_id, abort, owner="action")
    except TaskHeld as held:
        failure = Response.failure("r0", ErrorCode.INVALID_ACTION, str(held))
        return {"ok": False, "response": failure.model_dump(mode="json", exclude_none=True)}
    try:
        response = await core.pool.request(args.get("action"), task_id, abort, timeout, args.get("browser"))
    finally:
        core.controls.unregister(task_id, abort)
    return {"ok": response.ok, "response": response.model_dump(mode="json", exclude_none=True)}


async def _status(core: "Core", args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    tasks = [{"task_id": t.task_id, "description": t.description, "status": t.status,
              "steps": len(t.milestones), "last": t.milestones[-1].summary if t.milestones else "",
              "usage": t.usage.as_dict()} for t in core.board.tasks.values()]
    return {"ok": True, "result": {
        "pid": os.getpid(), "uptime_s": round(time.time() - core.cli.started, 1),
        "browsers": core.pool.status(), "sessions": core.sessions.rows(), "tasks": tasks,
        "blocklist": await asyncio.to_thread(core.store.blocklist),
        "store_recovered": (recovery.message() if (recovery := await asyncio.to_thread(core.store.last_recovery))
                            else None),
    }}


async def _stop(core: "Core", args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    task = args.get("task_id")
    report = await (core.stop_task(str(task)) if task else core.stop_all())
    return {"ok": True, "result": {"cancelled_tasks": report.cancelled_tasks,
                                   "settled_requests": report.settled_requests, "browsers": report.browsers}}


async def _blocklist(core: "Core", args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    action, entry = args.get("action", "list"), str(args.get("entry") or "")
    try:
        if action == "add":
            entry = await asyncio.to_thread(core.store.block, entry)
        elif action == "remove":
            if not await asyncio.to_thread(core.store.unblock, entry):
                return {"ok": False, "error": {"code": "not_found", "message": f"{entry!r} is not on the blocklist"}}
    except InvalidEntry as err:
        return {"ok": False, "error": {"code": "invalid_entry", "message": str(err)}}
    browsers = await core.set_blocklist_changed() if action in ("add", "remove") else []
    return {"ok": True, "result": {"blocklist": await asyncio.to_thread(core.store.blocklist), "browsers": browsers}}


async def _run(core: "Core", args: dict[str, Any], abort: AbortSignal, emit: Emit) -> dict[str, Any]:
    conversation = str(args.get("conversation_id") or f"cli-{uuid.uuid4().hex[:8]}")
    outcome = await core.chat(conversation, str(args.get("prompt", "")), emit, abort)
    return {"ok": outcome.status in ("end_turn", "completed"),
            "result": {"conversation_id": conversation, "status": outcome.status, "text": outcome.text,
                       "error": outcome.error, "usage": outcome.usage.as_dict()}}


OPS: dict[str, Op] = {"act": _act, "status": _status, "stop": _stop, "blocklist": _blocklist, "run": _run}
