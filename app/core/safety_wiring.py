"""Puts the safety checks around every browser request of a core: one broker (the person's answers), one guard
on the pool (every action of every agent, MCP lane and `bua act` passes it). It lives in the core, which composes
the layers: safety itself knows neither the task board nor the sessions table (tests/unit/test_layers.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.safety.confirmations import DEFAULT_TIMEOUT_S, TIMEOUT_SETTING, ConfirmationBroker
from app.safety.guard import SafetyGuard
from app.safety.network_holds import NetworkHolds

if TYPE_CHECKING:
    from app.agent.task_board import TaskBoard
    from app.bridge.pool import BrowserBridgePool
    from app.core.sessions import SessionsTable
    from app.store.db import Store

def install_safety(pool: "BrowserBridgePool", board: "TaskBoard", sessions: "SessionsTable",
                   store: "Store") -> ConfirmationBroker:
    def timeout_s() -> float:
        value = store.get_setting(TIMEOUT_SETTING, None)
        return float(value) if isinstance(value, (int, float)) and value > 0 else DEFAULT_TIMEOUT_S

    def task_words(task_id: str) -> str:
        record = board.tasks.get(task_id)
        return record.description if record is not None else ""

    def tab_url(task_id: str, tab_id: int) -> str | None:
        return next((row.url for row in sessions.for_task(task_id) if row.tab_id == tab_id and row.url), None)

    broker = ConfirmationBroker(timeout_s)
    pool.safety = SafetyGuard(broker, task_words, tab_url)
    pool.subscribe(NetworkHolds(pool.safety).on_event)  # requests the page sends during an action
    return broker
