"""The scrolling conversation: user bubbles and agent turns, an empty state with examples, stick-to-bottom."""

from __future__ import annotations

from functools import partial
from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QScrollArea, QVBoxLayout, QWidget

from app.ui.chat.bubble import UserBubble
from app.ui.chat.model import TurnRecord
from app.ui.chat.turn import AssistantTurn, HandoffFactory
from app.ui.widgets import button, label

EXAMPLES = (
    "Open my GitHub notifications and summarise what needs a reply",
    "Find three well-reviewed Italian restaurants near me that are open tonight",
    "Collect the titles and links of the top stories on Hacker News",
)


class EmptyState(QWidget):
    def __init__(self, on_example: Callable[[str], None]) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 40, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(label("What should bua do in your browser?", "title"))
        layout.addWidget(label("bua works in your own Chrome, only in tabs it opens for the task. "
                               "You can watch every step, and Stop means stop.", "muted", wrap=True))
        layout.addSpacing(8)
        for example in EXAMPLES:
            layout.addWidget(button(f"→  {example}", partial(on_example, example), kind="flat"))


class Transcript(QScrollArea):
    def __init__(self, handoff: HandoffFactory, on_example: Callable[[str], None]) -> None:
        super().__init__()
        self.setObjectName("transcript")
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._handoff = handoff
        self.container = QWidget()
        self.layout_ = QVBoxLayout(self.container)
        self.layout_.setContentsMargins(20, 16, 20, 16)
        self.layout_.setSpacing(14)
        self.empty = EmptyState(on_example)
        self.empty.setVisible(False)
        self.layout_.addWidget(self.empty)
        self.layout_.addStretch(1)
        self.setWidget(self.container)
        self.turns: list[AssistantTurn] = []
        self._stick = True
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(lambda value: setattr(self, "_stick", value >= bar.maximum() - 24))
        bar.rangeChanged.connect(lambda _lo, hi: bar.setValue(hi) if self._stick else None)

    def _add(self, widget: QWidget) -> None:
        self.empty.setVisible(False)
        self.layout_.insertWidget(self.layout_.count() - 1, widget)

    def clear(self) -> None:
        for turn_widget in self.container.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if turn_widget is not self.empty:
                self.layout_.removeWidget(turn_widget)
                turn_widget.deleteLater()
        self.turns = []
        self.empty.setVisible(True)

    def add_user(self, text: str) -> None:
        self._add(UserBubble(text))
        self.scroll_to_end()

    def begin_turn(self) -> AssistantTurn:
        turn = AssistantTurn(self._handoff)
        self.turns.append(turn)
        self._add(turn)
        return turn

    def add_record(self, record: TurnRecord, live_handoff: bool) -> AssistantTurn:
        self.add_user(record.user_text)
        turn = AssistantTurn.from_record(record, self._handoff, live_handoff)
        self.turns.append(turn)
        self._add(turn)
        return turn

    @property
    def current(self) -> AssistantTurn | None:
        return self.turns[-1] if self.turns else None

    def scroll_to_end(self) -> None:
        self._stick = True
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())
