"""A paste types what was copied, wherever it was copied from (app/safety/guard.py, press_key's declared `copied`
result and `keys` carrier), in real Chromium with the real extension and host: copying a key on 127.0.0.1 and
pasting it on localhost asks; pasting it back on 127.0.0.1 does not."""

from __future__ import annotations

from app.safety.confirmations import Decision
from tests.e2e.safety_helpers import Person
from tests.e2e.test_safety_confirm import open_page  # noqa: F401  (the fixture: tests take it by name)

KEY = "sk-copy-7h3k9q2w5e8r"


def value_of(act, task: str, selector: str) -> str:
    response = act({"type": "evaluate", "expression": f"document.querySelector('{selector}').value"}, task_id=task)
    assert response.ok, response.error
    return response.result["value"]


def test_a_paste_on_another_site_asks_and_a_paste_back_on_the_copying_site_does_not(core, act, open_page):
    task = "t-clipboard"
    with Person(core, Decision.DENY) as person:
        open_page("clipboard.html", task)
        assert act({"type": "select_text", "selector": "#key"}, task_id=task).ok
        copied = act({"type": "press_key", "key": "Control+C"}, task_id=task)
        assert copied.ok, copied.error
        assert copied.result["copied"] == KEY, "a copy says what it put on the clipboard"

        open_page("drop.html", task, host="localhost")
        assert act({"type": "click", "selector": "#text"}, task_id=task).ok
        assert act({"type": "press_key", "key": "a"}, task_id=task).ok, "an ordinary key does not ask"
        assert person.asked == []
        pasted = act({"type": "press_key", "key": "Control+V"}, task_id=task)
        assert not pasted.ok and pasted.error.code == "confirmation_required", pasted
        assert pasted.error.confirmation["kind"] == "data_flow"
        assert pasted.error.confirmation["site"] == "localhost"
        assert len(person.asked) == 1 and KEY in person.asked[0]["element"]
        assert value_of(act, task, "#text") == "a", "the paste was never sent"

        open_page("clipboard.html", task)
        assert act({"type": "click", "selector": "#scratch"}, task_id=task).ok
        back = act({"type": "press_key", "key": "Control+V"}, task_id=task)
        assert back.ok, back.error
        assert len(person.asked) == 1, "pasting on the site that showed it does not ask"
        assert value_of(act, task, "#scratch") == KEY, "the paste reached the field"


def test_a_copy_tells_only_the_text_a_person_sees_in_the_selection(core, act, open_page):
    """Selection.toString() holds the selection's hidden text too; press_key's `copied` is what the selection
    shows (the one visibility judgement, extract/page-seen.js), so a copy chord is no way around it."""
    task = "t-clipboard-hidden"
    with Person(core, Decision.DENY):
        open_page("copy-hidden.html", task)
        assert act({"type": "select_text", "selector": "#mix"}, task_id=task).ok
        copied = act({"type": "press_key", "key": "Control+C"}, task_id=task)
        assert copied.ok, copied.error
        text = copied.result["copied"]
        assert text.startswith("Visible start") and "middle" in text and text.endswith("the end."), text
        assert "HIDDEN" not in text, text
        raw = act({"type": "evaluate", "expression": "String(getSelection())"}, task_id=task)
        assert raw.ok and "HIDDEN-OPACITY" in raw.result["value"], "the page's own selection does hold it"


def status(act, task: str) -> str:
    response = act({"type": "evaluate", "expression": "document.getElementById('status').textContent"}, task_id=task)
    assert response.ok, response.error
    return response.result["value"]


def test_a_paste_of_what_the_pages_own_copy_button_wrote_asks_on_another_site(core, act, open_page):
    """The page's Copy button writes the clipboard itself (navigator.clipboard.writeText, execCommand("copy")):
    bua never saw a copy chord, so the paste is judged by what the clipboard holds at paste time (the extension
    reads it, clipboard/clipboard-reader.js), as text typed where it lands."""
    task = "t-clipboard-button"
    with Person(core, Decision.DENY) as person:
        for button, secret in (("#copy-api", "sk-button-4m8n2b6v9c1x"), ("#copy-exec", "sk-exec-5t7y1u3i9o2p")):
            open_page("copy-button.html", task)
            assert act({"type": "extract"}, task_id=task).ok, "the task reads the key on 127.0.0.1"
            assert act({"type": "click", "selector": button}, task_id=task).ok
            assert status(act, task).startswith("copied"), status(act, task)

            open_page("drop.html", task, host="localhost")
            assert act({"type": "click", "selector": "#text"}, task_id=task).ok
            asked = len(person.asked)
            pasted = act({"type": "press_key", "key": "Control+V"}, task_id=task)
            assert not pasted.ok and pasted.error.code == "confirmation_required", (button, pasted)
            assert pasted.error.confirmation["kind"] == "data_flow" and pasted.error.confirmation["site"] == "localhost"
            assert "pasted" not in pasted.error.confirmation, "what the clipboard held is the app's alone"
            assert len(person.asked) == asked + 1 and secret in person.asked[-1]["element"], person.asked
            assert value_of(act, task, "#text") == "", "the paste was never sent"

        open_page("copy-button.html", task)
        assert act({"type": "click", "selector": "#scratch"}, task_id=task).ok
        asked = len(person.asked)
        back = act({"type": "press_key", "key": "Control+V"}, task_id=task)
        assert back.ok, back.error
        assert len(person.asked) == asked, "pasting on the site that showed it does not ask"
        assert value_of(act, task, "#scratch") == "sk-exec-5t7y1u3i9o2p", "the paste reached the field"


def test_a_paste_of_text_no_site_showed_the_task_does_not_ask(core, act, open_page):
    task = "t-clipboard-own"
    with Person(core, Decision.DENY) as person:
        open_page("drop.html", task, host="localhost")
        assert act({"type": "click", "selector": "#text"}, task_id=task).ok
        assert act({"type": "evaluate", "expression": "navigator.clipboard.writeText('see you at noon, Bob')"},
                   task_id=task).ok
        pasted = act({"type": "press_key", "key": "Control+V"}, task_id=task)
        assert pasted.ok, pasted.error
        assert person.asked == []
        assert value_of(act, task, "#text") == "see you at noon, Bob"
