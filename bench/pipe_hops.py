"""Two hops of the pipe timed in isolation, each against its own floor, so that the pipe's round trip can be split
per hop (bench/pipe_bench.py puts them beside the live rows):

* the native host: a frame from the app's socket through the real `python -m native_host` process to its stdout
  (Chrome's side), and back from its stdin to the socket; the floor is the same two writes and reads over a
  socket pair and a pipe with no process between;
* the app's bridge: `BrowserBridge.control("ping")` on an asyncio loop, answered by a peer on the same loop over
  a socket pair (the bridge's own work: envelope, framing, the future, the response's validation); the floor is
  the same framed round trip with no bridge.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from app.bridge.bridge import BridgeInfo, BrowserBridge
from app.bridge.stream import read_body, read_message, write_message
from native_host import framing
from native_host.paths import runtime_dir, socket_address, token_path

ROOT = Path(__file__).resolve().parents[1]
PING = framing.encode(
    {"v": 1, "kind": "response", "id": "c1", "ok": True, "result": {"pong": True, "extension_version": "1"}})


def _read_frame(read: Callable[[int], bytes]) -> bytes:
    body = framing.read_frame_body(read)
    assert body is not None, "the stream closed"
    return body


@contextmanager
def host_relay() -> Iterator[Callable[[], float]]:
    """The real native host between a socket we serve (as the app) and its stdio (as Chrome); yields a sampler:
    one frame app → host → stdout, then stdin → host → app, in seconds."""
    with tempfile.TemporaryDirectory(prefix="bua-hops-") as tmp:
        home = Path(tmp) / "home"
        runtime_dir(home).mkdir(parents=True, mode=0o700)
        token_path(home).write_text("hops-token")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(socket_address(home))
        listener.listen(1)
        env = dict(os.environ, BUA_HOME=str(home), PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-m", "native_host", "chrome-extension://hops/"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0)
        assert proc.stdin is not None and proc.stdout is not None
        app, _ = listener.accept()
        try:
            assert json.loads(_read_frame(app.recv))["kind"] == "auth"
            app.sendall(framing.encode({"v": 1, "kind": "auth_ok"}))
            assert json.loads(_read_frame(proc.stdout.read))["type"] == "host_ready"
            stdin, stdout = proc.stdin, proc.stdout

            def once() -> float:
                start = time.perf_counter()
                app.sendall(PING)
                body = _read_frame(stdout.read)
                stdin.write(framing.encode_body(body))
                _read_frame(app.recv)
                return time.perf_counter() - start
            yield once
        finally:
            proc.stdin.close()
            proc.wait(10)
            app.close()
            listener.close()


@contextmanager
def host_floor() -> Iterator[Callable[[], float]]:
    """The same writes and reads as host_relay, over a socket pair and a pipe, with no process between."""
    app, host_side = socket.socketpair()
    read_fd, write_fd = os.pipe()
    reader, writer = os.fdopen(read_fd, "rb", buffering=0), os.fdopen(write_fd, "wb", buffering=0)
    try:
        def once() -> float:
            start = time.perf_counter()
            app.sendall(PING)
            writer.write(framing.encode_body(_read_frame(host_side.recv)))
            host_side.sendall(framing.encode_body(_read_frame(reader.read)))
            _read_frame(app.recv)
            return time.perf_counter() - start
        yield once
    finally:
        for closable in (app, host_side, reader, writer):
            closable.close()


class LoopThread:
    """An asyncio loop in a thread of its own, as the core's is; `run(coro)` waits for a coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(60)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)
        self.loop.close()


async def _answer_pings(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """The peer: answers each control with a pong of the same id."""
    while (message := await read_message(reader)) is not None:
        write_message(writer, {"v": 1, "kind": "response", "id": message["id"], "ok": True,
                               "result": {"pong": True, "extension_version": "1"}})


async def _feed(reader: asyncio.StreamReader, bridge: BrowserBridge) -> None:
    """What the bridge server does with the host's frames (app/bridge/server.py)."""
    while (body := await read_body(reader)) is not None:
        bridge.handle_message(framing.decode_body(body))


@contextmanager
def bridge_echo(loop: LoopThread) -> Iterator[tuple[Callable[[], Any], Callable[[], Any]]]:
    """(bridge ping, bare framed round trip): two coroutine factories to time on `loop`."""
    async def setup() -> tuple[Any, ...]:
        a, b = socket.socketpair()
        app_reader, app_writer = await asyncio.open_unix_connection(sock=a)
        peer_reader, peer_writer = await asyncio.open_unix_connection(sock=b)
        bridge = BrowserBridge(app_writer, BridgeInfo(), lambda _bridge, _event: None)
        tasks = [asyncio.ensure_future(_feed(app_reader, bridge)),
                 asyncio.ensure_future(_answer_pings(peer_reader, peer_writer))]
        c, d = socket.socketpair()
        raw_reader, raw_writer = await asyncio.open_unix_connection(sock=c)
        echo_reader, echo_writer = await asyncio.open_unix_connection(sock=d)
        tasks.append(asyncio.ensure_future(_answer_pings(echo_reader, echo_writer)))
        return bridge, raw_reader, raw_writer, tasks, (app_writer, peer_writer, raw_writer, echo_writer)

    bridge, raw_reader, raw_writer, tasks, writers = loop.run(setup())

    async def ping() -> Any:
        response = await bridge.control("ping")
        assert response.ok, response.error

    async def bare() -> Any:
        write_message(raw_writer, {"v": 1, "kind": "control", "id": "c1", "op": "ping", "args": {}})
        assert await read_message(raw_reader) is not None

    try:
        yield ping, bare
    finally:
        async def teardown() -> None:
            for writer in writers:
                writer.close()
            for task in tasks:
                task.cancel()
        loop.run(teardown())


def on_thread_loop(loop: LoopThread, factory: Callable[[], Any]) -> Callable[[], float]:
    """A sampler: one `await factory()` timed on the loop itself."""
    async def timed() -> float:
        start = time.perf_counter()
        await factory()
        return time.perf_counter() - start
    return lambda: float(loop.run(timed()))
