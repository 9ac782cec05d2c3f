"""Transcript pieces: the person's message, and streamed Markdown from the agent."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from app.ui.widgets import label

RENDER_DELAY_MS = 40


class UserBubble(QWidget):
    def __init__(self, text: str) -> None:
        super().__init__()
        bubble = QFrame()
        bubble.setObjectName("userBubble")
        inner = QVBoxLayout(bubble)
        inner.setContentsMargins(12, 8, 12, 8)
        self.text = label(text, wrap=True, selectable=True)
        inner.addWidget(self.text)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(96, 0, 0, 0)
        layout.addStretch(1)
        layout.addWidget(bubble, 100)


class MarkdownBlock(QLabel):
    """Markdown that can grow while it streams; re-rendering is coalesced so long answers stay cheap."""

    def __init__(self, text: str = "") -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.MarkdownText)
        self.setWordWrap(True)
        self.setOpenExternalLinks(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.source = text
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RENDER_DELAY_MS)
        self._timer.timeout.connect(self.show_source)
        self.show_source()

    def append(self, text: str) -> None:
        self.source += text
        if not self._timer.isActive():
            self._timer.start()

    def show_source(self) -> None:
        self._timer.stop()
        self.setText(self.source.strip())
