"""One agent turn in the transcript: streamed text and task cards in order, a hand-off card when a task needs
the person, and a usage/cost line when the turn ends."""

from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.agent.usage import Usage
from app.ui.chat.bubble import MarkdownBlock
from app.ui.chat.handoff_card import HandoffCard
from app.ui.chat.model import TaskView, TurnRecord
from app.ui.chat.task_card import TaskCard
from app.ui.cost import TurnCost
from app.ui.format import elapsed, money, plural, tokens
from app.ui.widgets import label

HandoffFactory = Callable[[TaskView], HandoffCard]
END_NOTES = {"cancelled": "Stopped by you.", "max_steps": "Stopped at the step limit.",
             "token_budget": "Stopped at the token budget."}


def usage_text(turn: TurnRecord) -> str:
    cost = TurnCost.from_dict(turn.cost)
    total: Usage = cost.total
    if not total.calls:
        return f"{elapsed(turn.elapsed)}"
    cached = total.cache_read_input_tokens
    parts = [plural(total.calls, "model call"), f"{tokens(total.total_input)} in"
             + (f" ({tokens(cached)} cached)" if cached else ""), f"{tokens(total.output_tokens)} out"]
    usd = cost.usd
    if turn.demo:
        parts.append("offline demo, no cost")  # the scripted model bills nobody: a price would mislead
    elif usd is not None:
        parts.append(f"≈ {money(usd)}")
    parts.append(elapsed(turn.elapsed))
    return " · ".join(parts)


class AssistantTurn(QWidget):
    def __init__(self, handoff: HandoffFactory) -> None:
        super().__init__()
        self._handoff = handoff
        self.cards: dict[int, TaskCard] = {}
        self.handoffs: list[HandoffCard] = []
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self.layout_.setSpacing(8)
        self.thinking = label("Thinking…", "muted")
        self.layout_.addWidget(self.thinking)
        self.footer = label("", "muted")
        self.footer.setVisible(False)
        self.error = label("", "error", wrap=True, selectable=True)
        self.error.setVisible(False)
        self.layout_.addWidget(self.error)
        self.layout_.addWidget(self.footer)
        self._last: QWidget | None = None

    def _insert(self, widget: QWidget) -> None:
        self.thinking.setVisible(False)
        self.layout_.insertWidget(self.layout_.indexOf(self.error), widget)
        self._last = widget

    def append_text(self, text: str) -> None:
        if isinstance(self._last, MarkdownBlock):
            self._last.append(text)
        else:
            self._insert(MarkdownBlock(text))

    def add_task(self, task: TaskView) -> TaskCard:
        card = TaskCard(task)
        self.cards[id(task)] = card
        self._insert(card)
        return card

    def update_task(self, task: TaskView) -> None:
        card = self.cards.get(id(task))
        if card is not None:
            card.refresh()

    def finish_task(self, task: TaskView) -> None:
        self.update_task(task)
        if task.needs_user:
            card = self._handoff(task)
            self.handoffs.append(card)
            self._insert(card)

    def finish(self, turn: TurnRecord) -> None:
        self.thinking.setVisible(False)
        for block in self.findChildren(MarkdownBlock):
            block.show_source()
        note = END_NOTES.get(turn.status)
        if turn.status == "failed" and turn.error:
            self.error.setText(turn.error)
        elif note:
            self.error.setText(note)
            self.error.setProperty("role", "muted")
        self.error.setVisible(bool(self.error.text()))
        self.footer.setText(usage_text(turn))
        self.footer.setVisible(True)

    @classmethod
    def from_record(cls, turn: TurnRecord, handoff: HandoffFactory, live_handoff: bool) -> "AssistantTurn":
        widget = cls(handoff)
        for segment in turn.segments:
            if segment["type"] == "text":
                widget.append_text(segment["text"])
            else:
                task: TaskView = segment["task"]
                widget.add_task(task)
                if task.needs_user and live_handoff:
                    widget.finish_task(task)
        widget.finish(turn)
        return widget
