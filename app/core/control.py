"""Stop all, stop one task, end a session, push the blocklist: the user's controls, applied everywhere at once.

Order matters for "Stop means stop": first the abort signals fire (model
calls and bridge requests of the task settle at once), then every pending
bridge request is settled, then the extension ends the sessions.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from app.bridge.abort import AbortSignal
from app.bridge.bridge import BrowserBridge
from app.bridge.pool import BrowserBridgePool
from app.store.db import Store

STOPPED = "stopped by user"


@dataclass
class StopReport:
    cancelled_tasks: list[str] = field(default_factory=list)
    settled_requests: int = 0
    browsers: list[dict[str, Any]] = field(default_factory=list)


class Controls:
    def __init__(self, pool: BrowserBridgePool, store: Store) -> None:
        self.pool = pool
        self.store = store
        self.running: dict[str, AbortSignal] = {}

    def register(self, task_id: str, abort: AbortSignal) -> None:
        self.running[task_id] = abort

    def unregister(self, task_id: str, abort: AbortSignal) -> None:
        if self.running.get(task_id) is abort:
            del self.running[task_id]

    async def stop(self, task_id: str | None = None) -> StopReport:
        report = StopReport()
        for running_id, abort in list(self.running.items()):
            if task_id is None or running_id == task_id:
                abort.abort(STOPPED)
                report.cancelled_tasks.append(running_id)
        for bridge in self.pool.bridges:
            report.settled_requests += bridge.abort_pending(STOPPED, task_id)
        op, args = ("stop_all", {}) if task_id is None else ("end_session", {"task_id": task_id, "reason": "stopped"})
        report.browsers = await self.broadcast(op, args)
        return report

    async def broadcast(self, op: str, args: dict[str, Any],
                        bridges: list[BrowserBridge] | None = None) -> list[dict[str, Any]]:
        """One control to every connected browser (or the given ones), at once; their answers as dicts."""
        targets = self.pool.bridges if bridges is None else bridges
        answers = await asyncio.gather(*(b.control(op, args) for b in targets))
        return [a.model_dump(mode="json", exclude_none=True) for a in answers]

    async def end_session(self, task_id: str, tab_id: int | None = None) -> list[dict[str, Any]]:
        args: dict[str, Any] = {"task_id": task_id, "reason": "ended_by_user"}
        if tab_id is not None:
            args["tab_id"] = tab_id
        return await self.broadcast("end_session", args)

    async def push_blocklist(self, bridges: list[BrowserBridge] | None = None) -> list[dict[str, Any]]:
        """Send the store's blocklist to every browser (or the given ones); each ends its sessions on newly
        blocked sites."""
        patterns = await asyncio.to_thread(self.store.blocklist)
        return await self.broadcast("set_blocklist", {"patterns": patterns}, bridges)
