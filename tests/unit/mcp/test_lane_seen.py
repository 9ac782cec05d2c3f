"""`lane_seen` (app/mcp/lane.py): written after the pushed get_tabs was answered, one per answer, and always before
the lane's next request, over a real Unix socket pair read the way the core reads a lane (app/core/lanes.py)."""

from __future__ import annotations

import asyncio
import socket
from typing import Any

from app.bridge.stream import read_message
from app.mcp.lane import SEEN_AFTER_S, LaneClient

OUTPUT = {"data": {"ok": True, "action": "get_tabs", "tabs": []}, "is_error": False}


async def _pair() -> tuple[LaneClient, asyncio.StreamReader, asyncio.StreamWriter]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    lane_reader, lane_writer = await asyncio.open_unix_connection(sock=ours)
    core_reader, core_writer = await asyncio.open_unix_connection(sock=theirs)
    lane = LaneClient(lane_reader, lane_writer, "mcp-test")
    lane.tabs_output = dict(OUTPUT)
    return lane, core_reader, core_writer


async def _kinds(reader: asyncio.StreamReader, n: int) -> list[Any]:
    return [(await asyncio.wait_for(read_message(reader), 5) or {}).get("kind") for _ in range(n)]


async def test_each_answer_is_seen_once_after_the_answer_not_before() -> None:
    lane, core_reader, core_writer = await _pair()
    assert lane.pushed_get_tabs() == {"ok": True, "output": OUTPUT}
    assert lane.pushed_get_tabs() is not None
    early = asyncio.ensure_future(read_message(core_reader))
    await asyncio.sleep(0)
    assert not early.done(), "lane_seen waits until the answer has gone out"
    assert (await asyncio.wait_for(early, SEEN_AFTER_S * 1000) or {}).get("kind") == "lane_seen"
    assert await _kinds(core_reader, 1) == ["lane_seen"]
    assert not await _arrives(core_reader), "one lane_seen per answer, no more"
    await lane.close()
    core_writer.close()


async def test_the_next_request_follows_every_lane_seen_owed() -> None:
    lane, core_reader, core_writer = await _pair()
    lane.pushed_get_tabs()
    lane.pushed_get_tabs()
    call = asyncio.ensure_future(lane.call("act", {"action": {"type": "extract"}}))
    assert await _kinds(core_reader, 3) == ["lane_seen", "lane_seen", "lane"]
    assert not await _arrives(core_reader, SEEN_AFTER_S * 5), "the timer sent nothing more"
    call.cancel()
    await lane.close()
    core_writer.close()


async def test_closing_the_lane_sends_what_is_owed() -> None:
    lane, core_reader, core_writer = await _pair()
    lane.pushed_get_tabs()
    await lane.close()
    assert await _kinds(core_reader, 1) == ["lane_seen"]
    core_writer.close()


async def _arrives(reader: asyncio.StreamReader, within: float = SEEN_AFTER_S * 20) -> bool:
    try:
        return await asyncio.wait_for(read_message(reader), within) is not None
    except asyncio.TimeoutError:
        return False
