"""Each fact once in action results (issue 21): fill's fields are not repeated by its change list, a closed
dialog is one change line, and `type` says when the page ignored the typed text (falling back to key presses)."""

from __future__ import annotations

import json

from tests.e2e.actions_helpers import described, evaluate, page  # noqa: F401 (fixture)


def uid_of(elements: str, needle: str) -> str:
    return next(line.split()[0] for line in elements.splitlines() if needle in line)


def test_fill_reports_each_field_once(page):
    send = page("facts-once.html", "t-facts-fill")
    elements = described(send({"type": "extract"}).result)
    city = uid_of(elements, '"City"')
    response = send({"type": "fill", "fields": [{"uid": city, "value": "Bergen"}, {"selector": "#team", "value": "Core"},
                                                {"selector": "#agree", "value": True}]})
    assert response.ok, response.error
    assert response.result["as_asked"] == 3 and "fields" not in response.result, "each as asked: counted only"
    changes = response.result["changes"]
    assert "elements" not in changes and changes["markdown"].endswith("~ Unsaved changes\n  was: Saved"), changes
    assert changes["summary"] == "text lines: 1 changed", "the fields the result counts are not counted again"
    assert "Bergen" not in json.dumps(changes)


def test_type_leaves_its_field_out_of_the_change_list_but_not_what_else_changed(page):
    send = page("facts-once.html", "t-facts-type")
    elements = described(send({"type": "extract"}).result)
    evaluate(send, "document.querySelector('#team').addEventListener('input', () => "
                   "document.querySelector('#agree').checked = true) || 1")
    response = send({"type": "type", "uid": uid_of(elements, '"Team"'), "text": "Ops"})
    assert response.ok, response.error
    assert response.result["value"] == "Ops"
    assert response.result["changes"]["elements"] == '~ e3 checkbox "I agree" checked (was: checkbox "I agree")'.replace(
        "e3", uid_of(elements, '"I agree"'))


def test_a_closed_dialog_is_one_change_line(page):
    send = page("facts-once.html", "t-facts-dialog")
    send({"type": "extract"})
    evaluate(send, "document.querySelector('#open').click() || 1")
    elements = described(send({"type": "extract"}).result)
    response = send({"type": "click", "uid": uid_of(elements, '"Close"')})
    assert response.ok, response.error
    changes = response.result["changes"]
    assert changes["markdown"].splitlines()[-1] == '- dialog "Details of Ana" closed (9 lines, 1 element)', changes
    assert "Desk 42" not in changes["markdown"] and "elements" not in changes
    assert "1 removed" in changes["summary"]


def test_type_into_a_terminal_falls_back_to_key_presses(page):
    send = page("facts-once.html", "t-facts-term")
    response = send({"type": "type", "selector": "#term", "text": "ls -la"})
    assert response.ok, response.error
    assert response.result["typed_with"].startswith("key presses")
    assert response.result["value_unchanged"] is True and "screenshot" in response.result["next_step"]
    assert "note" not in response.result
    assert evaluate(send, "document.querySelector('#screen').textContent") == "ls -la"


def test_type_into_an_ordinary_field_says_nothing_more(page):
    send = page("facts-once.html", "t-facts-plain")
    response = send({"type": "type", "selector": "#team", "text": "a b"})
    assert response.ok, response.error
    assert "typed_with" not in response.result and "value_unchanged" not in response.result
    assert evaluate(send, "document.querySelector('#team').value") == "a b"


def test_a_field_that_takes_nothing_says_its_value_did_not_change(page):
    send = page("facts-once.html", "t-facts-dead")
    response = send({"type": "fill", "fields": [{"selector": "#dead", "value": "hello"}]})
    assert response.ok, response.error
    field = response.result["fields"][0]
    assert "error" not in field and field["value_unchanged"] is True and field["value"] == ""
    assert "note" not in field
