"""In-process doubles for agent unit tests (the e2e tests use the real bridge and browser)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.protocol.actions import ActionModel, action_to_wire
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode


class RecordingBridge:
    """Answers each action from a script of results; records what was asked; honours abort like the real bridge."""

    def __init__(self, results: dict[str, Any] | None = None, delay_s: float = 0.0) -> None:
        self.results = results or {}
        self.delay_s = delay_s
        self.requests: list[tuple[dict[str, Any], str]] = []

    async def request(self, action: ActionModel, task_id: str, abort: AbortSignal | None = None,
                      timeout: float | None = None, browser: str | None = None,
                      label: str | None = None) -> Response:
        """Takes the parsed action, as the pool does; records it as the extension would get it."""
        wire = action_to_wire(action)
        self.requests.append((wire, task_id))
        if self.delay_s:
            waiter = asyncio.ensure_future(abort.wait()) if abort else None
            done, _ = await asyncio.wait([w for w in [waiter] if w] + [asyncio.ensure_future(asyncio.sleep(self.delay_s))],
                                         return_when=asyncio.FIRST_COMPLETED)
            if waiter and waiter in done:
                return Response.failure("r", ErrorCode.INTERNAL_ERROR, abort.reason or "aborted by caller")
            if waiter:
                waiter.cancel()
        result = self.results.get(wire["type"], {"done": True})
        return Response(id="r", ok=True, result=result)
