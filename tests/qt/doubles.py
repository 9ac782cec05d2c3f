"""A browser double that never answers until aborted (for Stop tests without a browser)."""

from __future__ import annotations

from typing import Any

from app.abort import AbortSignal
from app.protocol.actions import ActionModel, action_to_wire
from app.protocol.envelope import Response
from app.protocol.errors import ErrorCode


class HangingBridge:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    async def request(self, action: ActionModel, task_id: str, abort: AbortSignal | None = None,
                      timeout: float | None = None, browser: str | None = None,
                      label: str | None = None) -> Response:
        self.requests.append(action_to_wire(action))
        reason = await (abort or AbortSignal()).wait()
        return Response.failure("r", ErrorCode.INTERNAL_ERROR, reason)
