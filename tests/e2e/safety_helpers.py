"""A stand-in for the person at the app window: attached to the core's confirmation broker, it records every
confirmation asked and answers it as the test says (or leaves it waiting, `answer=None`). Persons stack: only the
latest one entered answers (the suite's default person, who allows everything, stays behind the others)."""

from __future__ import annotations

from typing import Any

from app.safety.confirmations import Decision

_ACTIVE: list["Person"] = []


class Person:
    def __init__(self, core: Any, answer: Decision | None = Decision.DENY) -> None:
        self.core = core
        self.answer = answer
        self.asked: list[dict[str, Any]] = []
        self._undo: list[Any] = []

    def __enter__(self) -> "Person":
        broker = self.core.core.confirmations
        self._undo = self.core.run(lambda: [broker.attach_ui(), broker.subscribe(self._on)])
        _ACTIVE.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.core.run(lambda: [undo() for undo in self._undo])
        _ACTIVE.remove(self)

    def _on(self, kind: str, payload: dict[str, Any]) -> None:
        if kind != "confirmation_asked" or not _ACTIVE or _ACTIVE[-1] is not self:
            return
        self.asked.append(payload)
        if self.answer is not None:
            self.core.core.confirmations.answer(payload["id"], self.answer)

    def answer_now(self, decision: Decision) -> bool:
        """Answer the oldest waiting confirmation (for answer=None)."""
        broker = self.core.core.confirmations
        return self.core.run(lambda: broker.answer(broker.pending()[0].id, decision) if broker.pending() else False)


def status_of(act: Any, task_id: str) -> str:
    """The fixture page's `Status:` line, read with extract (read-only, never held)."""
    page = act({"type": "extract"}, task_id=task_id)
    assert page.ok, page.error
    line = next(line for line in page.result["markdown"].splitlines() if "Status:" in line)
    return line.split("Status:", 1)[1].strip()
