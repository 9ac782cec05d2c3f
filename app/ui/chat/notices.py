"""Guided messages above the conversation: what is wrong and the buttons that fix it."""

from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from app.ui.widgets import button, label, repolish, row

Action = tuple[str, Callable[[], object], str | None]


class NoticeCard(QFrame):
    def __init__(self, name: str, title: str, body: str, actions: list[Action], tone: str = "warning") -> None:
        super().__init__()
        self.setObjectName("notice")
        self.setProperty("tone", tone)
        self.name = name
        self.title = label(title, "section", wrap=True)
        self.body = label(body, wrap=True, rich=True, selectable=True)
        self.status = label("", "muted", wrap=True)
        self.status.setVisible(False)
        self.buttons = {text: button(text, callback, kind) for text, callback, kind in actions}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 12)
        layout.setSpacing(6)
        layout.addWidget(self.title)
        layout.addWidget(self.body)
        layout.addWidget(self.status)
        if self.buttons:
            layout.addLayout(row(*self.buttons.values(), stretch_last=True))
        repolish(self)

    def set_status(self, text: str) -> None:
        self.status.setText(text)
        self.status.setVisible(bool(text))


class NoticeStack(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.cards: dict[str, NoticeCard] = {}
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(16, 10, 16, 0)
        self.layout_.setSpacing(8)
        self.setVisible(False)

    def show_notice(self, card: NoticeCard) -> NoticeCard:
        old = self.cards.pop(card.name, None)
        if old is not None:
            self.layout_.replaceWidget(old, card)
            old.deleteLater()
        else:
            self.layout_.addWidget(card)
        self.cards[card.name] = card
        self.setVisible(True)
        return card

    def hide_notice(self, name: str) -> None:
        card = self.cards.pop(name, None)
        if card is not None:
            self.layout_.removeWidget(card)
            card.deleteLater()
        self.setVisible(bool(self.cards))

    def has(self, name: str) -> bool:
        return name in self.cards
