"""Milestones and usage per task, read by the UI and `bua status`."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from app.agent.usage import Usage


@dataclass
class Milestone:
    task_id: str
    step: int
    action: str
    summary: str
    screenshot: str | None = None
    """A data URL, kept for the UI only."""
    at: float = field(default_factory=time.time)
    ok: bool = True
    """Whether the step succeeded (the popup marks failed ones)."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class TaskRecord:
    task_id: str
    description: str = ""
    status: str = "running"
    started: float = field(default_factory=time.time)
    milestones: list[Milestone] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)


Listener = Callable[[str, Any], None]


class TaskBoard:
    def __init__(self) -> None:
        self.tasks: dict[str, TaskRecord] = {}
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, kind: str, payload: Any) -> None:
        for listener in list(self._listeners):
            listener(kind, payload)

    def record(self, task_id: str) -> TaskRecord:
        if task_id not in self.tasks:
            self.tasks[task_id] = TaskRecord(task_id)
        return self.tasks[task_id]

    def start(self, task_id: str, description: str) -> None:
        record = self.record(task_id)
        record.description = description or record.description
        record.status = "running"
        self._emit("task_started", record)

    def post_milestone(self, milestone: Milestone) -> None:
        self.record(milestone.task_id).milestones.append(milestone)
        self._emit("task_milestone", milestone)

    def add_usage(self, task_id: str, usage: Usage) -> None:
        self.record(task_id).usage.add(usage)

    def finish(self, task_id: str, status: str) -> None:
        record = self.record(task_id)
        record.status = status
        self._emit("task_finished", record)
