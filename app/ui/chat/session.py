"""ChatSession: one conversation's turns — sends text to the core, turns the agent's events into Qt signals,
keeps the transcript record, stores it at the end of each turn, and restores it on start."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any, Awaitable, Callable

from PySide6.QtCore import QObject, Signal

from app.abort import AbortSignal
from app.agent.loop import LoopOutcome
from app.agent.model import MISSING_KEY
from app.agent.usage import Usage
from app.events import AgentEvent, EventSink
from app.ui.aio import spawn
from app.ui.chat.model import UI_TURN, MilestoneView, TaskView, TurnRecord, turns_from_rows
from app.ui.chat.thumbnails import thumbnail_data_url
from app.ui.controller import AppController
from app.ui.cost import TurnCost

log = logging.getLogger(__name__)
Runner = Callable[[str, EventSink, AbortSignal], Awaitable[LoopOutcome]]
USAGE_FIELDS = tuple(Usage.__dataclass_fields__)


class ChatSession(QObject):
    history_loaded = Signal(list)  # list[TurnRecord]
    turn_started = Signal(object)  # TurnRecord
    text_delta = Signal(str)
    task_started = Signal(object)  # TaskView
    task_updated = Signal(object)  # TaskView (a new milestone)
    task_finished = Signal(object)  # TaskView
    turn_finished = Signal(object)  # TurnRecord
    running_changed = Signal(bool)
    missing_key = Signal()

    def __init__(self, controller: AppController, conversation_id: str | None = None) -> None:
        super().__init__()
        self.controller = controller
        self.conversation_id = conversation_id or ""
        self.turn: TurnRecord | None = None
        self.abort: AbortSignal | None = None
        self._task: TaskView | None = None
        self._models = ("", "")
        self._started = 0.0
        self._order = asyncio.Lock()

    @property
    def running(self) -> bool:
        return self.turn is not None

    # -- history ----------------------------------------------------------
    async def load(self) -> list[TurnRecord]:
        """Open the most recent conversation (or start one) and emit its transcript."""
        if not self.conversation_id:
            conversations = await self.controller.conversations()
            self.conversation_id = conversations[0]["id"] if conversations else new_id()
        turns = turns_from_rows(await self.controller.messages(self.conversation_id))
        self.history_loaded.emit(turns)
        return turns

    def new_conversation(self) -> bool:
        if self.running:
            return False
        self.conversation_id = new_id()
        self.history_loaded.emit([])
        return True

    # -- turns ------------------------------------------------------------
    def send(self, text: str) -> bool:
        """Start a turn now (the window shows it at once); the agent runs on the loop."""
        text = text.strip()
        if not text or self.running:
            return False
        spawn(self._run(self._begin(text, False), None))
        return True

    async def run_turn(self, text: str, runner: Runner | None, demo: bool = False) -> TurnRecord:
        """A turn driven by `runner` (e.g. the demo) or by the core's chat; returns when it ended."""
        if self.running:
            raise RuntimeError("a turn is already running in this conversation")
        return await self._run(self._begin(text, demo), runner)

    def _begin(self, text: str, demo: bool) -> TurnRecord:
        self.turn = TurnRecord(text, demo=demo)
        self.abort = AbortSignal()
        self._task = None
        self._started = time.monotonic()
        self.controller.turn_started(self.conversation_id)
        self.turn_started.emit(self.turn)
        self.running_changed.emit(True)
        return self.turn

    async def _run(self, turn: TurnRecord, runner: Runner | None) -> TurnRecord:
        assert self.abort is not None
        cost = TurnCost()
        try:
            settings = await self.controller.core.read_agent_settings()
            self._models = (settings.main_model, settings.subagent_model)
            sink = self._sink(cost)
            if runner is None:
                client = await self.controller.clients.client(settings)
                outcome = await self.controller.core.chat(self.conversation_id, turn.user_text, sink, self.abort,
                                                          settings, client)
            else:
                outcome = await runner(self.conversation_id, sink, self.abort)
        except asyncio.CancelledError:
            outcome = LoopOutcome(status="cancelled", error="the app is closing")
        except Exception as err:  # shown inline; the turn must end cleanly whatever happened
            outcome = LoopOutcome(status="failed", error=f"{type(err).__name__}: {err}")
        return await self._finish(outcome, cost)

    def stop(self) -> None:
        if self.running:
            spawn(self.controller.stop_task(self.conversation_id))
            if self.abort is not None:
                self.abort.abort("stopped by user")

    async def _finish(self, outcome: LoopOutcome, cost: TurnCost) -> TurnRecord:
        async with self._order:
            turn = self.turn
            assert turn is not None
            if self._task is not None and self._task.finished is None:
                status = {"end_turn": "completed", "completed": "completed"}.get(outcome.status, outcome.status)
                self._task.finish({"status": status, "summary": outcome.error or ""})
                self.task_finished.emit(self._task)
                self._task = None
            turn.status = outcome.status
            turn.error = outcome.error
            turn.cost = cost.as_dict()
            turn.elapsed = time.monotonic() - self._started
        try:
            await self.controller.append_message(self.conversation_id, UI_TURN, turn.as_dict())
        except Exception:  # the turn still ends; only its replay after a restart is lost
            log.exception("could not store the turn")
        self.turn_finished.emit(turn)
        self.turn = None
        self.running_changed.emit(False)
        self.controller.turn_finished(self.conversation_id)
        if outcome.status == "failed" and outcome.error == MISSING_KEY:
            self.missing_key.emit()
        return turn

    # -- agent events -----------------------------------------------------
    def _sink(self, cost: TurnCost) -> EventSink:
        def on_event(kind: AgentEvent, payload: dict[str, Any]) -> None:
            if kind == "text":
                self._add_text(str(payload.get("text", "")))
            elif kind in ("usage", "subagent_usage"):
                model = self._models[0] if kind == "usage" else self._models[1]
                cost.add(model, Usage(**{k: int(payload.get(k) or 0) for k in USAGE_FIELDS}))
            elif kind == "tool_call" and payload.get("name") == "task":
                self._start_task(payload.get("input") or {})
            elif kind == "tool_call" and payload.get("name") == "browser" and self._task is None:
                self._start_task({"description": "Browser"})
            elif kind == "subagent_milestone" or (kind == "milestone" and payload.get("action") != "task"):
                spawn(self._add_milestone(payload))
            elif kind == "tool_result" and payload.get("name") == "task":
                spawn(self._finish_task(payload.get("output") or {}))
        return on_event

    def _add_text(self, text: str) -> None:
        if self.turn is None or not text:
            return
        segments = self.turn.segments
        if segments and segments[-1]["type"] == "text":
            segments[-1]["text"] += text
        else:
            segments.append({"type": "text", "text": text})
        self.text_delta.emit(text)

    def _start_task(self, raw: dict[str, Any]) -> None:
        if self.turn is None:
            return
        task = TaskView(str(raw.get("description") or "Browser task"), str(raw.get("prompt") or ""),
                        task_id=self.conversation_id)
        self._task = task
        self.turn.segments.append({"type": "task", "task": task})
        self.task_started.emit(task)

    async def _add_milestone(self, payload: dict[str, Any]) -> None:
        async with self._order:
            task = self._task
            if task is None:
                return
            shot = payload.get("screenshot")
            thumb = await asyncio.to_thread(thumbnail_data_url, shot) if shot else None
            task.milestones.append(MilestoneView(int(payload.get("step") or task.steps + 1),
                                                 str(payload.get("action", "")), str(payload.get("summary", "")),
                                                 float(payload.get("at") or time.time()), thumb))
            self.task_updated.emit(task)

    async def _finish_task(self, output: dict[str, Any]) -> None:
        async with self._order:
            task = self._task
            if task is None:
                return
            task.finish(output)
            self._task = None
            self.task_finished.emit(task)
            if task.needs_user:
                self.controller.set_needs_user(self.conversation_id, {"needs": task.needs, "tab_id": task.tab_id,
                                                                     "description": task.description})


def new_id() -> str:
    return "c-" + uuid.uuid4().hex[:12]
