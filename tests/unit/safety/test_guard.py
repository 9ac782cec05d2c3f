"""The guard around one request (app.safety.guard), with a stand-in extension: the data-flow check before the
action goes out, a held sensitive action asked about and sent again with its token, what the task saw
remembered, and a forgotten task gone from every part (the real extension: tests/e2e/test_safety_confirm.py).
Actions are parsed as the edges parse them (app.protocol.actions.parse_action) and reach the guard as models."""

from __future__ import annotations

import asyncio
from typing import Any

from app.abort import AbortSignal
from app.protocol.actions import ActionModel, action_to_wire, parse_action
from app.protocol.envelope import ErrorBody, Response
from app.protocol.errors import ErrorCode
from app.safety.confirmations import ConfirmationBroker, ConfirmationRequest, Decision
from app.safety.guard import SafetyGuard
from tests.unit.safety.doubles import RecordingTab, guard_asking

MAIL = "https://mail.example.com/inbox"
NOTES = "http://localhost:9000/notes"
SECRET = "sk-live-4f9a8b7c6d5e"


def Page(results: dict[str, dict[str, Any]]) -> RecordingTab:
    """Answers each action with the result the test gives for its type; holds a click on 'e9'."""
    return RecordingTab(results, held_uid="e9", fallback_url=NOTES)


def run(guard: SafetyGuard, page: RecordingTab, action: dict[str, Any], task: str = "t") -> Response:
    return page.act(guard, action, task)


READS = {  # each read, and a result of it that quotes the secret
    "find": {"url": MAIL, "matches": [{"uid": "e1", "role": "text", "name": "", "text": f"key {SECRET}"}]},
    "select_text": {"url": MAIL, "selected": f"key {SECRET}", "element": "code#key"},
    "extract": {"url": MAIL, "changes": {"summary": "1 added", "markdown": f"+ key {SECRET}"}},
    "page_log": {"url": MAIL, "entries": [{"seq": 1, "level": "log", "text": f"token={SECRET}"}]},
    "read_download": {"url": MAIL, "text": f"key,{SECRET}"},
    "click": {"url": MAIL, "dialog": {"type": "alert", "message": f"Your key is {SECRET}"}},
}


READ_ACTIONS = {
    "find": {"type": "find", "text": "key", "tab_id": 1},
    "select_text": {"type": "select_text", "selector": "code#key", "tab_id": 1},
    "extract": {"type": "extract", "changes": True, "tab_id": 1},
    "page_log": {"type": "page_log", "kind": "console", "tab_id": 1},
    "read_download": {"type": "read_download", "id": 3},
    "click": {"type": "click", "uid": "e1", "tab_id": 1},
}


def test_every_page_derived_string_of_a_result_is_remembered() -> None:
    assert set(READ_ACTIONS) == set(READS)
    for kind, result in READS.items():
        guard, asked = guard_asking([Decision.DENY])
        page = Page({kind: result, "navigate": {"url": NOTES, "tab_id": 1}})
        assert run(guard, page, READ_ACTIONS[kind]).ok, kind
        assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
        refused = run(guard, page, {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1})
        assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED, kind
        assert asked and asked[0].kind == "data_flow", kind


def test_an_error_that_quotes_the_page_is_remembered_too() -> None:
    guard, asked = guard_asking([Decision.DENY])

    async def send(action: ActionModel, approval: str | None) -> Response:
        if action.type_name == "click":
            return Response(id="r", ok=False, error=ErrorBody(code=ErrorCode.NOT_INTERACTABLE,
                                                              message=f'covered by div "key {SECRET}"',
                                                              page_text=[f'div "key {SECRET}"']))
        return Response(id="r", ok=True, result={"url": MAIL if action.type_name == "extract" else NOTES,
                                                         "tab_id": 1})
    for raw in ({"type": "extract", "tab_id": 1}, {"type": "click", "uid": "e1", "tab_id": 1},
                {"type": "navigate", "url": NOTES, "tab_id": 1}):
        asyncio.run(guard.request(send, parse_action(raw), "t", None))
    refused = asyncio.run(guard.request(send, parse_action({"type": "type", "uid": "e2", "text": SECRET,
                                                            "tab_id": 1}), "t", None))
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED


