"""The hand-off card: a task stopped because the person must act (log in, solve a CAPTCHA, confirm a purchase)."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QVBoxLayout

from app.ui.widgets import button, label, row

RESUME_TEXT = "I've done that in the browser — please continue the task in the same tab."


class HandoffCard(QFrame):
    def __init__(self, needs: str, tab_id: int | None, on_show_tab: Callable[[], None],
                 on_resume: Callable[[], None], description: str = "") -> None:
        super().__init__()
        self.setObjectName("handoff")
        self._on_resume = on_resume
        title = label(f"bua needs you{' — ' + description if description else ''}", "section", wrap=True)
        self.needs = label(needs or "The task needs your help in the browser.", wrap=True, selectable=True)
        self.hint = label("Do it in the browser, then press Resume: the agent continues in the same tab.",
                          "muted", wrap=True)
        self.show_tab = button("Show tab", on_show_tab, tip="Bring the task's tab to the front")
        self.show_tab.setEnabled(tab_id is not None)
        self.resume = button("Resume", self._resume, kind="primary", tip="Tell the agent you are done")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 12)
        layout.setSpacing(6)
        layout.addWidget(title)
        layout.addWidget(self.needs)
        layout.addWidget(self.hint)
        layout.addLayout(row(self.show_tab, self.resume, stretch_last=True))
        self.needs.setAlignment(Qt.AlignmentFlag.AlignLeft)

    def _resume(self) -> None:
        self.mark_resumed()
        self._on_resume()

    def mark_resumed(self) -> None:
        self.resume.setEnabled(False)
        self.show_tab.setEnabled(False)
        self.hint.setText("Resumed.")

    def set_hint(self, text: str) -> None:
        self.hint.setText(text)
