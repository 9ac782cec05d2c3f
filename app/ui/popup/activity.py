"""Milestones grouped by task, newest first, each task with its step count and elapsed time."""

from __future__ import annotations

import time
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHeaderView, QStackedWidget, QTreeWidget, QTreeWidgetItem

from app.agent.task_board import Milestone, TaskBoard, TaskRecord
from app.events import BoardEvent
from app.ui.format import clock, elapsed, plural
from app.ui.widgets import label

STATUS = {"running": "working", "completed": "done", "needs_user": "needs you", "cancelled": "stopped",
          "max_steps": "step limit", "token_budget": "token budget", "failed": "failed",
          "ended": "disconnected"}
"""Task statuses as the person reads them; `ended` is an MCP client's lane after the client went away."""


def shown(milestone: Milestone) -> bool:
    """The main agent's own "task → status" line repeats the task row's status; browser steps are shown."""
    return milestone.action != "task"


class ActivityView(QStackedWidget):
    def __init__(self, board: TaskBoard) -> None:
        super().__init__()
        self.board = board
        self.tree = QTreeWidget()
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels(["Task and its steps, newest first", "Progress", "When"])
        self.tree.setRootIsDecorated(True)
        self.tree.setUniformRowHeights(True)
        self.tree.setAlternatingRowColors(False)
        self.tree.setWordWrap(False)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        self.tree.setAccessibleName("Milestones by task")
        empty = label("Nothing yet. When bua works in your browser, each task and its steps appear here.",
                      "muted", wrap=True)
        empty.setContentsMargins(8, 24, 8, 8)
        empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.addWidget(empty)
        self.addWidget(self.tree)
        self.items: dict[str, QTreeWidgetItem] = {}
        self.finished: dict[str, float] = {}
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self._tick)
        self.timer.start()
        for record in sorted(board.tasks.values(), key=lambda r: r.started):
            self._task_item(record)
            for milestone in record.milestones:
                self._add_milestone(milestone)
        self._refresh_empty()

    def on_board_event(self, kind: BoardEvent, payload: Any) -> None:
        if kind == "task_started":
            self.finished.pop(payload.task_id, None)
            self._task_item(payload)
        elif kind == "task_milestone":
            self._add_milestone(payload)
        elif kind == "task_finished":
            self.finished[payload.task_id] = time.time()
            self._update_task(payload)
        self._refresh_empty()

    def _refresh_empty(self) -> None:
        self.setCurrentIndex(1 if self.items else 0)

    def _task_item(self, record: TaskRecord) -> QTreeWidgetItem:
        item = self.items.get(record.task_id)
        if item is None:
            item = QTreeWidgetItem()
            self.items[record.task_id] = item
            self.tree.insertTopLevelItem(0, item)
            item.setExpanded(True)
        else:
            index = self.tree.indexOfTopLevelItem(item)
            if index > 0:
                expanded = item.isExpanded()
                self.tree.takeTopLevelItem(index)
                self.tree.insertTopLevelItem(0, item)
                item.setExpanded(expanded)
        self._update_task(record)
        return item

    def _update_task(self, record: TaskRecord) -> None:
        item = self.items.get(record.task_id) or self._task_item(record)
        description = record.description or record.task_id
        item.setText(0, f"{description} — {STATUS.get(record.status, record.status)}")
        item.setToolTip(0, f"{description}\ntask {record.task_id}")
        end = self.finished.get(record.task_id, time.time() if record.status == "running" else
                                (record.milestones[-1].at if record.milestones else record.started))
        steps = sum(1 for m in record.milestones if shown(m))
        item.setText(1, f"{plural(steps, 'step')} · {elapsed(end - record.started)}")
        item.setText(2, clock(record.started))
        font = item.font(0)
        font.setBold(True)
        item.setFont(0, font)

    def _add_milestone(self, milestone: Milestone) -> None:
        record = self.board.record(milestone.task_id)
        parent = self.items.get(milestone.task_id) or self._task_item(record)
        if not shown(milestone):
            self._update_task(record)
            return
        child = QTreeWidgetItem([f"{milestone.step}. {milestone.summary}", "done" if milestone.ok else "failed",
                                 clock(milestone.at)])
        child.setToolTip(0, milestone.summary)
        parent.insertChild(0, child)
        self._update_task(record)

    def _tick(self) -> None:
        if not self.isVisible():
            return
        for task_id in list(self.items):
            record = self.board.tasks.get(task_id)
            if record is not None and record.status == "running":
                self._update_task(record)
