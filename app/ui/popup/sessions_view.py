"""Live sessions (task, site, tab title, since, last action), each with an End button."""

from __future__ import annotations

from functools import partial
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QStackedWidget, QTableWidget, QTableWidgetItem

from app.agent.task_board import TaskBoard
from app.core.sessions import SessionsTable
from app.ui.format import ago, last_action
from app.ui.widgets import button, label

COLUMNS = ["Task", "Site", "Tab", "Since", "Last action", ""]
EndSession = Callable[[str, int], None]


class SessionsView(QStackedWidget):
    def __init__(self, sessions: SessionsTable, board: TaskBoard, on_end: EndSession) -> None:
        super().__init__()
        self.sessions = sessions
        self.board = board
        self.on_end = on_end
        self.rows: list[dict[str, Any]] = []
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setShowGrid(False)
        self.table.setAccessibleName("Live sessions")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        empty = label("No live sessions. When a task opens a tab, it shows here with an End button; "
                      "ending it takes the tab away from the agent at once.", "muted", wrap=True)
        empty.setContentsMargins(8, 24, 8, 8)
        empty.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.addWidget(empty)
        self.addWidget(self.table)
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self._tick)
        self.timer.start()
        self.refresh()

    def refresh(self, *_args: object) -> None:
        self.rows = self.sessions.rows()
        self.table.setRowCount(len(self.rows))
        for r, session in enumerate(self.rows):
            record = self.board.tasks.get(session["task_id"])
            task = record.description if record and record.description else session["task_id"]
            values = [task, session["domain"], session.get("title") or f"tab {session['tab_id']}",
                      ago(session["started"]), last_action(session)]
            for c, value in enumerate(values):
                item = QTableWidgetItem(value)
                item.setToolTip(session.get("url", "") if c in (1, 2) else value)
                self.table.setItem(r, c, item)
            end = button("End", partial(self.on_end, session["task_id"], session["tab_id"]),
                         tip=f"End this session: the agent loses tab {session['tab_id']} now")
            self.table.setCellWidget(r, len(COLUMNS) - 1, end)
        self.setCurrentIndex(1 if self.rows else 0)

    def _tick(self) -> None:
        if not self.isVisible():
            return
        for r, session in enumerate(self.rows):
            for c, text in ((3, ago(session["started"])), (4, last_action(session))):
                item = self.table.item(r, c)
                if item is not None:
                    item.setText(text)
