"""The local socket server: hosts and CLI clients connect, authenticate with the token, then talk frames.

Security: a Unix socket inside a 0700 directory plus a 0600 token file that
is regenerated at every start. No TCP port is ever opened.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import os
import secrets
import socket
import stat
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

from app.bridge.bridge import BridgeInfo, BrowserBridge
from app.bridge.pool import BrowserBridgePool
from app.bridge.stream import read_body, read_message, write_message
from app.bridge.transport import listen
from app.protocol.errors import RequestErrorCode, error_body
from app.store.home import private_dir
from native_host import framing
from native_host.paths import runtime_dir, socket_address, token_path

log = logging.getLogger(__name__)

AUTH_TIMEOUT_S = 5.0
SOCKET_CHECK_S = 0.5
"""How often the core checks that its socket file is still there (a cleaner may delete it)."""
CliHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]
LaneHandler = Callable[[asyncio.StreamReader, asyncio.StreamWriter, dict[str, Any]], Awaitable[None]]


class AlreadyRunning(RuntimeError):
    """Another core already listens on this BUA_HOME's socket."""


def _prepare_runtime_dir(home: Path) -> Path:
    return private_dir(runtime_dir(home))


def _write_token(home: Path, token: str | None = None) -> str:
    """Write `token` (a new one unless given) to the 0600 token file."""
    token = token or secrets.token_urlsafe(32)
    path = token_path(home)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(token)
    os.chmod(path, 0o600)
    return token


def _socket_in_use(address: str) -> bool:
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(address)
    except OSError:
        return False
    finally:
        probe.close()
    return True


class BridgeServer:
    def __init__(self, home: Path, pool: BrowserBridgePool, cli_handler: CliHandler | None = None,
                 lane_handler: LaneHandler | None = None) -> None:
        self.home = home
        self.pool = pool
        self.cli_handler = cli_handler
        self.lane_handler = lane_handler
        """MCP lanes (`bua mcp`): one task per connection, see app.core.lanes."""
        self.address = socket_address(home)
        self._server: Any = None
        self._token = ""
        self._connections: set[asyncio.Task[Any]] = set()
        self._inode: int | None = None
        self._watch: asyncio.Task[None] | None = None

    async def start(self) -> None:
        _prepare_runtime_dir(self.home)
        if sys.platform != "win32" and os.path.exists(self.address):
            if _socket_in_use(self.address):
                raise AlreadyRunning(f"a bua core already runs for {self.home}")
            os.unlink(self.address)
        self._token = _write_token(self.home)
        await self._listen()
        if sys.platform != "win32":
            self._watch = asyncio.create_task(self._keep_socket())

    async def _listen(self) -> None:
        self._server = await listen(self.address, self._on_connect)
        if sys.platform != "win32":
            self._inode = os.stat(self.address).st_ino

    def _socket_is_ours(self) -> bool:
        try:
            st = os.stat(self.address)
        except FileNotFoundError:
            return False
        return stat.S_ISSOCK(st.st_mode) and st.st_ino == self._inode

    async def _keep_socket(self) -> None:
        """Listen again when the socket file disappears under a running core; live connections stay as they are."""
        while True:
            await asyncio.sleep(SOCKET_CHECK_S)
            if self._socket_is_ours():
                continue
            if os.path.exists(self.address) and _socket_in_use(self.address):
                log.warning("%s now belongs to another process; this core keeps its live connections only",
                            self.address)
                return
            log.warning("the socket %s was removed; listening on a new one", self.address)
            try:
                self._server.close()
                _prepare_runtime_dir(self.home)
                if not token_path(self.home).exists():
                    _write_token(self.home, self._token)
                if os.path.exists(self.address):
                    os.unlink(self.address)
                await self._listen()
            except OSError as err:
                log.warning("could not listen again on %s (%s); retrying", self.address, err)

    async def close(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
        if self._server is not None:
            self._server.close()
        self.pool.close_all("app shutting down")
        for task in list(self._connections):
            task.cancel()
        if self._server is not None:
            await self._server.wait_closed()
        if sys.platform != "win32" and self._socket_is_ours():
            os.unlink(self.address)

    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        try:
            try:
                hello = await asyncio.wait_for(read_message(reader, 64 * 1024), AUTH_TIMEOUT_S)
            except framing.FrameError as err:
                write_message(writer, {"v": 1, "kind": "auth_error",
                                       "message": f"{err}; send the auth frame first (one JSON object)"})
                await writer.drain()
                return
            if hello is None or hello.get("kind") != "auth":
                return
            if not hmac.compare_digest(str(hello.get("token", "")).encode(), self._token.encode()):
                write_message(writer, {"v": 1, "kind": "auth_error", "message": "wrong token"})
                await writer.drain()
                return
            write_message(writer, {"v": 1, "kind": "auth_ok"})
            role = hello.get("role")
            if role == "host":
                await self._serve_host(reader, writer, hello)
            elif role == "cli" and self.cli_handler is not None:
                await self.cli_handler(reader, writer)
            elif role == "lane" and self.lane_handler is not None:
                await self.lane_handler(reader, writer, hello)
        except (TimeoutError, framing.FrameError, ConnectionError) as err:
            log.info("connection dropped during handshake: %s", err)
        except asyncio.CancelledError:
            pass
        finally:
            self._connections.discard(task)
            writer.close()

    async def _serve_host(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, hello: dict[str, Any]) -> None:
        info = BridgeInfo(host_pid=hello.get("pid"), origin=str(hello.get("origin", "")))
        bridge = BrowserBridge(writer, info, self.pool.dispatch_event, self.pool.tabs_changed)
        self.pool.add(bridge)
        reason = "native host exited"
        try:
            while True:
                try:
                    body = await read_body(reader)
                except framing.FrameError as err:
                    reason = f"malformed frame from the native host: {err}"
                    break
                if body is None:
                    break
                try:
                    message = framing.decode_body(body)
                except framing.FrameError as err:
                    # The host checks only that a frame starts as an object (native_host/host.py): what is not
                    # JSON is reported here, as the host reports what it refuses.
                    log.warning("skipped a malformed frame from the native host: %s", err)
                    message = {"v": 1, "kind": "event", "type": "host_error", "data": {
                        **error_body(RequestErrorCode.MALFORMED_FRAME, str(err)), "side": "extension",
                        "fatal": False}}
                bridge.handle_message(message)
        except ConnectionError as err:
            reason = f"connection error: {err}"
        finally:
            self.pool.remove(bridge, reason)
