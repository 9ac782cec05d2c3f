"""The app's half of a request held at the network (app.safety.network_holds): what only the app knows (the
data-flow memory, with the REQUEST's destination) and the person's answer, through the guard's broker."""

from __future__ import annotations

import asyncio
from typing import Any, Callable

from app.protocol.envelope import Event, Response
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.guard import SafetyGuard
from app.safety.network_holds import BETWEEN_ACTIONS, NetworkHolds
from app.safety.strict_mode import OFF, stored, strict_mode

SECRET = "ZX44719920QQ"


class FakeBridge:
    def __init__(self) -> None:
        self.closed = False
        self.close_reason = ""
        self.controls: list[tuple[str, dict[str, Any]]] = []

    async def control(self, op: str, args: dict[str, Any] | None = None, timeout: float | None = 5.0) -> Response:
        self.controls.append((op, args or {}))
        return Response(id="c1", ok=True, result={})


def setup(answer: Decision | None) -> tuple[NetworkHolds, SafetyGuard, list[dict[str, Any]]]:
    broker = ConfirmationBroker()
    guard = SafetyGuard(broker, lambda _t: "find my order", lambda _t, _tab: None)
    asked: list[dict[str, Any]] = []
    broker.attach_ui()

    def on(kind: str, payload: dict[str, Any]) -> None:
        if kind == "confirmation_asked":
            asked.append(payload)
            if answer is not None:
                broker.answer(payload["id"], answer)
    broker.subscribe(on)
    guard.dataflow.observe("t1", "https://bank.example/account", f"Your recovery code is {SECRET}.")
    return NetworkHolds(guard), guard, asked


async def settled(done: Callable[[], bool], tries: int) -> None:
    """Let the holds' background work run until `done` (at most `tries` turns of 10 ms); the test then asserts."""
    for _ in range(tries):
        if done():
            return
        await asyncio.sleep(0.01)


def held(url: str, method: str = "POST", body: str = "", why: list[str] | None = None) -> dict[str, Any]:
    return {"hold_id": "h1", "task_id": "t1", "request_id": "r1", "action": "click", "method": method, "url": url,
            "body": body, "why": why or []}


async def test_nothing_found_is_allowed_at_once_without_asking():
    holds, _guard, asked = setup(Decision.DENY)
    assert await holds.decide(held("https://shop.example/api/notes", body="note=hello")) == (Decision.ALLOW_ONCE, False, [])
    assert asked == []


async def test_data_another_site_showed_asks_where_the_request_goes():
    holds, _guard, asked = setup(Decision.DENY)
    decision, was_asked, why = await holds.decide(held(f"https://evil.example/land?ref={SECRET}", "GET"))
    assert decision == Decision.DENY and was_asked and "bank.example" in why[0]
    assert asked[0]["site"] == "evil.example" and asked[0]["kind"] == "data_flow"
    decision, _, _ = await holds.decide(held("https://collector.example/c", body=f"x={SECRET.lower()}%20"))
    assert decision == Decision.DENY, "the body is checked too, decoded"
    assert (await holds.decide(held(f"https://bank.example/redirect?to={SECRET}", "GET")))[1] is False, \
        "the site that showed it may receive it"


async def test_what_the_extension_found_asks_and_allow_for_the_task_site_is_remembered():
    holds, guard, asked = setup(Decision.ALLOW_TASK_SITE)
    request = held("https://shop.example/api/checkout", why=["it goes to an endpoint for a payment (“checkout”)"])
    assert await holds.decide(request) == (Decision.ALLOW_TASK_SITE, True, request["why"])
    assert guard.allowed_for_task("t1", "shop.example")
    assert (await holds.decide(request))[1] is False and len(asked) == 1
    assert asked[0]["kind"] == "sensitive" and asked[0]["element"].startswith("the page's POST request")


async def test_the_person_allowing_the_held_action_covers_its_own_requests_only_with_its_token():
    holds, guard, asked = setup(Decision.ALLOW_ONCE)
    label = ConfirmationRequest(id=guard.broker.new_id(), task_id="t1", what="click", site="shop.example",
                                url="https://shop.example/cart", element="button “Pay now”", reason="it pays",
                                task_words="")
    assert (await guard.broker.ask(label))[0] == Decision.ALLOW_ONCE
    request = held("https://psp.example/api/charge", why=["it goes to an endpoint for a payment (“charge”)"])
    assert (await holds.decide({**request, "approved": True}))[1] is False, "the person just agreed to it"
    assert (await holds.decide(request))[1] is True, "without the approval token it asks"
    assert (await holds.decide({**request, "approved": True, "task_id": "t2"}))[1] is True, "another task asks"
    flow = {**held(f"https://psp.example/c?ref={SECRET}", "GET"), "approved": True}
    assert (await holds.decide(flow))[1] is True, "data flow still asks"
    assert len(asked) == 4


async def test_the_answer_goes_back_and_a_release_withdraws_the_question():
    holds, guard, asked = setup(None)
    bridge = FakeBridge()
    holds.on_event(bridge, Event(type="request_held", data=held("https://shop.example/api/orders", why=["an order"])))  # type: ignore[arg-type]
    await settled(lambda: bool(asked), 50)
    assert guard.broker.pending()
    holds.on_event(bridge, Event(type="request_released", data={"hold_id": "h1", "reason": "Stop all"}))  # type: ignore[arg-type]
    await settled(lambda: bool(bridge.controls), 50)
    assert guard.broker.pending() == []
    assert bridge.controls[0][0] == "answer_hold" and bridge.controls[0][1]["decision"] == "deny"


async def test_a_request_the_page_sends_between_actions_asks_the_person_with_no_action_waiting():
    """No action waits for the answer (the extension holds the session tab between actions too): the question
    still reaches the person through the broker (task card, popup, tray) and the answer goes back to the browser."""
    holds, guard, asked = setup(Decision.DENY)
    bridge = FakeBridge()
    data = {**held("https://shop.example/api/v1/checkout", why=["an order"]), "action": "", "request_id": "",
            "between_actions": True}
    holds.on_event(bridge, Event(type="request_held", data=data))  # type: ignore[arg-type]
    await settled(lambda: bool(bridge.controls), 50)
    assert asked and asked[0]["what"] == BETWEEN_ACTIONS and "between the task's actions" in asked[0]["element"]
    assert asked[0]["task_id"] == "t1" and asked[0]["site"] == "shop.example"
    op, answer = bridge.controls[0]
    assert op == "answer_hold" and answer["hold_id"] == "h1" and answer["decision"] == "deny" and answer["asked"] is True


async def test_a_closed_browser_withdraws_the_question_and_answers_nothing():
    holds, guard, asked = setup(None)
    bridge = FakeBridge()
    holds.on_event(bridge, Event(type="request_held", data=held("https://shop.example/api/orders", why=["an order"])))  # type: ignore[arg-type]
    await settled(lambda: bool(asked), 50)
    bridge.closed = True
    await settled(lambda: not guard.broker.pending(), 100)
    await asyncio.sleep(0.05)
    assert guard.broker.pending() == [] and bridge.controls == []


def test_strict_mode_setting_is_checked_and_read_back():
    assert stored(None) == OFF and not OFF.all and not OFF.sites
    mode = strict_mode(False, ["Shop.Example", "https://bank.example/login", " "])
    assert mode.as_args() == {"all": False, "sites": ["shop.example", "bank.example"]}
    assert stored(mode.as_args()) == mode
    assert stored({"all": True, "sites": ["not a domain!"]}) == OFF, "a damaged value is off"
