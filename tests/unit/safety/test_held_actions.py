"""Asking the person about a held action (app.safety.held_actions): Allow, Allow for this task on this site, Deny;
the two standing allowances apart; the token for the app alone; Stop while asking is `stopped`."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.protocol.actions import parse_action
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.dataflow import Flow
from app.safety.held_actions import HeldActions, held_details, without_token

HELD = {"what": "click", "url": "https://pay.shop.test/checkout", "element": "button “Pay”", "reason": "it can pay",
        "token": "tok"}
CLICK = parse_action({"type": "click", "uid": "e9"})
FLOW = Flow(piece="sk-live-4f9a", source_site="mail.example.com", dest_site="localhost")


def answering(*answers: Decision) -> tuple[HeldActions, list[ConfirmationRequest]]:
    broker = ConfirmationBroker()
    asked: list[ConfirmationRequest] = []
    queue = list(answers)

    async def ask(req: ConfirmationRequest, abort: AbortSignal | None = None) -> tuple[Decision, str]:
        asked.append(req)
        return queue.pop(0), "the person said no"
    broker.ask = ask  # type: ignore[method-assign]
    return HeldActions(broker, lambda task: f"words of {task}"), asked


def held_response() -> Response:
    return Response(id="r7", ok=False, error=ErrorBody(code=ErrorCode.CONFIRMATION_REQUIRED, message="held",
                                                       confirmation=dict(HELD)))


def test_a_held_action_answers_its_token_or_the_refusal() -> None:
    held, asked = answering(Decision.DENY, Decision.ALLOW_ONCE)
    details: Any = held_details(held_response())
    refused = asyncio.run(held.ask_held(CLICK, "t", details, held_response(), None))
    assert isinstance(refused, Response) and refused.id == "r7" and refused.error is not None
    assert refused.error.code == ErrorCode.CONFIRMATION_REQUIRED and "tok" not in str(refused.model_dump())
    assert asyncio.run(held.ask_held(CLICK, "t", details, held_response(), None)) == "tok"
    assert [a.site for a in asked] == ["shop.test"] * 2 and asked[0].task_words == "words of t"
    assert not held.allowed_for_task("t", "shop.test"), "Allow once leaves no standing allowance"


def test_the_two_standing_allowances_are_kept_apart_and_forgotten() -> None:
    held, asked = answering(Decision.ALLOW_TASK_SITE, Decision.ALLOW_TASK_SITE)
    details: Any = held_details(held_response())
    assert asyncio.run(held.ask_held(CLICK, "t", details, held_response(), None)) == "tok"
    assert asyncio.run(held.ask_held(CLICK, "t", details, held_response(), None)) == "tok"
    assert len(asked) == 1 and held.allowed_for_task("t", "shop.test") and not held.flows_allowed("t", "shop.test")
    typing = parse_action({"type": "type", "uid": "e1", "text": "sk-live-4f9a"})
    assert asyncio.run(held.ask_flow(FLOW, typing, "t", "http://localhost/", None)) is None
    assert asked[1].kind == "data_flow" and held.flows_allowed("t", "localhost")
    assert not held.allowed_for_task("t", "localhost"), "a data-flow Allow does not allow held clicks"
    assert asyncio.run(held.ask_flow(FLOW, typing, "t", "http://localhost/", None)) is None and len(asked) == 2
    held.forget("t")
    assert not held.allowed_for_task("t", "shop.test") and not held.flows_allowed("t", "localhost")


def test_stop_while_asked_is_stopped_and_the_token_never_leaves() -> None:
    held, _ = answering(Decision.DENY)
    abort = AbortSignal()
    abort.abort("the person pressed Stop")
    typing = parse_action({"type": "type", "uid": "e1", "text": "x"})
    stopped = asyncio.run(held.ask_flow(FLOW, typing, "t", "http://localhost/", abort))
    assert stopped is not None and stopped.error is not None and stopped.error.code == ErrorCode.STOPPED
    shown = without_token(held_response())
    assert shown.error is not None and shown.error.confirmation is not None
    assert "token" not in shown.error.confirmation and shown.error.page_text == ["button “Pay”", "it can pay"]
    assert held_details(Response(id="r", ok=True, result={})) is None


def test_a_held_control_in_another_sites_frame_is_quoted_as_that_sites() -> None:
    """The extension declares a held control read in a frame of another origin as that frame's (the error's
    `frames`); the refusal that repeats its quotes (in its message and its details) declares each as often as it
    says it, so the memory records them under the frame's site and none under the page's."""
    from app.safety.flow_check import FlowCheck
    code = "PY55120987QZ"
    framed = dict(HELD, element=f"button “Pay {code}”")
    held_error = ErrorBody(code=ErrorCode.CONFIRMATION_REQUIRED, message="held", confirmation=framed,
                           frames=[{"url": "https://pay.shop.test", "text": f"button “Pay {code}”\nit can pay"}])
    response = Response(id="r8", ok=False, error=held_error)
    held, _ = answering(Decision.DENY)
    refused = asyncio.run(held.ask_held(CLICK, "t", framed, response, None))
    assert isinstance(refused, Response) and refused.error is not None
    assert [f["url"] for f in refused.error.frames or []] == ["https://pay.shop.test"]
    for error in (held_error, refused.error):
        check = FlowCheck()
        check.saw_error("t", CLICK, error, "https://mail.example.com/inbox")
        back = parse_action({"type": "navigate", "url": f"https://pay.shop.test/?c={code}"})
        assert check.flow("t", back, "https://mail.example.com/inbox") is None, "the frame's site's own data"
        away = check.flow("t", parse_action({"type": "navigate", "url": f"https://mail.example.com/?c={code}"}), "")
        assert away is not None and away.source_site == "shop.test", (error, away)