def test_allowing_a_click_on_a_site_does_not_let_data_flow_there() -> None:
    guard, asked = guard_asking([Decision.ALLOW_TASK_SITE, Decision.DENY, Decision.ALLOW_TASK_SITE])
    page = Page({"extract": {"url": MAIL, "markdown": f"key {SECRET}"}, "navigate": {"url": NOTES, "tab_id": 1}})
    assert run(guard, page, {"type": "extract", "tab_id": 1}).ok
    assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    assert run(guard, page, {"type": "click", "uid": "e9", "tab_id": 1}).ok, "the held click, allowed for the site"
    refused = run(guard, page, {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED, "the flow still asks"
    assert [a.kind for a in asked] == ["sensitive", "data_flow"]
    assert run(guard, page, {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1}).ok
    assert run(guard, page, {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1}).ok
    assert len(asked) == 3, "a data-flow Allow for this task on this site covers later flows there"
    assert guard.flows_allowed("t", "localhost") and guard.allowed_for_task("t", "localhost")


def test_a_secret_typed_in_pieces_through_the_guard_asks() -> None:
    guard, asked = guard_asking([Decision.DENY])
    page = Page({"extract": {"url": MAIL, "markdown": "account 7730 1942 8851"},
                 "navigate": {"url": NOTES, "tab_id": 1}})
    assert run(guard, page, {"type": "extract", "tab_id": 1}).ok
    assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    assert run(guard, page, {"type": "type", "uid": "e2", "text": "7730", "tab_id": 1}).ok
    assert run(guard, page, {"type": "press_key", "key": "1", "tab_id": 1}).ok
    refused = run(guard, page, {"type": "type", "uid": "e2", "text": "94", "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED
    assert asked[0].element.startswith("text “7730194")
    assert [a.get("text") or a.get("key") for a in page.sent[2:]] == ["7730", "1"], "the piece that asked was not sent"
    assert run(guard, page, {"type": "press_key", "key": "ArrowLeft", "tab_id": 1}).ok, "a key that types nothing"
    guard2, asked2 = guard_asking([Decision.DENY])
    assert run(guard2, page, {"type": "extract", "tab_id": 1}).ok
    assert run(guard2, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    assert run(guard2, page, {"type": "type", "uid": "e2", "text": "7730 1", "tab_id": 1}).ok
    refused = run(guard2, page, {"type": "press_key", "key": "9", "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED, "the key that completes it asks"
    assert asked2[0].element.startswith("text “773019")


def denying_broker() -> tuple[ConfirmationBroker, list[ConfirmationRequest]]:
    """A broker whose person denies every question, and the questions it was asked."""
    broker = ConfirmationBroker()
    asked: list[ConfirmationRequest] = []

    async def ask(req: ConfirmationRequest, abort: AbortSignal | None = None) -> tuple[Decision, str]:
        asked.append(req)
        return Decision.DENY, "denied"
    broker.ask = ask  # type: ignore[method-assign]
    return broker, asked


def test_a_sessions_table_that_lags_a_navigation_cannot_hide_the_destination() -> None:
    """chrome.tabs (and so the sessions table) can still show the page the secret came from after the navigate to
    another site has answered; the navigate's own URL counts too."""
    broker, asked = denying_broker()
    guard = SafetyGuard(broker, lambda task: "", lambda task, tab: MAIL)  # the table still says: the mail site
    page = Page({"extract": {"url": MAIL, "tab_id": 1, "markdown": f"key {SECRET}"},
                 "navigate": {"url": NOTES, "tab_id": 1}})
    assert run(guard, page, {"type": "extract", "tab_id": 1}).ok
    assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    refused = run(guard, page, {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED
    assert asked and asked[0].kind == "data_flow"
    assert [a["type"] for a in page.sent] == ["extract", "navigate"], "nothing was typed"


def test_pieces_typed_while_the_sessions_table_lags_are_still_joined() -> None:
    """The table still shows the mail page while the pieces are typed on the notes page: each piece's tail is kept
    under every site the tab may be showing, so the piece that completes the number asks."""
    broker, asked = denying_broker()
    shown = {"url": MAIL}
    guard = SafetyGuard(broker, lambda task: "", lambda task, tab: shown["url"])
    page = Page({"extract": {"url": MAIL, "tab_id": 1, "markdown": "account 7730 1942 8851"},
                 "navigate": {"url": NOTES, "tab_id": 1}})
    assert run(guard, page, {"type": "extract", "tab_id": 1}).ok
    assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    assert run(guard, page, {"type": "type", "uid": "e2", "text": "7730 1", "tab_id": 1}).ok, "five digits"
    shown["url"] = NOTES  # the table catches up
    refused = run(guard, page, {"type": "type", "uid": "e2", "text": "9", "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED, "the pieces joined"
    assert asked and asked[0].element.startswith("text “773019")


def test_a_paste_types_what_the_task_copied_wherever_it_was_copied() -> None:
    from app.safety.flows import KeyChord, key_chord, key_text

    assert [key_chord(k) for k in ("Control+C", "Meta+x", "Control+Insert", "Shift+Delete")] == [KeyChord.COPY] * 4
    assert [key_chord(k) for k in ("Control+V", "Meta+v", "ControlOrMeta+V", "Shift+Insert")] == [KeyChord.PASTE] * 4
    assert [key_chord(k) for k in ("v", "Shift+V", "Alt+V", "Enter", "Control+A")] == [None] * 5
    assert key_text("Control+V") == "" and key_text("Control+A") == "" and key_text("Shift+V") == "V"
    guard, asked = guard_asking([Decision.DENY])
    page = Page({"press_key": {"url": MAIL, "pressed": "Control+C", "copied": SECRET},
                 "navigate": {"url": NOTES, "tab_id": 1}})
    assert run(guard, page, {"type": "press_key", "key": "Control+C", "tab_id": 1}).ok
    assert run(guard, page, {"type": "navigate", "url": NOTES, "tab_id": 1}).ok
    page.results["press_key"] = {"url": NOTES, "pressed": "Control+V"}
    refused = run(guard, page, {"type": "press_key", "key": "Control+V", "tab_id": 1})
    assert refused.error and refused.error.code == ErrorCode.CONFIRMATION_REQUIRED
    assert asked and asked[0].kind == "data_flow" and SECRET in asked[0].element


def test_a_forgotten_task_leaves_nothing_behind() -> None:
    """An MCP lane's task never acts again (each connection is a new task id): forgetting it empties every per-task
    map of the guard, so a long-running core does not grow with every reconnect."""
    guard, _ = guard_asking([Decision.ALLOW_TASK_SITE])
    page = Page({"extract": {"url": MAIL, "markdown": f"key {SECRET}", "tab_id": 1},
                 "navigate": {"url": NOTES, "tab_id": 1}, "type": {"url": NOTES, "tab_id": 1}})
    for action in ({"type": "extract", "tab_id": 1}, {"type": "navigate", "url": NOTES, "tab_id": 1},
                   {"type": "type", "uid": "e2", "text": SECRET, "tab_id": 1}):
        assert run(guard, page, action, "mcp-gone").ok
    assert guard.flows_allowed("mcp-gone", "localhost")
    guard.forget("mcp-gone")
    parts = {"flows": guard.flows, "tails": guard.flows._tails, "memory": guard.flows.memory, "held": guard.held,
             "tabs": guard.tabs}
    kept = [f"{part}.{name}" for part, obj in parts.items() for name, value in vars(obj).items()
            if isinstance(value, (dict, set)) and
            any((k == "mcp-gone" or (isinstance(k, tuple) and k[0] == "mcp-gone")) for k in value)]
    assert parts["memory"] is guard.dataflow
    assert not kept, kept
    assert not guard.flows_allowed("mcp-gone", "localhost")
    assert guard.dataflow.check_text("mcp-gone", SECRET, NOTES) is None, "its data-flow memory is gone"


class Extension:
    """Holds clicks on 'e9' until the request carries the token it issued."""

    def __init__(self) -> None:
        self.sent: list[tuple[dict[str, Any], str | None]] = []

    async def send(self, action: ActionModel, approval: str | None) -> Response:
        wire = action_to_wire(action)
        self.sent.append((wire, approval))
        if wire.get("uid") == "e9" and approval != "tok":
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
    denied = asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t", None))
    assert denied.error and denied.error.code == ErrorCode.CONFIRMATION_REQUIRED
    assert "token" not in (denied.error.confirmation or {}) and "denied" in denied.error.message
    assert [a for _, a in ext.sent] == [None], "nothing approved went out"
    allowed = asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t", None))
    assert allowed.ok and [a for _, a in ext.sent] == [None, None, "tok"]
    assert asked[0].site == "shop.test" and asked[0].task_words == "words of t"
    plain = asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e1"}), "t", None))
    assert plain.ok and len(asked) == 2, "a click the extension does not hold asks nobody"


def test_allow_for_this_task_on_this_site_is_remembered_for_that_task_and_site() -> None:
    guard, ext, asked = guarded([Decision.ALLOW_TASK_SITE, Decision.DENY])
    assert asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t", None)).ok
    assert asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t", None)).ok
    assert len(asked) == 1 and guard.allowed_for_task("t", "shop.test")
    other = asyncio.run(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t2", None))
    assert other.error and other.error.code == ErrorCode.CONFIRMATION_REQUIRED and len(asked) == 2


def test_stop_while_the_person_is_asked_answers_stopped_and_sends_nothing() -> None:
    async def scenario() -> tuple[Response, Extension]:
        broker = ConfirmationBroker()
        broker.attach_ui()
        guard, ext = SafetyGuard(broker, lambda task: "", lambda task, tab: None), Extension()
        abort = AbortSignal()
        asking = asyncio.ensure_future(guard.request(ext.send, parse_action({"type": "click", "uid": "e9"}), "t", abort))
        while not broker.pending():
            await asyncio.sleep(0)
        abort.abort("the person pressed Stop")
        return await asking, ext

    response, ext = asyncio.run(scenario())
    assert response.error and response.error.code == ErrorCode.STOPPED and "Stop" in response.error.message
    assert [a for _, a in ext.sent] == [None], "the held action was never approved"
