"""With no browser connected, an action fails at once with the setup step unless a browser is on its way."""

from __future__ import annotations

import asyncio

from app.agent.tools.browser_result import model_view
from app.bridge.pool import NO_BROWSER_STEP, BrowserBridgePool
from app.protocol.errors import GUIDANCE, ErrorCode
from tests.harness.actions import pool_request


async def test_no_browser_and_none_expected_fails_at_once_with_the_setup_step() -> None:
    pool = BrowserBridgePool()
    assert pool.expected_for() == 0
    await asyncio.wait_for(pool.wait_if_expected(30), 2)  # returns without waiting for the 30 s
    response = await pool_request(pool, {"type": "get_tabs"}, "t1")
    assert not response.ok and response.error is not None
    assert response.error.code == ErrorCode.EXTENSION_DISCONNECTED
    view = model_view(response.model_dump(mode="json", exclude_none=True), None).facts
    assert view["error"]["next_step"] == NO_BROWSER_STEP, "the setup step, not the dropped connection's retry"
    assert view["error"]["next_step"] != GUIDANCE[ErrorCode.EXTENSION_DISCONNECTED]


async def test_an_announced_browser_is_waited_for_until_the_announcement_runs_out() -> None:
    pool = BrowserBridgePool()
    pool.expect(0.3)
    assert 0 < pool.expected_for() <= 0.3
    waited = asyncio.create_task(pool.wait_if_expected(30))
    await asyncio.sleep(0.05)
    assert not waited.done(), "a browser is on its way: the action waits for it"
    await asyncio.wait_for(waited, 5)  # and gives up when the announcement runs out, not after 30 s
    assert pool.expected_for() == 0
