"""Milestones and usage per task, read by the UI and `bua status`.

Memory stays bounded over weeks: when a task finishes, its full screenshots
go to disk (`ScreenshotArchive`, capped) and memory keeps thumbnails; past
`keep_finished` finished tasks, the oldest leave memory for the store
(`history`). Both happen off the event loop when one is running.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from app.agent.usage import Usage
from app.events import BoardEvent, BoardListener, Listeners
from app.store.screenshots import ScreenshotArchive, thumbnail

log = logging.getLogger(__name__)

KEEP_FINISHED = 50
"""Finished tasks kept in memory; older ones are in the store only."""


@dataclass
class Milestone:
    task_id: str
    step: int
    action: str
    summary: str
    screenshot: str | None = None
    """A data URL for the UI: the full image while the task runs, a thumbnail once it finished."""
    screenshot_file: str | None = None
    """Where the full image went when the task finished (it may be trimmed away later by the cap)."""
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
    finished: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "description": self.description, "status": self.status,
                "started": self.started, "finished": self.finished, "usage": self.usage.as_dict(),
                "milestones": [m.as_dict() for m in self.milestones]}


History = Callable[[dict[str, Any]], None]


class TaskBoard:
    def __init__(self, archive: ScreenshotArchive | None = None, history: History | None = None,
                 keep_finished: int = KEEP_FINISHED) -> None:
        self.tasks: dict[str, TaskRecord] = {}
        self._listeners: Listeners[BoardEvent, Any] = Listeners()
        self.archive = archive
        self.history = history
        self.keep_finished = keep_finished
        self._compacting = threading.Lock()

    def subscribe(self, listener: BoardListener) -> Callable[[], None]:
        return self._listeners.subscribe(listener)

    def _emit(self, kind: BoardEvent, payload: Any) -> None:
        self._listeners.notify(kind, payload)

    def record(self, task_id: str) -> TaskRecord:
        if task_id not in self.tasks:
            self.tasks[task_id] = TaskRecord(task_id)
        return self.tasks[task_id]

    def start(self, task_id: str, description: str) -> None:
        record = self.record(task_id)
        record.description = description or record.description
        record.status = "running"
        record.finished = None
        self._emit("task_started", record)

    def post_milestone(self, milestone: Milestone) -> None:
        self.record(milestone.task_id).milestones.append(milestone)
        self._emit("task_milestone", milestone)

    def add_usage(self, task_id: str, usage: Usage) -> None:
        self.record(task_id).usage.add(usage)

    def finish(self, task_id: str, status: str) -> None:
        record = self.record(task_id)
        record.status = status
        record.finished = time.time()
        self._emit("task_finished", record)
        self._evict()
        if self.archive is None and self.history is None:
            return  # a board with nowhere to put things (unit tests) keeps the full screenshots of what it holds
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._compact(record)
            return
        loop.run_in_executor(None, self._compact, record)

    def _evict(self) -> list[TaskRecord]:
        """Take the oldest finished tasks past `keep_finished` out of memory (the store has them)."""
        finished = sorted((r for r in self.tasks.values() if r.finished is not None), key=lambda r: r.finished or 0)
        evicted = finished[:max(0, len(finished) - self.keep_finished)]
        for record in evicted:
            del self.tasks[record.task_id]
        return evicted

    def _compact(self, record: TaskRecord) -> None:
        """Blocking: full screenshots to disk, thumbnails in memory, the record to the store."""
        with self._compacting:
            try:
                for milestone in list(record.milestones):
                    shot = milestone.screenshot
                    if shot is None or milestone.screenshot_file is not None:
                        continue
                    if self.archive is not None:
                        path = self.archive.save(f"{record.task_id}-{milestone.step}-{int(milestone.at * 1000)}", shot)
                        milestone.screenshot_file = str(path) if path else None
                    milestone.screenshot = thumbnail(shot)
                if self.history is not None:
                    self.history(record.as_dict())  # every finished task is stored, so evicting loses nothing
            except Exception as err:  # a full disk, a closed store or a broken image must not break the task's end
                log.warning("could not move task %s out of memory: %s: %s", record.task_id, type(err).__name__, err)
