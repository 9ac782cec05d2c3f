"""Milestone lines read as sentences for the person, from the shapes the extension really returns."""

from __future__ import annotations

from app.agent.tools.base import ToolOutput
from app.agent.tools.browser_milestone import milestone_line


def ok(result: dict) -> ToolOutput:
    return ToolOutput({"ok": True, "action": "x", "result": result})


def failed(code: str, message: str) -> ToolOutput:
    return ToolOutput({"ok": False, "error": {"code": code, "message": message}}, is_error=True)


def test_steps_read_as_sentences():
    quiet = {"navigated": False, "new_tabs": [], "dom_mutations": 0, "nothing_changed": True}
    moved = {"navigated": True, "url": "http://127.0.0.1/c/2", "new_tabs": [], "dom_mutations": 0,
             "nothing_changed": False}
    assert milestone_line({"type": "navigate", "url": "http://127.0.0.1/"},
                          ok({"tab_id": 1, "url": "http://127.0.0.1/", "title": "Candidates"})) == "Opened Candidates"
    assert milestone_line({"type": "click", "uid": "e4"}, ok({"clicked": 'button.view "View"', "effects": moved})) \
        == "Clicked “View” — went to http://127.0.0.1/c/2"
    assert milestone_line({"type": "click", "uid": "e4"}, ok({"clicked": "button.go", "effects": quiet})) \
        == "Clicked an element — nothing changed"
    assert milestone_line({"type": "type", "uid": "e9", "text": "secret"},
                          ok({"typed_into": 'input#q "Search"', "effects": {**quiet, "nothing_changed": False}})) \
        == "Typed into “Search”"
    assert milestone_line({"type": "wait_for", "selector": "#panel[aria-hidden='false']", "state": "visible"},
                          ok({"state": "visible", "seen": "visible", "elapsed_ms": 300})) \
        == "Waited for the panel to be visible"
    assert milestone_line({"type": "wait_for", "text": "Saved"}, ok({})) == "Waited for the text “Saved” to be visible"
    assert milestone_line({"type": "extract"}, ok({"title": "Jane Doe", "markdown": "…"})) == "Read Jane Doe"
    assert milestone_line({"type": "scroll", "direction": "down"}, ok({})) == "Scrolled down"


def test_failures_say_what_could_not_be_done_and_why_in_short():
    line = milestone_line({"type": "click", "uid": "e4"},
                          failed("element_stale", "e4 is stale: the element was removed; call extract again"))
    assert line == "Could not click an element: e4 is stale: the element was removed"
    assert milestone_line({"type": "wait_for", "text": "Done"}, failed("timeout", "waited 5000 ms; last seen: x")) \
        == "Could not see the text “Done”: waited 5000 ms"
    assert milestone_line({"type": "navigate", "url": "https://bank.example/"}, failed("blocked", "on the blocklist")) \
        == "Could not open https://bank.example/: on the blocklist"


def test_a_click_s_download_is_named_and_one_bua_stopped_says_so():
    quiet = {"navigated": False, "new_tabs": [], "dom_mutations": 0, "nothing_changed": False}
    stopped = {**quiet, "download": {"id": 3, "filename": "setup.exe", "state": "interrupted", "stopped": True,
                                     "executable": True, "error": "stopped by bua: …"}}
    assert milestone_line({"type": "click", "uid": "e4"}, ok({"clicked": 'a "Get the tool"', "effects": stopped})) \
        == "Clicked “Get the tool” — bua stopped the download of setup.exe: an executable the person did not approve"
    done = {**quiet, "download": {"id": 4, "filename": "people.csv", "state": "complete"}}
    assert milestone_line({"type": "click", "uid": "e5"}, ok({"clicked": 'a "People"', "effects": done})) \
        == "Clicked “People” — downloaded people.csv"
    failed_download = {**quiet, "download": {"id": 5, "filename": "big.zip", "state": "interrupted",
                                             "error": "NETWORK_FAILED"}}
    assert milestone_line({"type": "click", "uid": "e6"}, ok({"clicked": 'a "Zip"', "effects": failed_download})) \
        == "Clicked “Zip”"
