"""The confirmation broker and the guard around a request, with a stand-in extension (the real one is in
tests/e2e/test_safety_confirm.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision, person_confirms


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


def test_the_timeout_is_the_persons_setting(tmp_path) -> None:
    from app.agent.task_board import TaskBoard
    from app.bridge.pool import BrowserBridgePool
    from app.core.safety_wiring import install_safety
    from app.core.sessions import SessionsTable
    from app.safety.confirmations import TIMEOUT_SETTING
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
