"""Stand-ins the guard tests share: an extension tab that records what it was sent, and a guard whose person
answers from a list (the real extension and popup: tests/e2e/test_safety_confirm.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.protocol.actions import ActionModel, action_to_wire, parse_action
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.guard import SafetyGuard


class RecordingTab:
    """Answers each action with the result the test gives for its type (an unlisted type: `{"url": fallback_url}`,
    or a KeyError when there is none), records every action sent, and holds a click on `held_uid` until it comes
    back with the approval token "tok", as the extension holds a sensitive click."""

    def __init__(self, results: dict[str, dict[str, Any]], *, held_uid: str | None = None,
                 fallback_url: str | None = None) -> None:
        self.results = results
        self.held_uid = held_uid
        self.fallback_url = fallback_url
        self.sent: list[dict[str, Any]] = []

    async def send(self, action: ActionModel, approval: str | None) -> Response:
        wire = action_to_wire(action)
        self.sent.append(wire)
        if self.held_uid is not None and wire.get("uid") == self.held_uid and approval != "tok":
            return Response(id="r", ok=False, error=ErrorBody(
                code=ErrorCode.CONFIRMATION_REQUIRED, message="held", confirmation={
                    "what": "click", "url": self.fallback_url or "", "element": "button “Post”",
                    "reason": "it can post", "token": "tok"}))
        if self.fallback_url is None:
            return Response(id="r", ok=True, result=self.results[wire["type"]])
        return Response(id="r", ok=True, result=self.results.get(wire["type"], {"url": self.fallback_url}))

    def act(self, guard: SafetyGuard, raw: dict[str, Any], task: str = "t") -> Response:
        """One action through the guard, parsed as the edges parse it."""
        return asyncio.run(guard.request(self.send, parse_action(raw), task, None))


def guard_asking(answers: list[Decision] | None = None) -> tuple[SafetyGuard, list[ConfirmationRequest]]:
    """A guard whose person gives `answers` in turn (none given: denies every time), and the list of what it
    was asked."""
    broker = ConfirmationBroker()
    asked: list[ConfirmationRequest] = []

    async def ask(req: ConfirmationRequest, abort: AbortSignal | None = None) -> tuple[Decision, str]:
        asked.append(req)
        return (answers.pop(0) if answers is not None else Decision.DENY), "denied"
    broker.ask = ask  # type: ignore[method-assign]
    return SafetyGuard(broker, lambda task: "", lambda task, tab: None), asked
