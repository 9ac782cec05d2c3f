"""Issue 22's done-when, in Python: an action added with one declaration (here a throwaway, registered for the test
only) whose field types text and whose result carries page text goes from an edge (`bua act`'s op) through the
pool, the file hooks, the safety guard and the bridge to the real native host and a stand-in extension on its
stdio, with no other edit: parsed once at the edge (a bad field answers invalid_action naming it), serialised
once in its envelope, its result's page text remembered, and its typing data-flow checked (the real extension
and Chromium: tests/e2e/)."""

from __future__ import annotations

import asyncio
import threading
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from app.abort import AbortSignal
from app.agent.tools.browser_result import model_view
from app.bridge.pool import BrowserBridgePool
from app.core.cli_service import OPS
from app.protocol.actions.fields import Target
from app.protocol.actions.registry import throwaway_action
from app.protocol.actions.shapes import OWN, PAGE, TAB
from app.protocol.actions.spec import ActionSpec, Carries
from tests.harness.core_thread import CoreThread
from tests.unit.native_host.test_relay import HostProcess, connect

MAIL = "https://mail.example.com/inbox"
NOTES = "http://localhost:9000/notes"
SECRET = "sk-live-4f9a8b7c6d5e"


class Dictate(Target):
    """Types dictated words into a field and answers what the page showed back: both halves of the done-when."""

    type: Literal["dictate_pipeline_probe"]
    words: Annotated[str, Field(min_length=1, max_length=1_000), Carries.TYPED_TEXT]
    spell: bool = False
    spec = ActionSpec(guide="type dictated words", done=lambda raw, result: "Dictated", failed="dictate into",
                      needs_input_focus=True, result={**TAB, "heard": PAGE, "typed_into": OWN})


class StandInExtension:
    """Answers each request the host relays as the test scripts it, and every control with ok."""

    def __init__(self, host: HostProcess, answers: dict[str, dict[str, Any]]) -> None:
        self.host, self.answers = host, answers
        self.actions: list[dict[str, Any]] = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            try:
                frame = self.host.read()
            except (AssertionError, OSError, ValueError):
                return
            result: dict[str, Any] = {}
            if frame.get("kind") == "request":
                self.actions.append(frame["action"])
                result = self.answers[frame["action"]["type"]]
            self.host.send({"v": 1, "kind": "response", "id": frame["id"], "ok": True, "result": result})


def act(core: CoreThread, raw: Any) -> dict[str, Any]:
    """`bua act`'s op on the core, as the CLI service runs it for a client."""
    answer = core.call(OPS["act"](core.core, {"action": raw, "task_id": "t-dictate"}, AbortSignal(),
                                  lambda kind, data: None))
    return answer["response"]


def test_a_new_action_goes_typed_from_the_edge_to_the_wire_and_is_data_flow_checked(tmp_path) -> None:
    core = CoreThread(tmp_path / "home", request_timeout=10)
    host = HostProcess(core.home)
    try:
        connect(core, host)
        with throwaway_action(Dictate) as name:
            extension = StandInExtension(host, {
                name: {"tab_id": 1, "url": MAIL, "typed_into": "textarea#reply", "heard": f"Your key is {SECRET}"},
                "navigate": {"tab_id": 1, "url": NOTES, "title": "Notes"}})

            bad = act(core, {"type": name, "uid": "e2", "words": "", "tab_id": 1})
            assert bad["error"]["code"] == "invalid_action" and "words" in bad["error"]["message"], bad
            unknown = act(core, {"type": name, "uid": "e2", "words": "hi", "colour": "red"})
            assert "unknown field 'colour'" in unknown["error"]["message"]
            assert extension.actions == [], "an invalid action is answered at the edge and never sent"

            read = act(core, {"type": name, "uid": "e2", "words": "hello", "tab_id": 1})
            assert read["ok"], read
            assert extension.actions == [{"type": name, "uid": "e2", "words": "hello", "spell": False, "tab_id": 1}], \
                "serialised once, at the wire: its declared default filled in, fields left out dropped"
            shown = model_view({"ok": True, "action": name, "result": read["result"]}, "T1")
            assert shown.page["heard"] == f"Your key is {SECRET}" and "heard" not in shown.facts.get("result", {}), \
                "the model reads its page text inside the boundary"
            assert shown.facts["result"]["typed_into"] == "textarea#reply", "bua's own words as they are"

            assert act(core, {"type": "navigate", "url": NOTES, "tab_id": 1})["ok"]
            refused = act(core, {"type": name, "uid": "e2", "words": f"my key: {SECRET}", "tab_id": 1})
            assert refused["error"]["code"] == "confirmation_required", refused
            assert refused["error"]["confirmation"]["kind"] == "data_flow" and \
                refused["error"]["confirmation"]["site"] == "localhost"
            assert [a["type"] for a in extension.actions] == [name, "navigate"], \
                "what the mail site showed was not typed into the notes site"
            assert act(core, {"type": name, "uid": "e2", "words": "see you at noon", "tab_id": 1})["ok"], \
                "ordinary words go"
    finally:
        host.close()
        core.stop()


def test_the_pool_takes_only_a_parsed_action() -> None:
    with pytest.raises(TypeError, match="parse_action"):
        asyncio.run(BrowserBridgePool().request({"type": "get_tabs"}, "t"))  # type: ignore[arg-type]
