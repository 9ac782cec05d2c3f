"""What the chat shows, as plain data: a turn is a list of segments (streamed text, task cards), a cost and a
status. Stored once per turn in the store (role `ui_turn`) so a restart shows the same transcript."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

UI_TURN = "ui_turn"


@dataclass
class MilestoneView:
    step: int
    action: str
    summary: str
    at: float
    thumb: str | None = None
    """A small JPEG data URL (the full screenshot is only kept while the app runs)."""


@dataclass
class TaskView:
    description: str
    prompt: str = ""
    status: str = "running"
    summary: str = ""
    needs: str | None = None
    tab_id: int | None = None
    task_id: str = ""
    started: float = field(default_factory=time.time)
    finished: float | None = None
    milestones: list[MilestoneView] = field(default_factory=list)

    @property
    def steps(self) -> int:
        return len(self.milestones)

    @property
    def needs_user(self) -> bool:
        return self.status == "needs_user"

    def finish(self, output: dict[str, Any]) -> None:
        artifacts = output.get("artifacts") or {}
        self.status = str(output.get("status") or "completed")
        self.summary = str(output.get("summary") or "")
        needs = artifacts.get("needs")
        self.needs = str(needs) if needs else (self.summary if self.needs_user else None)
        tab = artifacts.get("tab_id")
        self.tab_id = tab if isinstance(tab, int) else None
        self.finished = time.time()

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TaskView":
        milestones = [MilestoneView(**m) for m in data.get("milestones", [])]
        return cls(**{**data, "milestones": milestones})


@dataclass
class TurnRecord:
    user_text: str
    segments: list[dict[str, Any]] = field(default_factory=list)
    """`{"type": "text", "text": …}` or `{"type": "task", "task": TaskView}`, in order."""
    status: str = "running"
    error: str | None = None
    cost: dict[str, dict[str, int]] = field(default_factory=dict)
    elapsed: float = 0.0
    demo: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "TurnRecord":
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        known["segments"] = [{"type": "task", "task": TaskView.from_dict(s["task"])} if s.get("type") == "task"
                             else s for s in known.get("segments", [])]
        return cls(**known)


def turns_from_rows(rows: list[dict[str, Any]]) -> list[TurnRecord]:
    """Rebuild the transcript: `ui_turn` rows as they were; turns without one (e.g. from `bua run`)
    from the core's user/assistant rows."""
    turns: list[TurnRecord] = []
    pending: TurnRecord | None = None
    for row in rows:
        role, payload = row["role"], row["payload"]
        if role == "user":
            pending = TurnRecord(str(payload.get("text", "")))
            turns.append(pending)
        elif role == "assistant" and pending is not None and not pending.segments:
            text = str(payload.get("text") or "")
            pending.segments = [{"type": "text", "text": text}] if text else []
            pending.status = str(payload.get("status") or "end_turn")
            pending.error = payload.get("error")
        elif role == UI_TURN:
            record = TurnRecord.from_dict(payload)
            if pending is not None and pending.user_text == record.user_text:
                turns[-1] = record
            else:
                turns.append(record)
            pending = None
    return turns
