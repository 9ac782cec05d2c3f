"""The MCP server's asyncio connection to the core: one lane (one task) for this MCP client.

Requests are multiplexed by id, so an MCP client's parallel tool calls run in parallel in the core. A call
that is cancelled here (the client's `notifications/cancelled` cancels the handler) sends `lane_cancel`, which
fires that request's abort signal in the core: the same path Stop takes.
"""

from __future__ import annotations

import asyncio
import itertools
import sys
from pathlib import Path
from typing import Any, Callable

from app.bridge.stream import read_message, write_message
from app.bridge.transport import READ_LIMIT
from native_host import framing
from native_host.paths import socket_address, token_path

OnEvent = Callable[[str, dict[str, Any]], None]
SEEN_AFTER_S = 0.002
"""How long `lane_seen` waits after a pushed get_tabs was answered: long enough for the answer to be written to
the client first, so the core's run of that get_tabs (its data-flow memory, the board) does not compete with the
answer for the CPU; any frame this lane writes before then sends it first, so the core still reads it before the
lane's next request (bench `peers`, the cheap call)."""


class CoreGone(Exception):
    """No core answers on this BUA_HOME's socket, or it refused the lane, or it went away."""


async def _open(address: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    if sys.platform == "win32":  # pragma: no cover - named pipes exist only on Windows
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=READ_LIMIT)
        transport, protocol = await loop.create_pipe_connection(  # type: ignore[attr-defined]
            lambda: asyncio.StreamReaderProtocol(reader), address)
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)
    return await asyncio.open_unix_connection(address, limit=READ_LIMIT)


class LaneClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, task_id: str) -> None:
        self.task_id = task_id
        self._reader = reader
        self._writer = writer
        self._ids = itertools.count(1)
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._listeners: dict[str, OnEvent] = {}
        self.tabs_output: dict[str, Any] | None = None
        """The get_tabs output the core pushed ahead (app/core/lane_tabs.py); None: ask the core."""
        self._seen_timer: asyncio.TimerHandle | None = None
        self._unseen = 0
        """Pushed get_tabs answered whose `lane_seen` is still to be written."""
        self._pump = asyncio.ensure_future(self._read_loop())

    @classmethod
    async def connect(cls, home: Path, task_id: str, label: str) -> "LaneClient":
        try:
            token = token_path(home).read_text(encoding="utf-8").strip()
            reader, writer = await _open(socket_address(home))
        except OSError as err:
            raise CoreGone(f"no bua core is running for {home} ({err})") from None
        write_message(writer, {"v": 1, "kind": "auth", "role": "lane", "token": token, "task_id": task_id,
                               "label": label})
        for expected in ("auth_ok", "lane_ready"):
            reply = await read_message(reader)
            if reply is None or reply.get("kind") != expected:
                writer.close()
                why = (reply or {}).get("message") or "the connection closed"
                raise CoreGone(f"the core refused the lane: {why}")
        return cls(reader, writer, task_id)

    async def _read_loop(self) -> None:
        reason = "the bua core closed the connection"
        try:
            while True:
                message = await read_message(self._reader)
                if message is None:
                    break
                request_id = str(message.get("id"))
                if message.get("kind") == "lane_event":
                    listener = self._listeners.get(request_id)
                    if listener is not None:
                        listener(str(message.get("type")), message.get("data") or {})
                elif message.get("kind") == "lane_tabs":
                    output = message.get("output")
                    self.tabs_output = output if isinstance(output, dict) else None
                elif message.get("kind") == "lane_result":
                    future = self._pending.pop(request_id, None)
                    if future is not None and not future.done():
                        future.set_result(message)
        except (ConnectionError, framing.FrameError) as err:
            reason = f"the connection to the bua core broke ({err})"
        finally:
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(CoreGone(reason))
            self._pending.clear()

    @property
    def alive(self) -> bool:
        """False once the core closed the connection (it quit, or restarted)."""
        return not self._pump.done()

    async def call(self, op: str, args: dict[str, Any], on_event: OnEvent | None = None) -> dict[str, Any]:
        """One op in the core; its result frame. Cancelling the call cancels the op in the core."""
        if not self.alive:
            raise CoreGone("the bua core closed the connection")
        self._send_seen()
        request_id = str(next(self._ids))
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        if on_event is not None:
            self._listeners[request_id] = on_event
        write_message(self._writer, {"v": 1, "kind": "lane", "id": request_id, "op": op, "args": args})
        try:
            return await future
        except asyncio.CancelledError:
            if not self._writer.is_closing():
                write_message(self._writer, {"v": 1, "kind": "lane_cancel", "id": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)
            self._listeners.pop(request_id, None)

    def pushed_get_tabs(self) -> dict[str, Any] | None:
        """A get_tabs reply from the core's push, as `call("act", …)` would give it, the core told it was used;
        None when only the core can answer."""
        output = self.tabs_output
        if output is None or not self.alive or self._writer.is_closing():
            return None
        self._unseen += 1
        if self._seen_timer is None:
            self._seen_timer = asyncio.get_running_loop().call_later(SEEN_AFTER_S, self._send_seen)
        return {"ok": True, "output": output}

    def _send_seen(self) -> None:
        """Tell the core of each pushed get_tabs answered since the last time (one `lane_seen` each)."""
        if self._seen_timer is not None:
            self._seen_timer.cancel()
            self._seen_timer = None
        unseen, self._unseen = self._unseen, 0
        for _ in range(unseen if not self._writer.is_closing() else 0):
            write_message(self._writer, {"v": 1, "kind": "lane_seen"})

    async def close(self) -> None:
        self._send_seen()
        self._writer.close()
        self._pump.cancel()
        try:
            await self._writer.wait_closed()
        except (ConnectionError, OSError):
            pass
