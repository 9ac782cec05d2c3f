"""The confirmation broker and the guard around a request, with a stand-in extension (the real one is in
tests/e2e/test_safety_confirm.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision, person_confirms
from app.safety.guard import SafetyGuard


def request(task_id: str = "t") -> ConfirmationRequest:
    return ConfirmationRequest(id="q1", task_id=task_id, what="click", site="shop.test", url="https://shop.test/",
                               element="button “Pay now”", reason="it can pay", task_words="buy a teapot")


def test_no_window_denies_at_once_and_bua_act_decides_by_its_flag() -> None:
    broker = ConfirmationBroker()
    decision, why = asyncio.run(broker.ask(request()))
    assert decision == Decision.DENY and "no bua window" in why

    async def act(confirm: bool) -> tuple[Decision, str]:
        person_confirms.set(confirm)
        return await broker.ask(request())
    assert asyncio.run(act(True))[0] == Decision.ALLOW_ONCE
    assert "--confirm" in asyncio.run(act(False))[1]


def test_a_window_answers_times_out_or_is_stopped() -> None:
    async def scenario() -> list[Any]:
        broker = ConfirmationBroker(timeout_s=lambda: 0.2)
        broker.attach_ui()
        seen: list[tuple[str, dict[str, Any]]] = []
        broker.subscribe(lambda kind, payload: seen.append((kind, payload)))
        asking = asyncio.ensure_future(broker.ask(request()))
        await asyncio.sleep(0)
        assert [r.id for r in broker.pending()] == ["q1"]
        assert broker.answer("q1", "allow_task_site") and not broker.answer("q1", "deny")
        answered = await asking
        timed_out = await broker.ask(request())
        abort = AbortSignal()
        stopping = asyncio.ensure_future(broker.ask(request(), abort))
        await asyncio.sleep(0)
        abort.abort("the person pressed Stop")
        stopped = await stopping
        outcomes = [payload["decision"] for kind, payload in seen if kind == "confirmation_settled"]
        assert outcomes == ["allow_task_site", "timeout", "stopped"], "the windows say how each one ended"
        return [answered, timed_out, stopped, [kind for kind, _ in seen], seen[0][1]["task_words"]]

    answered, timed_out, stopped, kinds, words = asyncio.run(scenario())
    assert answered == (Decision.ALLOW_TASK_SITE, "")
    assert timed_out[0] == Decision.DENY and "did not answer within 0.2 s" in timed_out[1]
    assert stopped == (Decision.DENY, "the person pressed Stop")
    assert kinds == ["confirmation_asked", "confirmation_settled"] * 3 and words == "buy a teapot"


class Extension:
    """Holds clicks on 'e9' until the request carries the token it issued."""

    def __init__(self) -> None:
        self.sent: list[tuple[dict[str, Any], str | None]] = []

    async def send(self, action: Any, approval: str | None) -> Response:
        self.sent.append((action, approval))
        if action.get("uid") == "e9" and approval != "tok":
            return Response(id="r1", ok=False, error=ErrorBody(
                code=ErrorCode.CONFIRMATION_REQUIRED, message="held", confirmation={
                    "what": "click", "url": "https://pay.shop.test/checkout", "element": "button “Pay”",
                    "reason": "it can pay", "token": "tok"}))
        return Response(id="r1", ok=True, result={"url": "https://pay.shop.test/checkout", "markdown": "done"})


def guarded(answers: list[Decision]) -> tuple[SafetyGuard, Extension, list[ConfirmationRequest]]:
    broker = ConfirmationBroker()
    asked: list[ConfirmationRequest] = []

    async def ask(req: ConfirmationRequest, abort: AbortSignal | None = None) -> tuple[Decision, str]:
        asked.append(req)
        decision = answers.pop(0)
        return decision, "the person denied it" if decision == Decision.DENY else ""
    broker.ask = ask  # type: ignore[method-assign]
    return SafetyGuard(broker, lambda task: f"words of {task}", lambda task, tab: None), Extension(), asked


def test_the_guard_resends_with_the_token_only_on_allow_and_never_shows_it() -> None:
    guard, ext, asked = guarded([Decision.DENY, Decision.ALLOW_ONCE])
    denied = asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t", None))
    assert denied.error and denied.error.code == ErrorCode.CONFIRMATION_REQUIRED
    assert "token" not in (denied.error.confirmation or {}) and "denied" in denied.error.message
    assert [a for _, a in ext.sent] == [None], "nothing approved went out"
    allowed = asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t", None))
    assert allowed.ok and [a for _, a in ext.sent] == [None, None, "tok"]
    assert asked[0].site == "shop.test" and asked[0].task_words == "words of t"
    plain = asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e1"}, "t", None))
    assert plain.ok and len(asked) == 2, "a click the extension does not hold asks nobody"


def test_allow_for_this_task_on_this_site_is_remembered_for_that_task_and_site() -> None:
    guard, ext, asked = guarded([Decision.ALLOW_TASK_SITE, Decision.DENY])
    assert asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t", None)).ok
    assert asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t", None)).ok
    assert len(asked) == 1 and guard.allowed_for_task("t", "shop.test")
    other = asyncio.run(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t2", None))
    assert other.error and other.error.code == ErrorCode.CONFIRMATION_REQUIRED and len(asked) == 2


def test_the_timeout_is_the_persons_setting(tmp_path) -> None:
    from app.agent.task_board import TaskBoard
    from app.bridge.pool import BrowserBridgePool
    from app.core.sessions import SessionsTable
    from app.safety.install import TIMEOUT_SETTING, install_safety
    from app.store.db import Store

    store = Store(tmp_path)
    try:
        store.set_setting(TIMEOUT_SETTING, 0.05)
        pool = BrowserBridgePool()
        broker = install_safety(pool, TaskBoard(), SessionsTable(), store)
        assert pool.safety is not None and pool.safety.broker is broker
        broker.attach_ui()
        decision, why = asyncio.run(broker.ask(request()))
        assert decision == Decision.DENY and "within 0.05 s" in why
    finally:
        store.close()


def test_stop_while_the_person_is_asked_answers_stopped_and_sends_nothing() -> None:
    async def scenario() -> tuple[Response, Extension]:
        broker = ConfirmationBroker()
        broker.attach_ui()
        guard, ext = SafetyGuard(broker, lambda task: "", lambda task, tab: None), Extension()
        abort = AbortSignal()
        asking = asyncio.ensure_future(guard.request(ext.send, {"type": "click", "uid": "e9"}, "t", abort))
        while not broker.pending():
            await asyncio.sleep(0)
        abort.abort("the person pressed Stop")
        return await asking, ext

    response, ext = asyncio.run(scenario())
    assert response.error and response.error.code == ErrorCode.STOPPED and "Stop" in response.error.message
    assert [a for _, a in ext.sent] == [None], "the held action was never approved"
