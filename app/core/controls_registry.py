"""The slice of Controls the chat service needs (kept as a protocol so chat does not import the bridge pool's controls)."""

from __future__ import annotations

from typing import Protocol

from app.abort import AbortSignal


class ControlsLike(Protocol):
    def register(self, task_id: str, abort: AbortSignal) -> None: ...

    def unregister(self, task_id: str, abort: AbortSignal) -> None: ...

    async def reopen(self, task_id: str) -> object: ...
