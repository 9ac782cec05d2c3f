"""AppController: the UI's one handle on the core — state for the tray, Qt signals for core events,
and async wrappers that keep disk work off the event loop."""

from __future__ import annotations

import asyncio
from enum import Enum
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.core.service import Core
from app.events import CoreEvent
from app.safety.strict_mode import StrictMode
from app.ui.aio import spawn
from app.ui.model_clients import OffLoopClients, prewarm

BROWSER_POLL_MS = 1000


class AppState(str, Enum):
    IDLE = "idle"
    WORKING = "working"
    NEEDS_USER = "needs_user"
    NO_EXTENSION = "no_extension"
    ERROR = "error"


class AppController(QObject):
    state_changed = Signal(str)
    browsers_changed = Signal(int)
    board_event = Signal(str, object)
    sessions_event = Signal(str, object)
    blocklist_changed = Signal(list)
    needs_user_changed = Signal()
    open_chat_requested = Signal()
    open_popup_requested = Signal()
    open_settings_requested = Signal()
    open_first_run_requested = Signal()
    quit_requested = Signal()
    resume_requested = Signal(str)
    confirmation_asked = Signal(object)
    """A held action waits for the person (app.safety.confirmations.ConfirmationRequest as a dict)."""
    confirmation_settled = Signal(str, str)
    """(request id, decision): answered here or elsewhere, timed out or stopped."""

    def __init__(self, core: Core, home: Path, error: str | None = None, warm_up: bool = True) -> None:
        super().__init__()
        self.core = core
        self.home = home
        self.error = error
        self.browser_count = 0
        self.running_turns: set[str] = set()
        self.needs_user: dict[str, dict[str, Any]] = {}
        self.confirmations: dict[str, dict[str, Any]] = {}
        """Held actions waiting for the person, by request id."""
        self.state = AppState.IDLE
        self.launched: list[Any] = []
        self.clients = OffLoopClients(core.client_factory)
        self._warm_up = warm_up
        self._warming: asyncio.Future[None] | None = None
        self._unsubscribe = [
            core.subscribe(self._on_core_event),
            core.board.subscribe(lambda kind, payload: self.board_event.emit(kind, payload)),
            core.sessions.subscribe(lambda kind, payload: self.sessions_event.emit(kind, payload)),
            core.confirmations.subscribe(self._on_confirmation),
            core.confirmations.attach_ui(),
        ]
        self.board_event.connect(lambda *_: self._refresh())
        self._poll = QTimer(self)
        self._poll.setInterval(BROWSER_POLL_MS)
        self._poll.timeout.connect(self._refresh)
        self._poll.start()
        self._refresh()

    def close(self) -> None:
        for browser in self.launched:
            browser.stop()
        self.launched = []
        self._poll.stop()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    # -- state ------------------------------------------------------------
    def _on_core_event(self, kind: CoreEvent, payload: dict[str, Any]) -> None:
        """Whoever used the verb (this window, `bua`, the demo), the tray and the windows follow."""
        if kind == "host_error":
            self.error = str(payload["message"])
        elif kind == "browser_connected" and self.error and self.error.startswith("the native host"):
            self.error = None
        elif kind == "blocklist_changed":
            self.blocklist_changed.emit(list(payload["patterns"]))
        elif kind == "stopped" and payload["task_id"] is None:
            if self.needs_user:
                self.needs_user.clear()
                self.needs_user_changed.emit()
            self._refresh()
            return
        QTimer.singleShot(0, self._refresh)

    @property
    def busy(self) -> bool:
        return bool(self.running_turns) or any(t.status == "running" for t in self.core.board.tasks.values())

    def _refresh(self) -> None:
        count = self.core.browser_count
        if count != self.browser_count:
            self.browser_count = count
            self.browsers_changed.emit(count)
        if self.error:
            state = AppState.ERROR
        elif self.needs_user or self.confirmations:
            state = AppState.NEEDS_USER
        elif self.busy:
            state = AppState.WORKING
        elif count == 0:
            state = AppState.NO_EXTENSION
        else:
            state = AppState.IDLE
        if state != self.state:
            self.state = state
            self.state_changed.emit(state.value)

    def set_error(self, message: str | None) -> None:
        self.error = message
        self._refresh()

    def turn_started(self, conversation_id: str) -> None:
        self.running_turns.add(conversation_id)
        self.clear_needs_user(conversation_id)
        self._refresh()

    def turn_finished(self, conversation_id: str) -> None:
        self.running_turns.discard(conversation_id)
        self._refresh()

    def set_needs_user(self, task_id: str, details: dict[str, Any]) -> None:
        self.needs_user[task_id] = details
        self.needs_user_changed.emit()
        self._refresh()

    def clear_needs_user(self, task_id: str) -> None:
        if self.needs_user.pop(task_id, None) is not None:
            self.needs_user_changed.emit()
            self._refresh()

    def _on_confirmation(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "confirmation_asked":
            self.confirmations[str(payload["id"])] = payload
            self.confirmation_asked.emit(payload)
        elif kind == "confirmation_settled" and self.confirmations.pop(str(payload["id"]), None) is not None:
            self.confirmation_settled.emit(str(payload["id"]), str(payload["decision"]))
        self._refresh()

    def answer_confirmation(self, request_id: str, decision: str) -> bool:
        """The person's answer from the task card, the popup or the tray; False when it no longer waits."""
        return self.core.confirmations.answer(request_id, decision)

    def warm_up(self) -> None:
        """Load the model SDK's lazy parts in a thread, once, as soon as a turn is likely (the person types,
        or asks for the demo), so the first turn does not do it on the loop and an idle app stays small."""
        if self._warm_up and self._warming is None:
            self._warming = spawn(asyncio.to_thread(prewarm))

    async def warmed(self) -> None:
        self.warm_up()
        if self._warming is not None:
            await asyncio.shield(self._warming)

    # -- the user's controls ----------------------------------------------
    async def stop_all(self) -> None:
        """The core's `stopped` event clears what waits on the person (as it does for `bua stop`)."""
        await self.core.stop_all()

    async def stop_task(self, task_id: str) -> None:
        await self.core.stop_task(task_id)

    async def end_session(self, task_id: str, tab_id: int | None) -> None:
        await self.core.end_session(task_id, tab_id)

    async def show_tab(self, task_id: str, tab_id: int | None) -> bool:
        """Bring a session's tab to the front; False when no browser holds it in a live session."""
        if tab_id is None:
            return False
        answers = await self.core.show_tab(tab_id)
        return any(answer.get("ok") for answer in answers)

    async def start_bua_browser(self) -> None:
        """Start Chromium/Chrome with a bua profile and the extension loaded (stopped again at quit)."""
        from app.browser.launch import launch_browser
        from app.ui.demo import has_display

        self.launched.append(await asyncio.to_thread(launch_browser, self.home, headless=not has_display()))

    async def apply_idle_threshold(self, seconds: int) -> None:
        """Store the idle threshold and send it to every connected browser (the extension's `configure` control)."""
        await self.core.set_idle_threshold(seconds)

    async def strict_mode(self) -> StrictMode:
        return await self.core.strict_mode()

    async def apply_strict_mode(self, all_sites: bool, sites: list[str]) -> None:
        """Store strict mode ("ask before acting") and send it to every connected browser; raises
        app.store.blocklist.InvalidEntry for a site that is not a domain."""
        await self.core.set_strict_mode(all_sites, sites)

    # -- blocklist (a change, from here or from `bua`, reaches the windows as `blocklist_changed`) ----------
    async def blocklist(self) -> list[str]:
        return await self.core.blocklist()

    async def block(self, entry: str) -> str:
        """Normalised pattern; raises app.store.blocklist.InvalidEntry."""
        return (await self.core.block(entry)).pattern

    async def unblock(self, entry: str) -> None:
        await self.core.unblock(entry)

    # -- settings and history ---------------------------------------------
    async def setting(self, key: str, default: Any = None) -> Any:
        return await self.core.setting(key, default)

    async def set_settings(self, values: dict[str, Any]) -> None:
        await self.core.set_settings(values)

    async def conversations(self) -> list[dict[str, Any]]:
        return await self.core.conversations()

    async def messages(self, conversation_id: str) -> list[dict[str, Any]]:
        return await self.core.messages(conversation_id)

    async def append_message(self, conversation_id: str, role: str, payload: dict[str, Any]) -> None:
        await self.core.append_message(conversation_id, role, payload)
