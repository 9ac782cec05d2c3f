"""One main-agent turn for a conversation, with its history in the store and its abort registered for Stop."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from app.abort import AbortSignal
from app.agent.context import RuntimeContext, ToolServices
from app.agent.loop import LoopOutcome
from app.agent.main_agent import MainAgent
from app.agent.model import ModelClient
from app.agent.runtime import AgentRuntime
from app.agent.settings import AgentSettings
from app.agent.task_board import TaskBoard
from app.bridge.pool import BrowserBridgePool
from app.core.controls_registry import ControlsLike
from app.events import EventSink
from app.store.db import Store

ClientFactory = Callable[[AgentSettings], ModelClient]


def history_from_store(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The main agent's context: the texts of earlier turns (task details stay in the task cards)."""
    messages: list[dict[str, Any]] = []
    for row in rows:
        text = str(row["payload"].get("text") or "").strip()
        if row["role"] in ("user", "assistant") and text:
            if messages and messages[-1]["role"] == row["role"]:
                messages[-1]["content"] += "\n\n" + text
            else:
                messages.append({"role": row["role"], "content": text})
    if messages and messages[-1]["role"] == "user":
        messages.pop()
    return messages


class ChatService:
    def __init__(self, pool: BrowserBridgePool, store: Store, board: TaskBoard, controls: ControlsLike,
                 settings: Callable[[], AgentSettings], client_factory: ClientFactory = ModelClient.from_settings) -> None:
        self.pool = pool
        self.store = store
        self.board = board
        self.controls = controls
        self.settings = settings
        self.client_factory = client_factory

    async def chat(self, conversation_id: str, text: str, on_event: EventSink = lambda _k, _p: None,
                   abort: AbortSignal | None = None, settings: AgentSettings | None = None,
                   client: ModelClient | None = None) -> LoopOutcome:
        """One turn; `settings` and `client`, when given, are used for this turn instead of the stored settings
        and the factory's client."""
        abort = abort or AbortSignal()
        rows = await asyncio.to_thread(self.store.messages, conversation_id)
        await asyncio.to_thread(self.store.create_conversation, conversation_id, text[:80])
        await asyncio.to_thread(self.store.append_message, conversation_id, "user", {"text": text})
        factory = self.client_factory if client is None else (lambda _settings: client)
        runtime = AgentRuntime(settings or self.settings(), factory, on_event)
        agent = MainAgent(runtime, ToolServices(browser_bridge=self.pool, task_board=self.board),
                          RuntimeContext(task_id=conversation_id), history_from_store(rows))
        self.controls.register(conversation_id, abort)
        try:
            await self.controls.reopen(conversation_id)  # the person's new message lifts the task's stop, if any
            outcome = await agent.run_turn(text, abort)
        finally:
            self.controls.unregister(conversation_id, abort)
        await asyncio.to_thread(self.store.append_message, conversation_id, "assistant", {
            "text": outcome.text, "status": outcome.status, "error": outcome.error,
            "usage": outcome.usage.as_dict()})
        return outcome
