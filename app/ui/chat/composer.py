"""Where the person types: Enter sends, Shift+Enter adds a line, Esc stops a running turn."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFontMetrics, QKeyEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPlainTextEdit

from app.ui.widgets import button, set_props

MAX_LINES = 6


class Composer(QFrame):
    submitted = Signal(str)
    stop_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("composer")
        self.running = False
        self.edit = QPlainTextEdit()
        self.edit.setPlaceholderText("Ask bua to do something in your browser…  (Enter sends, Shift+Enter new line)")
        self.edit.setTabChangesFocus(True)
        self.edit.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.edit.setAccessibleName("Message")
        self.edit.installEventFilter(self)
        self.edit.textChanged.connect(self._fit)
        self.action = button("Send", self._clicked, kind="primary")
        self.action.setMinimumWidth(76)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.action, 0, Qt.AlignmentFlag.AlignBottom)
        self._fit()

    def _fit(self) -> None:
        metrics = QFontMetrics(self.edit.font())
        lines = max(1, int(self.edit.document().size().height()))
        self.edit.setFixedHeight(min(lines, MAX_LINES) * metrics.lineSpacing() + 14)
        self.edit.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if lines > MAX_LINES
                                             else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.edit and event.type() == QEvent.Type.KeyPress:
            key_event: QKeyEvent = event  # type: ignore[assignment]
            key = key_event.key()
            if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                if key_event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
                    return False
                self.submit()
                return True
            if key == Qt.Key.Key_Escape and self.running:
                self.stop_requested.emit()
                return True
        return super().eventFilter(watched, event)

    def _clicked(self) -> None:
        if self.running:
            self.stop_requested.emit()
        else:
            self.submit()

    def submit(self) -> None:
        text = self.edit.toPlainText().strip()
        if not text or self.running:
            return
        self.edit.clear()
        self.submitted.emit(text)

    def set_running(self, running: bool) -> None:
        self.running = running
        self.action.setText("Stop" if running else "Send")
        self.action.setToolTip("Stop this turn (Esc)" if running else "Send (Enter)")
        set_props(self.action, kind="danger" if running else "primary")

    def set_text(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.setFocus()
