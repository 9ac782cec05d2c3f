"""Framed JSON over an asyncio stream (the same framing as Chrome's stdio)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from native_host import framing


async def read_body(reader: asyncio.StreamReader, limit: int = framing.MAX_INBOUND) -> bytes | None:
    """One raw frame body; None on clean EOF; FrameError(fatal) on a bad length or truncation."""
    try:
        header = await reader.readexactly(framing.HEADER.size)
    except asyncio.IncompleteReadError as err:
        if not err.partial:
            return None
        raise framing.FrameError("stream ended inside a frame header (truncated frame)", fatal=True) from None
    (length,) = framing.HEADER.unpack(header)
    framing.check_length(length, limit)
    try:
        return await reader.readexactly(length)
    except asyncio.IncompleteReadError as err:
        raise framing.FrameError(
            f"stream ended after {len(err.partial)} of {length} bytes (truncated frame)", fatal=True
        ) from None


async def read_message(reader: asyncio.StreamReader, limit: int = framing.MAX_INBOUND) -> dict[str, Any] | None:
    body = await read_body(reader, limit)
    return None if body is None else framing.decode_body(body)


def dumps(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def write_message(writer: asyncio.StreamWriter, message: dict[str, Any]) -> None:
    writer.write(framing.encode_body(dumps(message)))
