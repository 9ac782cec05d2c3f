"""A `task` call in the chat: collapsed to one line by default, with live milestones and screenshots."""

from __future__ import annotations

import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QVBoxLayout, QWidget

from app.ui.chat.model import MilestoneView, TaskView
from app.ui.chat.thumbnails import ImageViewer, pixmap
from app.ui.format import clock, elapsed, plural
from app.ui.widgets import button, chip, label, repolish, row

STATUS = {
    "running": ("Working…", "busy"),
    "completed": ("Done", "ok"),
    "needs_user": ("Needs you", "warn"),
    "cancelled": ("Stopped", None),
    "max_steps": ("Step limit", "warn"),
    "token_budget": ("Token budget", "warn"),
    "failed": ("Failed", "error"),
}
THUMB_PX = 168


class Thumbnail(QLabel):
    def __init__(self, data_url: str, title: str) -> None:
        super().__init__()
        self.data_url = data_url
        self.title = title
        self.setPixmap(pixmap(data_url, THUMB_PX))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Click to enlarge")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        ImageViewer(self.data_url, self.title, self.window()).open()


class TaskCard(QFrame):
    def __init__(self, task: TaskView, expanded: bool = False) -> None:
        super().__init__()
        self.setObjectName("taskCard")
        self.task = task
        self._shown = 0
        self.toggle = button("", self.set_expanded_toggle, kind="flat")
        self.toggle.setAccessibleName("Show or hide the task's steps")
        self.status = chip("")
        self.meta = label("", "muted")
        self.latest = label("", "muted")
        self.latest.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.body = QWidget()
        self.grid = QGridLayout(self.body)
        self.grid.setContentsMargins(22, 4, 0, 0)
        self.grid.setHorizontalSpacing(10)
        self.grid.setVerticalSpacing(6)
        self.grid.setColumnStretch(1, 1)
        self.summary = label("", wrap=True, selectable=True)
        self.summary.setTextFormat(Qt.TextFormat.MarkdownText)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 10)
        layout.setSpacing(4)
        layout.addLayout(row(self.toggle, self.status, self.meta, stretch_last=True))
        layout.addWidget(self.latest)
        layout.addWidget(self.body)
        self.confirmations = QVBoxLayout()
        """Held actions of this task waiting for the person (app/ui/chat/confirm_card.py)."""
        layout.addLayout(self.confirmations)
        layout.addSpacing(2)
        layout.addWidget(self.summary)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self._update_meta)
        self.expanded = expanded
        self.refresh()

    def add_confirmation(self, card: QWidget) -> None:
        self.confirmations.addWidget(card)

    def set_expanded_toggle(self) -> None:
        self.set_expanded(not self.expanded)

    def set_expanded(self, expanded: bool) -> None:
        self.expanded = expanded
        self.refresh()

    def refresh(self) -> None:
        task = self.task
        arrow = "▾" if self.expanded else "▸"
        self.toggle.setText(f"{arrow}  {task.description}")
        text, tone = STATUS.get(task.status, (task.status, None))
        self.status.setText(text)
        self.status.setProperty("tone", tone)
        repolish(self.status)
        while self._shown < len(task.milestones):
            self._add_row(task.milestones[self._shown])
            self._shown += 1
        last = task.milestones[-1] if task.milestones else None
        self.latest.setText(f"{last.step}. {last.summary}" if last else "Starting…")
        self.latest.setVisible(not self.expanded and task.finished is None)
        self.body.setVisible(self.expanded and bool(task.milestones))
        self.summary.setText(task.summary if task.finished is not None and not task.needs_user else "")
        self.summary.setVisible(bool(self.summary.text()))
        if task.finished is None and not self.timer.isActive():
            self.timer.start()
        elif task.finished is not None:
            self.timer.stop()
        self._update_meta()

    def _update_meta(self) -> None:
        task = self.task
        end = task.finished if task.finished is not None else time.time()
        self.meta.setText(f"{plural(task.steps, 'step')} · {elapsed(end - task.started)}")

    def _add_row(self, milestone: MilestoneView) -> None:
        r = self.grid.rowCount()
        step = label(str(milestone.step), "muted")
        step.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        summary = label(milestone.summary, wrap=True, selectable=True)
        summary.setToolTip(f"{milestone.action} at {clock(milestone.at)}")
        self.grid.addWidget(step, r, 0)
        self.grid.addWidget(summary, r, 1)
        if milestone.thumb:
            self.grid.addWidget(Thumbnail(milestone.thumb, f"Step {milestone.step}: {milestone.summary}"),
                                r + 1, 1, Qt.AlignmentFlag.AlignLeft)
