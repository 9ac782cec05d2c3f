"""Older browser outputs shrink as each action declares (ActionSpec.cut_when_superseded), never by its name: a
throwaway read declared so is cut like extract, its own words and URLs are kept, and an action not declared so
keeps its whole result."""

from __future__ import annotations

from typing import Literal

from app.agent.tools.base import Image, ToolOutput
from app.agent.tools.browser_compact import OLD_RESULT_CHARS, SCREENSHOT_PLACEHOLDER, compact
from app.protocol.actions.fields import OnTab
from app.protocol.actions.registry import throwaway_action
from app.protocol.actions.shapes import OWN, PAGE, URL
from app.protocol.actions.spec import ActionSpec

LONG = "word " * 400


class ReadNotes(OnTab):
    type: Literal["read_notes_probe"]
    spec = ActionSpec(guide="read the page's notes", done=lambda raw, result: "Read the notes", failed="read notes",
                      read_only=True, cut_when_superseded=True, result={"notes": PAGE, "note": OWN, "url": URL})


class CountNotes(OnTab):
    type: Literal["count_notes_probe"]
    spec = ActionSpec(guide="count the notes", done=lambda raw, result: "Counted", failed="count notes",
                      read_only=True, result={"notes": PAGE})


def output(name: str, result: dict[str, object]) -> ToolOutput:
    return ToolOutput({"ok": True, "action": name, "result": result})


def test_a_superseded_read_is_cut_where_its_declaration_says_page_text() -> None:
    with throwaway_action(ReadNotes) as name:
        result = {"notes": LONG, "extra": LONG, "note": LONG, "url": "https://a.example/" + "p" * 700}
        cut = compact({"type": name}, output(name, result)).data["result"]
    assert cut["notes"].startswith(LONG[:OLD_RESULT_CHARS]) and f"older {name} cut; {len(LONG)} chars" in cut["notes"]
    assert len(cut["extra"]) < len(LONG), "an undeclared key is page text, cut too"
    assert cut["note"] == LONG and cut["url"] == result["url"], "bua's own words and URLs are kept"
    assert result["notes"] == LONG, "the recorded output itself is not changed"


def test_an_action_not_declared_so_keeps_its_result_and_screenshots_go_for_any() -> None:
    with throwaway_action(CountNotes) as name:
        assert compact({"type": name}, output(name, {"notes": LONG})).data["result"]["notes"] == LONG
        shot = ToolOutput({"ok": True, "action": name, "result": {"image": "attached below"}}, [Image("image/png", "AA")])
        older = compact({"type": name}, shot)
    assert older.images == [] and older.data["result"]["image"] == SCREENSHOT_PLACEHOLDER
    extract = compact({"type": "extract"}, output("extract", {"markdown": LONG, "title": "T"})).data["result"]
    assert "older extract cut" in extract["markdown"], "extract declares it"
