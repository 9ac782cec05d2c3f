"""The app's half of a request held at the network (extension/src/safety/network-hold.js): while a task's session
lasts on a tab, during its actions and between them, the extension pauses every request of the page that can
change something (and every document request: a navigation or a redirect hop, and a read of any resource type,
an image or a script as well as a fetch, to another host whose URL can carry data) and sends a `request_held` event with what it found on its own (card data, credentials, an endpoint that
pays, orders, deletes, sends, transfers or changes an account, strict mode). One sent between actions has no
action (`action` empty, `between_actions`): it is asked about the same way, through the broker, so the task card,
the popup and the tray show it whether or not an action waits; only no action's result reports it.

Here the request is checked against what only the app knows, the task's data-flow memory (app.safety.dataflow):
its URL and its body (whole, up to the extension's 1 MiB: a longer one the extension holds itself, saying why;
read as sent, form-decoded, and by a JSON body's strings), with the destination being where the REQUEST goes, not the page that sent it. When either
side found something, the person is asked through the same broker and cards as a held action
(app.safety.confirmations; "Allow for this task on this site" is the guard's allowance, app.safety.guard), and the
answer goes back with the `answer_hold` control. Anything else is allowed at once (`asked: false`).

A request of an action the person has just approved by its label (the request came with the approval token, and the
person allowed a held action of this task within APPROVAL_COVERS_S) is not asked again for what the extension found:
the person agreed to what the control said it does. Data flow still asks. A token the app sent without asking (a
field in another site's frame) never counts: only the broker's record of the person's answer does.

A `request_released` event (the extension failed the request itself: Stop, a closed tab, the action cancelled)
withdraws the question.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote_plus

from app.abort import AbortSignal
from app.protocol.envelope import ControlOp, Event, Response
from app.safety.confirmations import ConfirmationRequest, Decision
from app.safety.dataflow import Flow
from app.safety.sites import site_of

if TYPE_CHECKING:
    from app.safety.guard import SafetyGuard

log = logging.getLogger(__name__)

MAX_URL_SHOWN = 200
APPROVAL_COVERS_S = 60.0
"""How long after the person allowed a held action its own requests are covered by that answer."""
BETWEEN_ACTIONS = "Let the page send a request"
"""What a question about a request the page sent between the task's actions asks (the card's title names it)."""
CLOSED_POLL_S = 0.25
"""How often an open question checks that its browser is still connected."""


def body_texts(body: str) -> list[str]:
    """What a request body says, each way it may be written: as sent, form-decoded, and a JSON body's strings one
    per line (so an escaped `\\n` or `\\u00e9` reads as the text it stands for)."""
    if not body:
        return []
    texts = [body, unquote_plus(body)]
    try:
        texts.append("\n".join(_json_strings(json.loads(body))))
    except (ValueError, RecursionError):
        pass
    return list(dict.fromkeys(t for t in texts if t))


def _json_strings(value: object, depth: int = 0) -> list[str]:
    if isinstance(value, str):
        return [value]
    if depth > 16:
        return []
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [s for item in inner for s in _json_strings(item, depth + 1)]


class HoldingBrowser(Protocol):
    """What answering a held request needs of a browser connection (app.bridge's BrowserBridge has it): safety
    sits below the bridge and knows it only by this shape (tests/unit/test_layers.py)."""

    closed: bool
    close_reason: str

    async def control(self, op: ControlOp, args: dict[str, Any] | None = None,
                      timeout: float | None = 5.0) -> Response: ...


class NetworkHolds:
    """Answers the extension's held requests for one core (installed by app.core.safety_wiring)."""

    def __init__(self, guard: "SafetyGuard") -> None:
        self.guard = guard
        self._asking: dict[str, AbortSignal] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sensitive_questions: dict[str, str] = {}
        self._own: set[str] = set()
        """The questions asked here (a held request's answer never covers another request)."""
        self._person_allowed: dict[str, float] = {}
        guard.broker.subscribe(self._on_confirmation)

    def _on_confirmation(self, kind: str, payload: dict[str, Any]) -> None:
        """Which task the person last allowed a held action of, and when (the broker's own record)."""
        if kind == "confirmation_asked" and payload.get("kind") == "sensitive" and payload.get("id") not in self._own:
            self._sensitive_questions[str(payload.get("id"))] = str(payload.get("task_id"))
        elif kind == "confirmation_settled":
            task_id = self._sensitive_questions.pop(str(payload.get("id")), None)
            if task_id is not None and payload.get("decision") in (Decision.ALLOW_ONCE, Decision.ALLOW_TASK_SITE):
                self._person_allowed[task_id] = time.monotonic()

    def _approved_by_person(self, task_id: str, data: dict[str, Any]) -> bool:
        allowed = self._person_allowed.get(task_id)
        return data.get("approved") is True and allowed is not None and time.monotonic() - allowed <= APPROVAL_COVERS_S

    def on_event(self, bridge: HoldingBrowser, event: Event) -> None:
        """A pool listener: `request_held` is decided (in its own asyncio task), `request_released` withdrawn."""
        if event.type == "request_held":
            task = asyncio.ensure_future(self._answer(bridge, event.data))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        elif event.type == "request_released":
            signal = self._asking.get(str(event.data.get("hold_id")))
            if signal is not None:
                signal.abort(str(event.data.get("reason") or "the request was released"))

    async def _answer(self, bridge: HoldingBrowser, data: dict[str, Any]) -> None:
        hold_id = str(data.get("hold_id") or "")
        watch = asyncio.ensure_future(self._withdraw_if_closed(bridge, hold_id))
        try:
            decision, asked, why = await self.decide(data)
        except Exception:  # a broken check must not leave the page's request paused: it is refused
            log.exception("deciding a held request failed")
            decision, asked, why = Decision.DENY, False, ["bua could not check this request"]
        finally:
            watch.cancel()
        if bridge.closed:
            return  # the extension failed the request itself when its port closed
        answer = {"hold_id": hold_id, "decision": "deny" if decision == Decision.DENY else "allow",
                  "asked": asked, "why": why}
        response = await bridge.control("answer_hold", answer)
        if not response.ok:
            log.warning("could not answer held request %s: %s", hold_id, response.error)

    async def _withdraw_if_closed(self, bridge: HoldingBrowser, hold_id: str) -> None:
        """The browser went away (its host died, Chromium quit): nobody can be answered, the question goes."""
        while not bridge.closed:
            await asyncio.sleep(CLOSED_POLL_S)
        signal = self._asking.get(hold_id)
        if signal is not None:
            signal.abort(f"the browser connection closed ({bridge.close_reason or 'host exited'})")

    async def decide(self, data: dict[str, Any]) -> tuple[Decision, bool, list[str]]:
        """(decision, whether the person was asked, why) for one held request."""
        task_id = str(data.get("task_id") or "")
        url = str(data.get("url") or "")
        body = str(data.get("body") or "")
        why = [str(w) for w in data.get("why") or [] if str(w)]
        site = site_of(url)
        flow = self._flow(task_id, url, body)
        sensitive = bool(why) and not self.guard.allowed_for_task(task_id, site) \
            and not self._approved_by_person(task_id, data)
        if flow is None and not sensitive:
            return Decision.ALLOW_ONCE, False, []
        if flow is not None:
            why.append(flow.why or f"it carries “{flow.sample()}”, which {flow.source_site} showed, to {flow.dest_site}")
        method = str(data.get("method") or "GET")
        shown = url if len(url) <= MAX_URL_SHOWN else f"{url[:MAX_URL_SHOWN - 1]}…"
        action = str(data.get("action") or "")
        element = f"the page's {method} request to {shown}"
        if not action:  # the page sent it on its own, between the task's actions: no action waits for the answer
            element += ", sent on its own between the task's actions"
        request = ConfirmationRequest(
            id=self.guard.broker.new_id(), task_id=task_id, what=action or BETWEEN_ACTIONS, site=site,
            url=url, element=element, reason="; ".join(why),
            task_words=self.guard.task_words(task_id), kind="data_flow" if flow is not None and not sensitive else "sensitive")
        hold_id = str(data.get("hold_id") or "")
        signal = self._asking[hold_id] = AbortSignal()
        self._own.add(request.id)
        try:
            decision, refused = await self.guard.broker.ask(request, signal)
        finally:
            self._asking.pop(hold_id, None)
            self._own.discard(request.id)
        if decision == Decision.DENY:
            return decision, True, [*why, refused] if refused else why
        if decision == Decision.ALLOW_TASK_SITE:
            self.guard.allow_task_site(task_id, site, sensitive=sensitive, data_flow=flow is not None)
        return decision, True, why

    def _flow(self, task_id: str, url: str, body: str) -> Flow | None:
        """Data another site showed this task, carried in the request's URL or body to the URL's site."""
        flow = self.guard.dataflow.check_url(task_id, url)
        for text in body_texts(body):
            flow = flow or self.guard.dataflow.check_text(task_id, text, url)
        if flow is not None and self.guard.flows_allowed(task_id, flow.dest_site):
            return None
        return flow
