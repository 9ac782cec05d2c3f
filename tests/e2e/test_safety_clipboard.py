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
