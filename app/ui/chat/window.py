"""The chat window: header, guided notices, the transcript and the composer, wired to a ChatSession."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QGuiApplication
from PySide6.QtWidgets import QMainWindow, QVBoxLayout, QWidget

from app.agent.keys import get_api_key, keyring_backend_name
from app.ui.aio import spawn
from app.ui.chat import guides
from app.ui.chat.composer import Composer
from app.ui.chat.confirm_card import ConfirmCard
from app.ui.chat.handoff_card import RESUME_TEXT, HandoffCard
from app.ui.chat.header import Header
from app.ui.chat.model import TaskView, TurnRecord
from app.ui.chat.notices import NoticeStack
from app.ui.chat.session import ChatSession
from app.ui.chat.transcript import Transcript
from app.ui.controller import AppController
from app.ui.demo import DemoRunner
from app.ui.icons import app_icon
from app.ui.widgets import shortcut
from installer.extension_id import extension_dir
from installer.placed_extension import loadable_folder

NO_EXTENSION_GRACE_MS = 2500


class ChatWindow(QMainWindow):
    def __init__(self, controller: AppController, quit_on_close: bool = False) -> None:
        super().__init__()
        self.controller = controller
        self.quit_on_close = quit_on_close
        self.session = ChatSession(controller)
        self.demo: DemoRunner | None = None
        self.setWindowTitle("Chat")
        self.setWindowIcon(app_icon())
        self.resize(780, 720)
        self.setMinimumSize(520, 420)
        self.header = Header(controller, self.new_chat, self.try_demo)
        self.notices = NoticeStack()
        self.transcript = Transcript(self._handoff_card, self._use_example)
        self.composer = Composer()
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        layout.addWidget(self.notices)
        layout.addWidget(self.transcript, 1)
        bottom = QVBoxLayout()
        bottom.setContentsMargins(16, 8, 16, 14)
        bottom.addWidget(self.composer)
        layout.addLayout(bottom)
        self.setCentralWidget(central)
        self._wire()
        self._shortcuts()
        self._extension_grace = False
        QTimer.singleShot(NO_EXTENSION_GRACE_MS, self._end_grace)

    # -- wiring -----------------------------------------------------------
    def _wire(self) -> None:
        s, t, c = self.session, self.transcript, self.controller
        self.composer.submitted.connect(self.session.send)
        self.composer.edit.textChanged.connect(c.warm_up)
        self.composer.stop_requested.connect(self.session.stop)
        s.history_loaded.connect(self._show_history)
        s.turn_started.connect(self._turn_started)
        s.text_delta.connect(lambda text: t.current.append_text(text) if t.current else None)
        s.task_started.connect(lambda task: t.current.add_task(task) if t.current else None)
        s.task_updated.connect(lambda task: t.current.update_task(task) if t.current else None)
        s.task_finished.connect(lambda task: t.current.finish_task(task) if t.current else None)
        s.turn_finished.connect(self._turn_finished)
        s.running_changed.connect(self.composer.set_running)
        s.missing_key.connect(self.show_missing_key)
        c.browsers_changed.connect(lambda _n: self._refresh_extension_notice())
        c.resume_requested.connect(self._resume)
        c.confirmation_asked.connect(self._confirmation_asked)
        c.confirmation_settled.connect(self._confirmation_settled)
        c.state_changed.connect(lambda _s: self._refresh_error_notice())
        self._refresh_error_notice()

    def _shortcuts(self) -> None:
        for keys, slot in (("Ctrl+N", self.new_chat), ("Ctrl+,", self.controller.open_settings_requested.emit),
                           ("Ctrl+J", self.controller.open_popup_requested.emit),
                           ("Ctrl+L", self.composer.edit.setFocus), ("Ctrl+Q", self.controller.quit_requested.emit),
                           ("Ctrl+Shift+X", lambda: spawn(self.controller.stop_all()))):
            shortcut(keys, self, slot)

    async def start(self) -> None:
        await self.session.load()
        await self.refresh_key_notice()
        self.composer.edit.setFocus()

    # -- transcript -------------------------------------------------------
    def _show_history(self, turns: list[TurnRecord]) -> None:
        self.transcript.clear()
        for index, record in enumerate(turns):
            self.transcript.add_record(record, live_handoff=index == len(turns) - 1)
        self.transcript.scroll_to_end()

    def _turn_started(self, turn: TurnRecord) -> None:
        self.transcript.add_user(turn.user_text)
        self.transcript.begin_turn()

    def _turn_finished(self, turn: TurnRecord) -> None:
        if self.transcript.current is not None:
            self.transcript.current.finish(turn)

    def _handoff_card(self, task: TaskView) -> HandoffCard:
        card: HandoffCard | None = None

        def show_tab() -> None:
            async def go() -> None:
                if not await self.controller.show_tab(task.task_id, task.tab_id):
                    assert card is not None
                    card.set_hint(f"Switch to the tab in the “bua · {task.description}” tab group in your browser, "
                                  "then press Resume when you are done.")
            spawn(go())

        card = HandoffCard(task.needs or "", task.tab_id, show_tab,
                           lambda: self.controller.resume_requested.emit(task.task_id), task.description)
        return card

    def _confirmation_asked(self, request: dict[str, Any]) -> None:
        """A held action of a task in this chat: its card gets the question (the popup and tray have it too)."""
        for turn in reversed(self.transcript.turns):
            for card in reversed(list(turn.cards.values())):
                if card.task.task_id == request.get("task_id") and card.task.finished is None:
                    card.add_confirmation(ConfirmCard(request, self.controller.answer_confirmation))
                    card.set_expanded(True)
                    return

    def _confirmation_settled(self, request_id: str, decision: str) -> None:
        for card in self.findChildren(ConfirmCard):
            if card.request_id == request_id:
                card.settle(decision)

    def _resume(self, task_id: str) -> None:
        """Resume from the chat's or the popup's hand-off card: the follow-up goes into that conversation."""
        if task_id != self.session.conversation_id or self.session.running:
            return
        for turn in self.transcript.turns:
            for card in turn.handoffs:
                card.mark_resumed()
        self.controller.clear_needs_user(task_id)
        self.session.send(RESUME_TEXT)

    def _use_example(self, text: str) -> None:
        self.composer.set_text(text)

    def new_chat(self) -> None:
        if self.session.new_conversation():
            self.composer.edit.setFocus()

    # -- notices ----------------------------------------------------------
    async def refresh_key_notice(self) -> None:
        has_key = bool(await asyncio.to_thread(get_api_key))
        if has_key:
            self.notices.hide_notice("missing_key")
        else:
            self.show_missing_key()

    def show_missing_key(self) -> None:
        async def go() -> None:
            has_keyring = await asyncio.to_thread(keyring_backend_name) is not None  # may talk to D-Bus
            self.notices.show_notice(guides.missing_key(self.controller.open_settings_requested.emit, self.try_demo,
                                                        has_keyring))
        spawn(go())

    def _end_grace(self) -> None:
        self._extension_grace = True
        self._refresh_extension_notice()

    def _refresh_extension_notice(self) -> None:
        if self.controller.browser_count or not self._extension_grace:
            self.notices.hide_notice("no_extension")
        elif not self.notices.has("no_extension"):
            self.notices.show_notice(guides.no_extension(
                loadable_folder(self.controller.home, extension_dir()), self._copy_extension_path, self._open_extensions, self._start_browser,
                self.controller.open_first_run_requested.emit))

    def _refresh_error_notice(self) -> None:
        if self.controller.error:
            self.notices.show_notice(guides.core_error(self.controller.error))
        else:
            self.notices.hide_notice("core_error")

    def show_no_tray(self) -> None:
        self.notices.show_notice(guides.no_tray())

    def show_store_recovered(self, message: str, dismiss: Callable[[], object]) -> None:
        def dismissed() -> None:
            self.notices.hide_notice("store_recovered")
            dismiss()
        self.notices.show_notice(guides.store_recovered(message, dismissed))

    def _copy_extension_path(self) -> None:
        QGuiApplication.clipboard().setText(str(loadable_folder(self.controller.home, extension_dir())))
        self._extension_status("Folder path copied.")

    def _open_extensions(self) -> None:
        from app.ui.setup_check import UsageError, open_extensions_page

        async def go() -> None:
            try:
                opened = await asyncio.to_thread(open_extensions_page)
                self._extension_status(f"Opened {opened}.")
            except UsageError as err:
                self._extension_status(str(err))
        spawn(go())

    def _start_browser(self) -> None:
        self._extension_status("Starting a browser with the extension…")
        spawn(self.controller.start_bua_browser(), lambda err: self._extension_status(f"Could not start it: {err}"))

    def _extension_status(self, text: str) -> None:
        card = self.notices.cards.get("no_extension")
        if card is not None:
            card.set_status(text)

    # -- demo -------------------------------------------------------------
    def try_demo(self) -> None:
        if self.session.running:
            return
        self.controller.warm_up()
        spawn(self._run_demo(), lambda err: self._demo_status(f"The demo could not start: {err}"))

    async def _run_demo(self) -> None:
        if self.demo is None:
            self.demo = DemoRunner(self.controller.core, self.controller.start_bua_browser)
        self.session.new_conversation()
        self._demo_status("Starting the offline model and the demo site…")
        try:
            await self.demo.prepare(self._demo_status)
            await self.controller.warmed()
        except TimeoutError:
            self._demo_status("The browser's extension did not connect within 45 s.")
            return
        self.notices.hide_notice("demo")
        await self.session.run_turn(self.demo.prompt, self.demo.run, demo=True)

    def _demo_status(self, text: str) -> None:
        card = self.notices.cards.get("demo")
        if card is None:
            card = self.notices.show_notice(guides.demo_status(text, self._stop_demo))
        card.body.setText(text)

    def _stop_demo(self) -> None:
        self.session.stop()
        self.notices.hide_notice("demo")

    # -- window -----------------------------------------------------------
    def bring_forward(self) -> None:
        self.show()
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMinimized)
        self.raise_()
        self.activateWindow()

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.quit_on_close:
            event.ignore()
            self.controller.quit_requested.emit()
        else:
            event.accept()

    def shutdown(self) -> None:
        if self.demo is not None:
            self.demo.close()
            self.demo = None
