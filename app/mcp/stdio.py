"""stdin/stdout for the SDK's stdio transport as asyncio pipes, not files read and written in worker threads.

The SDK's default wraps the standard streams with `anyio.wrap_file`: every line read and every write and flush
hops to a worker thread and back, three hops per tool call, which cost more than everything else `bua mcp`
adds (bench `mcp`). Here the wire is a private duplicate of fd 0 and fd 1 served by the event loop, and, as the
SDK does, fd 0 then reads the null device and fd 1 goes to stderr, so nothing stray reaches the wire.

Where the loop cannot serve the descriptors (Windows, a regular file as stdin), `open_stdio` answers None and
the SDK's own streams are used.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass

LINE_LIMIT = 64 * 1024 * 1024
"""The longest JSON-RPC line accepted from the client."""


class LineReader:
    """`async for line in reader`: decoded lines, as the SDK's stdin reader expects."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> "LineReader":
        return self

    async def __anext__(self) -> str:
        line = await self._reader.readline()
        if not line:
            raise StopAsyncIteration
        return line.decode("utf-8", errors="replace")


class LineWriter:
    """`await write(text)` and `await flush()`, as the SDK's stdout writer expects; flush waits for the pipe."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()


@dataclass
class Stdio:
    stdin: LineReader
    stdout: LineWriter


def _servable(fd: int) -> bool:
    import stat

    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def _claim(fd: int, diversion: int) -> int:
    """A private duplicate of `fd` for the wire; `fd` itself then points at `diversion`."""
    private = os.dup(fd)
    os.dup2(diversion, fd)
    return private


async def open_stdio() -> Stdio | None:
    if sys.platform == "win32" or not (_servable(0) and _servable(1)):
        return None
    loop = asyncio.get_running_loop()
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        wire_in = _claim(0, null)
    finally:
        os.close(null)
    sys.stdout.flush()
    wire_out = _claim(1, 2)
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", buffering=0))
    transport, protocol = await loop.connect_write_pipe(asyncio.streams.FlowControlMixin,
                                                        os.fdopen(wire_out, "wb", buffering=0))
    writer = asyncio.StreamWriter(transport, protocol, None, loop)
    return Stdio(LineReader(reader), LineWriter(writer))
