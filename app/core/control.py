"""Stop all, stop one task, end a session, push the blocklist: the user's controls, applied everywhere at once.

Order matters for "Stop means stop": first the abort signals fire (model
calls and bridge requests of the task settle at once), then every pending
bridge request is settled, then the extension ends the sessions.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from app.abort import AbortSignal
from app.bridge.bridge import BrowserBridge
from app.bridge.pool import BrowserBridgePool
from app.protocol.envelope import ControlOp
from app.store.db import Store

STOPPED = "stopped by user"


@dataclass
class StopReport:
    cancelled_tasks: list[str] = field(default_factory=list)
    settled_requests: int = 0
    browsers: list[dict[str, Any]] = field(default_factory=list)


Owner = Literal["agent", "action"]
"""Who registered: an agent turn or lane that runs the task, or one action from outside any agent (`bua act`)."""


class TaskHeld(Exception):
    """A one-off action asked for a task id that a running agent holds."""

    def __init__(self, task_id: str) -> None:
        super().__init__(
            f"task {task_id!r} belongs to a running agent; an action from outside may not join it. "
            f"Use another task name (e.g. --task cli), or stop that task first: bua stop --task {task_id}")
        self.task_id = task_id


@dataclass(frozen=True)
class Registration:
    task_id: str
    abort: AbortSignal
    owner: Owner


class Controls:
    def __init__(self, pool: BrowserBridgePool, store: Store) -> None:
        self.pool = pool
        self.store = store
        self._registrations: list[Registration] = []

    @property
    def running(self) -> dict[str, AbortSignal]:
        """Task id -> the first signal registered for it (each registration is kept; Stop fires them all)."""
        running: dict[str, AbortSignal] = {}
        for entry in self._registrations:
            running.setdefault(entry.task_id, entry.abort)
        return running

    def register(self, task_id: str, abort: AbortSignal, owner: Owner = "agent") -> None:
        """Add an entry; never replaces another's. An `action` on a task an agent holds raises TaskHeld."""
        if owner == "action" and any(e.task_id == task_id and e.owner == "agent" for e in self._registrations):
            raise TaskHeld(task_id)
        self._registrations.append(Registration(task_id, abort, owner))

    def unregister(self, task_id: str, abort: AbortSignal) -> None:
        self._registrations = [e for e in self._registrations if not (e.task_id == task_id and e.abort is abort)]

    async def stop(self, task_id: str | None = None) -> StopReport:
        report = StopReport()
        for entry in list(self._registrations):
            if task_id is None or entry.task_id == task_id:
                entry.abort.abort(STOPPED)
                if entry.task_id not in report.cancelled_tasks:
                    report.cancelled_tasks.append(entry.task_id)
        for bridge in self.pool.bridges:
            report.settled_requests += bridge.abort_pending(STOPPED, task_id)
        if task_id is None:
            report.browsers = await self.broadcast("stop_all", {})
        else:
            report.browsers = await self.broadcast("end_session", {"task_id": task_id, "reason": "stopped"})
        return report

    async def broadcast(self, op: ControlOp, args: dict[str, Any],
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

    async def reopen(self, task_id: str) -> list[dict[str, Any]]:
        """A new instruction from the person for this task: every browser lifts the task's stop."""
        return await self.broadcast("reopen_task", {"task_id": task_id})

    async def push_blocklist(self, bridges: list[BrowserBridge] | None = None) -> list[dict[str, Any]]:
        """Send the store's blocklist to every browser (or the given ones); each ends its sessions on newly
        blocked sites."""
        patterns = await asyncio.to_thread(self.store.blocklist)
        return await self.broadcast("set_blocklist", {"patterns": patterns}, bridges)
