"""Answers CLI clients (`bua act`, `bua status`, …) on the authenticated local socket.

Each op is one small coroutine in OPS; a client's request is
`{kind: "cli", id, op, args}` and the answer `{kind: "cli_result", id, ok, result | error}`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import Any, Awaitable, Callable

from app.bridge.abort import AbortSignal
from app.bridge.pool import BrowserBridgePool
from app.bridge.stream import read_message, write_message
from native_host import framing

log = logging.getLogger(__name__)

Op = Callable[["CliService", dict[str, Any], AbortSignal], Awaitable[dict[str, Any]]]


class CliService:
    def __init__(self, pool: BrowserBridgePool) -> None:
        self.pool = pool
        self.started = time.time()

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Serve one client; its disconnect aborts what it is waiting for."""
        abort = AbortSignal()
        try:
            while True:
                try:
                    message = await read_message(reader)
                except framing.FrameError as err:
                    write_message(writer, {"v": 1, "kind": "cli_result", "id": None, "ok": False,
                                           "error": {"code": "invalid_request", "message": str(err)}})
                    continue
                if message is None:
                    return
                reply = await self._answer(message, abort)
                write_message(writer, reply)
                await writer.drain()
        finally:
            abort.abort("client disconnected")

    async def _answer(self, message: dict[str, Any], abort: AbortSignal) -> dict[str, Any]:
        op_name = message.get("op")
        op = OPS.get(op_name) if isinstance(op_name, str) else None
        base = {"v": 1, "kind": "cli_result", "id": message.get("id")}
        if op is None:
            return base | {"ok": False, "error": {"code": "invalid_request",
                                                  "message": f"unknown op {op_name!r}; valid: {', '.join(OPS)}"}}
        try:
            return base | await op(self, message.get("args") or {}, abort)
        except Exception as err:  # a failing op answers; it never kills the core
            log.exception("cli op %s failed", op_name)
            return base | {"ok": False, "error": {"code": "internal_error", "message": str(err)}}


async def _act(service: CliService, args: dict[str, Any], abort: AbortSignal) -> dict[str, Any]:
    if "timeout_s" in args:
        timeout = float(args["timeout_s"])
    else:
        timeout = None
    if not service.pool.bridges and args.get("wait_s"):
        try:
            await service.pool.wait_for_bridge(float(args["wait_s"]))
        except TimeoutError:
            pass
    response = await service.pool.request(
        args.get("action"), str(args.get("task_id") or "cli"), abort, timeout, args.get("browser")
    )
    return {"ok": response.ok, "response": response.model_dump(mode="json", exclude_none=True)}


async def _status(service: CliService, args: dict[str, Any], abort: AbortSignal) -> dict[str, Any]:
    return {"ok": True, "result": {
        "pid": os.getpid(),
        "uptime_s": round(time.time() - service.started, 1),
        "browsers": service.pool.status(),
    }}


OPS: dict[str, Op] = {"act": _act, "status": _status}
