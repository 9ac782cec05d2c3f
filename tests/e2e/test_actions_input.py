"""type and press_key through the whole pipe on real pages (tests/fixtures/pages/actions)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.actions_helpers import evaluate, page  # noqa: F401 (fixture)


def events(send) -> list[str]:
    return json.loads(evaluate(send, "document.querySelector('#log').dataset.events || '[]'"))


def test_type_with_clear_replaces_and_fires_input_then_change_on_commit(page):
    send = page("form.html", "t-type-clear")
    response = send({"type": "type", "selector": "#name", "text": "Ada Lovelace", "clear": True})
    assert response.ok, response.error
    assert response.result["value"] == "Ada Lovelace"
    assert response.result["typed_into"] == 'input#name "Name"'  # its visible <label>
    assert response.result["effects"]["nothing_changed"] is False
    assert events(send) == ["input:name"], "the change event waits for the commit, as for a person"
    assert send({"type": "press_key", "key": "Tab"}).ok
    assert events(send) == ["input:name", "change:name"]


def test_type_appends_without_clear_and_works_in_textarea_and_contenteditable(page):
    send = page("form.html", "t-type-append")
    assert send({"type": "type", "selector": "#name", "text": " more"}).result["value"] == "Old value more"
    notes = send({"type": "type", "selector": "#notes", "text": "\nsecond line"}).result
    assert notes["value"] == "first line\nsecond line"
    editor = send({"type": "type", "selector": "#editor", "text": " world"})
    assert editor.ok, editor.error
    assert editor.result["value"] == "Hello world"
    assert "input:editor" in events(send)
    cleared = send({"type": "type", "selector": "#editor", "text": "", "clear": True}).result
    assert cleared["value"] == ""


def test_type_into_a_wrapper_types_into_its_field_and_passwords_are_not_echoed(page):
    send = page("form.html", "t-type-wrapper")
    assert send({"type": "type", "selector": "#wrapper", "text": "query"}).result["value"] == "query"
    assert evaluate(send, "document.querySelector('#inner').value") == "query"
    secret = send({"type": "type", "selector": "#password", "text": "hunter2"}).result
    assert "value" not in secret and secret["value_length"] == 7


def test_type_chooses_a_select_option_by_label_or_value(page):
    send = page("form.html", "t-select")
    chosen = send({"type": "type", "selector": "#country", "text": "France"})
    assert chosen.ok, chosen.error
    assert chosen.result["selected"] == "France" and chosen.result["value"] == "fr"
    assert events(send)[-2:] == ["input:country", "change:country"]
    assert send({"type": "type", "selector": "#country", "text": "de"}).result["selected"] == "Germany"
    missing = send({"type": "type", "selector": "#country", "text": "Spain"})
    assert missing.error.code == "element_not_found"
    assert '"Germany", "France", "Japan"' in missing.error.message
    disabled = send({"type": "type", "selector": "#country", "text": "Japan"})
    assert disabled.error.code == "element_not_found" and "disabled" in disabled.error.message


def test_type_sets_a_date_and_explains_the_format(page):
    send = page("form.html", "t-date")
    assert send({"type": "type", "selector": "#when", "text": "2024-05-06"}).result["value"] == "2024-05-06"
    assert events(send)[-2:] == ["input:when", "change:when"]
    wrong = send({"type": "type", "selector": "#when", "text": "next tuesday"})
    assert wrong.error.code == "invalid_action" and "YYYY-MM-DD" in wrong.error.message


@pytest.mark.parametrize("selector, expected", [
    ("#agree", "use click"),
    ("#locked", "read-only"),
    ("#off", "disabled"),
    ("h1", "not a text field"),
])
def test_fields_that_take_no_text_are_not_interactable(page, selector, expected):
    send = page("form.html", "t-no-text")
    response = send({"type": "type", "selector": selector, "text": "x"})
    assert response.error.code == "not_interactable"
    assert expected in response.error.message


def test_type_with_submit_presses_enter_and_reports_the_navigation(page, fixture_server):
    send = page("form.html", "t-submit")
    response = send({"type": "type", "selector": "#email", "text": "ada@example.com", "submit": True})
    assert response.ok, response.error
    effects = response.result["effects"]
    assert effects["navigated"] is True
    assert effects["url"].startswith(fixture_server.url("/second.html?name=Old+value&email=ada%40example.com"))


def test_type_updates_a_react_style_controlled_input(page):
    send = page("react.html", "t-react")
    response = send({"type": "type", "selector": "#controlled", "text": "hello", "clear": True})
    assert response.ok, response.error
    assert evaluate(send, "document.querySelector('#mirror').textContent") == "state: hello"
    assert response.result["value"] == "hello"
    send({"type": "type", "selector": "#controlled", "text": " world"})
    assert evaluate(send, "document.querySelector('#mirror').textContent") == "state: hello world"


def keys_logged(send) -> list[dict]:
    return evaluate(send, "window.keys.splice(0)")


def test_press_key_named_keys_and_focus_moves(page):
    send = page("keys.html", "t-keys")
    keys_logged(send)
    tab = send({"type": "press_key", "key": "Tab"})
    assert tab.ok, tab.error
    assert tab.result["effects"]["focus_moved_to"] == 'input#second'
    logged = keys_logged(send)
    assert logged[0] == {"type": "keydown", "key": "Tab", "code": "Tab", "keyCode": 9, "mods": []}
    back = send({"type": "press_key", "key": "Shift+Tab"}).result["effects"]
    assert back["focus_moved_to"] == 'input#first'
    assert [k for k in keys_logged(send) if k["type"] == "keydown"] == [
        {"type": "keydown", "key": "Shift", "code": "ShiftLeft", "keyCode": 16, "mods": ["shift"]},
        {"type": "keydown", "key": "Tab", "code": "Tab", "keyCode": 9, "mods": ["shift"]},
    ]
    for key, code, key_code in [("Enter", "Enter", 13), ("Escape", "Escape", 27), ("ArrowDown", "ArrowDown", 40),
                                ("PageDown", "PageDown", 34), ("Home", "Home", 36), ("F2", "F2", 113)]:
        assert send({"type": "press_key", "key": key}).ok
        down = keys_logged(send)[0]
        assert (down["key"], down["code"], down["keyCode"]) == (key, code, key_code)


def test_press_key_edits_text_like_a_keyboard(page):
    send = page("keys.html", "t-edit-keys")
    select_all = send({"type": "press_key", "key": "Control+A"})
    assert select_all.ok, select_all.error
    assert evaluate(send, "[document.activeElement.selectionStart, document.activeElement.selectionEnd]") == [0, 7]
    assert keys_logged(send)[1] == {"type": "keydown", "key": "a", "code": "KeyA", "keyCode": 65, "mods": ["ctrl"]}
    assert send({"type": "press_key", "key": "Backspace"}).ok
    assert evaluate(send, "document.activeElement.value") == ""
    for key in ("H", "i", "!", "Space", "é"):
        assert send({"type": "press_key", "key": key}).ok
    assert evaluate(send, "document.activeElement.value") == "Hi! é"


def test_unknown_keys_are_invalid_with_examples(page):
    send = page("keys.html", "t-bad-key")
    for key in ("NoSuchKey", "Hyper+Q", "Control+"):
        response = send({"type": "press_key", "key": key})
        assert response.error.code == "invalid_action", key
        assert "Control+A" in response.error.message
