"""The popup (tray click, "Sessions & blocklist"): hand-offs, Stop all, and tabs for activity, sessions and
the blocklist."""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from app.ui.aio import spawn
from app.ui.chat.confirm_card import ConfirmCard
from app.ui.chat.handoff_card import HandoffCard
from app.ui.controller import AppController
from app.ui.icons import app_icon
from app.ui.popup.activity import ActivityView
from app.ui.popup.blocklist_view import BlocklistEditor
from app.ui.popup.sessions_view import SessionsView
from app.ui.widgets import button, label, row, shortcut


class PopupWindow(QWidget):
    def __init__(self, controller: AppController) -> None:
        super().__init__(None, Qt.WindowType.Window)
        self.controller = controller
        core = controller.core
        self.setWindowTitle("Sessions & blocklist")
        self.setWindowIcon(app_icon())
        self.resize(720, 520)
        self.setMinimumSize(520, 380)
        self.summary = label("", "muted")
        self.stop_all = button("Stop all", self._stop_all, kind="danger",
                               tip="Stop every task, cancel every pending action, end every session (Ctrl+Shift+X)")
        self.handoffs = QWidget()
        self.handoff_layout = QVBoxLayout(self.handoffs)
        self.handoff_layout.setContentsMargins(0, 0, 0, 0)
        self.activity = ActivityView(core.board)
        self.sessions = SessionsView(core.sessions, core.board, self._end_session)
        self.blocklist = BlocklistEditor(controller.block, controller.unblock)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.activity, "Activity")
        self.tabs.addTab(self.sessions, "Sessions")
        self.tabs.addTab(self.blocklist, "Blocklist")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(10)
        header = row(label("Sessions & blocklist", "title"), self.summary, self.stop_all, spacing=12)
        header.insertStretch(2, 1)
        layout.addLayout(header)
        layout.addWidget(self.handoffs)
        layout.addWidget(self.tabs, 1)
        controller.board_event.connect(self.activity.on_board_event)
        controller.board_event.connect(lambda *_: self._refresh_summary())
        controller.sessions_event.connect(self.sessions.refresh)
        controller.sessions_event.connect(lambda *_: self._refresh_summary())
        controller.blocklist_changed.connect(self._blocklist_changed)
        controller.needs_user_changed.connect(self._refresh_handoffs)
        controller.confirmation_asked.connect(lambda _r: self._refresh_handoffs())
        controller.confirmation_settled.connect(lambda *_: self._refresh_handoffs())
        controller.state_changed.connect(lambda _s: self._refresh_summary())
        shortcut("Ctrl+Shift+X", self, self._stop_all)
        shortcut(QKeySequence.StandardKey.Close, self, self.close)
        shortcut("Esc", self, self.close)
        self._refresh_handoffs()
        self._refresh_summary()

    async def start(self) -> None:
        self._blocklist_changed(await self.controller.blocklist())

    def _stop_all(self) -> None:
        self.summary.setText("Stopping everything…")
        spawn(self.controller.stop_all())

    def _end_session(self, task_id: str, tab_id: int) -> None:
        spawn(self.controller.end_session(task_id, tab_id))

    def _blocklist_changed(self, patterns: list[str]) -> None:
        self.blocklist.set_patterns(patterns)
        self.tabs.setTabText(2, f"Blocklist ({len(patterns)})" if patterns else "Blocklist")

    def _refresh_summary(self) -> None:
        c = self.controller
        sessions = len(self.sessions.rows)
        running = sum(1 for t in c.core.board.tasks.values() if t.status == "running")
        parts = [f"{running} running" if running else "nothing running",
                 f"{sessions} live session{'s' if sessions != 1 else ''}"]
        self.summary.setText(" · ".join(parts))
        self.tabs.setTabText(1, f"Sessions ({sessions})" if sessions else "Sessions")

    def _show_tab(self, task_id: str, tab_id: int | None) -> None:
        spawn(self.controller.show_tab(task_id, tab_id))

    def _refresh_handoffs(self) -> None:
        while self.handoff_layout.count():
            item = self.handoff_layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for task_id, details in self.controller.needs_user.items():
            card = HandoffCard(str(details.get("needs") or ""), details.get("tab_id"),
                               partial(self._show_tab, task_id, details.get("tab_id")),
                               partial(self.controller.resume_requested.emit, task_id),
                               str(details.get("description") or ""))
            self.handoff_layout.addWidget(card)
        for request in self.controller.confirmations.values():
            self.handoff_layout.addWidget(ConfirmCard(request, self.controller.answer_confirmation))
        self.handoffs.setVisible(bool(self.controller.needs_user or self.controller.confirmations))

    def bring_forward(self) -> None:
        self.show()
        self.raise_()
        self.activateWindow()
