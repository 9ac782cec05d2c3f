"""The confirmation card: a held sensitive action (or one site's data about to reach another) waits for the person.

It shows what, on which site, which element, why, and the task's own words, with **Allow once**, **Allow for this
task on this site** and **Deny** (app/safety/confirmations.py). The same card sits in the chat's task card and in
the popup; whichever the person answers first settles the request, and every copy then says how it was settled.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtWidgets import QFrame, QVBoxLayout

from app.protocol.actions import ACTION_SPECS
from app.safety.confirmations import Decision
from app.ui.widgets import button, label, row

SETTLED = {Decision.ALLOW_ONCE.value: "Allowed once.", Decision.ALLOW_TASK_SITE.value:
           "Allowed for this task on this site.", Decision.DENY.value: "Denied: the agent was told to hand it to you.",
           "timeout": "No answer in time: counted as Deny.", "stopped": "The task was stopped."}


def title_of(request: dict[str, Any]) -> str:
    if request.get("kind") == "data_flow":
        return f"Send data to {request.get('site') or 'another site'}?"
    what = str(request.get("what"))
    named = ACTION_SPECS[what].asking() if what in ACTION_SPECS else what
    return f"{named} on {request.get('site') or 'this page'}?"


class ConfirmCard(QFrame):
    def __init__(self, request: dict[str, Any], on_answer: Callable[[str, str], object]) -> None:
        super().__init__()
        self.setObjectName("handoff")
        self.request = request
        self._on_answer = on_answer
        self.title = label(f"bua asks you — {title_of(request)}", "section", wrap=True)
        self.title.setAccessibleName("Confirmation needed")
        self.element = label(f"{request.get('element') or 'the page'}: {request.get('reason') or ''}",
                             wrap=True, selectable=True)
        words = str(request.get("task_words") or "").strip()
        self.task_words = label(f"Task: “{words}”" if words else "Task: (no description)", "muted", wrap=True,
                                selectable=True)
        self.url = label(str(request.get("url") or ""), "muted", wrap=True, selectable=True)
        self.allow_once = button("Allow once", lambda: self._answer(Decision.ALLOW_ONCE), kind="primary",
                                 tip="Let this one action go on")
        self.allow_site = button("Allow for this task on this site", lambda: self._answer(Decision.ALLOW_TASK_SITE),
                                 tip="Let this task do such actions on this site without asking again")
        self.deny = button("Deny", lambda: self._answer(Decision.DENY), kind="danger",
                           tip="The action does not happen; the agent hands it to you")
        self.outcome = label("", "muted")
        self.outcome.hide()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(14, 10, 14, 12)
        layout.setSpacing(6)
        for widget in (self.title, self.element, self.task_words, self.url):
            layout.addWidget(widget)
        layout.addLayout(row(self.allow_once, self.allow_site, self.deny, stretch_last=True))
        layout.addWidget(self.outcome)

    @property
    def request_id(self) -> str:
        return str(self.request.get("id"))

    def _answer(self, decision: Decision) -> None:
        self._on_answer(self.request_id, decision.value)

    def settle(self, decision: str) -> None:
        """The request is no longer waiting (answered here, elsewhere, timed out or stopped)."""
        for widget in (self.allow_once, self.allow_site, self.deny):
            widget.setEnabled(False)
            widget.hide()
        self.outcome.setText(SETTLED.get(decision, "No longer waiting."))
        self.outcome.show()
