"""Chrome native-messaging framing: 4-byte little-endian length + UTF-8 JSON object.

Used on stdio (Chrome ⇄ host) and, unchanged, on the local socket (host ⇄ app).
Pure standard library: imported by the host at start-up and by the app.
"""

from __future__ import annotations

import gc
import json
import re
import struct
from typing import Any, BinaryIO, Callable

HEADER = struct.Struct("<I")
MAX_INBOUND = 64 * 1024 * 1024
"""Largest frame the host accepts from Chrome (extension → host limit)."""
MAX_TO_EXTENSION = 1024 * 1024
"""Chrome closes the port when a host → extension message exceeds 1 MiB."""


class FrameError(Exception):
    """A malformed frame. `fatal` means the stream cannot be resynchronised."""

    def __init__(self, message: str, *, fatal: bool) -> None:
        super().__init__(message)
        self.fatal = fatal


def encode(message: dict[str, Any]) -> bytes:
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return HEADER.pack(len(body)) + body


def encode_body(body: bytes) -> bytes:
    return HEADER.pack(len(body)) + body


_OBJECT_START = re.compile(rb"[ \t\r\n]*\{")


def starts_as_object(body: bytes) -> bool:
    """Whether a frame body begins as a JSON object does: the host's check of what Chrome sends (no parse, no
    copy). The app parses every frame anyway and reports one that is not JSON (app/bridge/server.py)."""
    return _OBJECT_START.match(body) is not None


def decode_body(body: bytes) -> dict[str, Any]:
    """Parse one frame body; non-fatal FrameError when it is not a UTF-8 JSON object."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise FrameError(f"frame body is not valid UTF-8 ({err.reason} at byte {err.start})", fatal=False) from None
    try:
        value = _loads(text)
    except json.JSONDecodeError as err:
        raise FrameError(f"frame body is not JSON ({err.msg} at char {err.pos})", fatal=False) from None
    except RecursionError:
        raise FrameError("frame body is JSON nested too deeply to read", fatal=False) from None
    except ValueError as err:  # e.g. an integer longer than Python's digit limit
        raise FrameError(f"frame body is not usable JSON ({err})", fatal=False) from None
    if not isinstance(value, dict):
        raise FrameError(f"frame body is JSON {type(value).__name__}, expected an object", fatal=False)
    return value


def _loads(text: str) -> Any:
    """json.loads with the cyclic GC paused: a collection that starts deep inside a hostile nesting would run
    finalizers with no stack left, and their RecursionError would be printed as "Exception ignored"."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return json.loads(text)
    finally:
        if was_enabled:
            gc.enable()


def check_length(length: int, limit: int) -> None:
    if length > limit:
        raise FrameError(f"frame length {length} exceeds the limit of {limit} bytes", fatal=True)


def read_exact(read: Callable[[int], bytes], n: int) -> bytes | None:
    """Read n bytes; None on clean EOF before the first byte, FrameError if EOF cuts the data."""
    chunks: list[bytes] = []
    got = 0
    while got < n:
        chunk = read(n - got)
        if not chunk:
            if got == 0:
                return None
            raise FrameError(f"stream ended after {got} of {n} bytes (truncated frame)", fatal=True)
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def read_frame_body(stream: BinaryIO | Callable[[int], bytes], limit: int = MAX_INBOUND) -> bytes | None:
    """Blocking read of one raw frame body. None on clean EOF; FrameError(fatal) on bad length/truncation."""
    read = stream if callable(stream) else stream.read
    header = read_exact(read, HEADER.size)
    if header is None:
        return None
    (length,) = HEADER.unpack(header)
    check_length(length, limit)
    body = read_exact(read, length)
    if body is None:
        if length == 0:
            return b""
        raise FrameError(f"stream ended before a body of {length} bytes (truncated frame)", fatal=True)
    return body
