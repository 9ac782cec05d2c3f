"""fill: several fields in one call, each reported only where it is not as asked, and submit, through the whole pipe."""

from __future__ import annotations

import json

from app.agent.tools.browser_result import model_view
from tests.e2e.actions_helpers import evaluate, page  # noqa: F401 (fixture)


def submitted(send) -> dict:
    text = evaluate(send, "document.querySelector('#out').textContent")
    return json.loads(text) if text else {}


def test_fill_text_select_checkboxes_radio_and_textarea_then_submit(page):
    send = page("fill.html", "t-fill")
    response = send({"type": "fill", "submit": True, "fields": [
        {"selector": "#name", "value": "Ada Lovelace"},
        {"selector": "#email", "value": "ada@example.org"},
        {"selector": "#plan", "value": "Pro"},
        {"selector": "#news", "value": False},
        {"selector": "#terms", "value": True},
        {"selector": "#size-l", "value": True},
        {"selector": "#about", "value": "Line one\nLine two"},
    ]})
    assert response.ok, response.error
    assert response.result["as_asked"] == 7 and "fields" not in response.result, response.result
    assert response.result["submitted"] == "form" and "submit_button" not in response.result, \
        "one submit button: naming it says nothing new"
    assert submitted(send) == {"name": "Ada Lovelace", "email": "ada@example.org", "plan": "pro", "terms": "on",
                               "size": "l", "about": "Line one\nLine two"}
    events = evaluate(send, "document.querySelector('#events').dataset.log")
    assert "change:news" in events and "change:terms" in events and "change:plan" in events
    assert response.result["effects"]["nothing_changed"] is False


def test_a_field_that_fails_does_not_stop_the_others_and_blocks_the_submit(page):
    send = page("fill.html", "t-fill-partial")
    response = send({"type": "fill", "submit": True, "fields": [
        {"selector": "#name", "value": "Grace"},
        {"selector": "#plan", "value": "Enterprise"},
        {"selector": "#nope", "value": "x"},
        {"selector": "#terms", "value": "maybe"},
        {"selector": "#about", "value": "still filled"},
    ]})
    assert response.ok, response.error
    fields = response.result["fields"]
    assert response.result["as_asked"] == 2 and [f["field"] for f in fields] == ["#plan", "#nope", "#terms"]
    assert fields[0]["error"]["code"] == "element_not_found" and '"Free"' in fields[0]["error"]["message"]
    assert fields[1]["error"]["code"] == "element_not_found"
    assert fields[2]["error"]["code"] == "invalid_action" and "true or false" in fields[2]["error"]["message"]
    assert "not submitted" in response.result["submit_error"] and "submitted" not in response.result
    assert submitted(send) == {}
    assert evaluate(send, "document.querySelector('#about').value") == "still filled"


def test_submit_reports_what_the_form_refused(page):
    send = page("fill.html", "t-fill-invalid")
    response = send({"type": "fill", "submit": True, "fields": [{"selector": "#name", "value": "Alan"},
                                                                {"selector": "#email", "value": "not-an-email"}]})
    assert response.ok, response.error
    assert response.result["as_asked"] == 2 and "fields" not in response.result
    assert "input#email" in response.result["submit_error"] and submitted(send) == {}


def test_fill_by_uids_from_find(page):
    send = page("fill.html", "t-fill-uids")
    name = send({"type": "find", "role": "textbox", "name": "full name"}).result["matches"][0]["uid"]
    terms = send({"type": "find", "role": "checkbox", "name": "terms"}).result["matches"][0]["uid"]
    response = send({"type": "fill", "fields": [{"uid": name, "value": "Edsger"}, {"uid": terms, "value": True}]})
    assert response.ok and response.result["as_asked"] == 2 and "fields" not in response.result, response.result
    assert evaluate(send, "[document.querySelector('#name').value, document.querySelector('#terms').checked]") == [
        "Edsger", True]


def test_only_a_field_not_as_asked_is_reported_with_what_differs(page):
    """The read-back value that differs (maxlength, a page that rewrites it), a password's by its length only, the
    option a select chose for a value it was given, and the field a label or wrapper stood for; a field as asked
    is counted. The page's words (values, element descriptions, the button) are page data in the model's view."""
    send = page("fill-differs.html", "t-fill-differs")
    note = next(line.split()[0] for line in send({"type": "extract"}).result["elements"].splitlines()
                if 'textbox "Note"' in line)
    response = send({"type": "fill", "submit": True, "fields": [
        {"selector": "#code", "value": "123456"}, {"selector": "#shout", "value": "hello"},
        {"selector": "#nick-label", "value": "Ann"}, {"selector": "#town-box", "value": "Oslo"},
        {"selector": "#pin", "value": "987654"}, {"selector": "#plan", "value": "pro"}, {"uid": note, "value": "hi"},
    ]})
    assert response.ok, response.error
    result = response.result
    by_field = {f["field"]: f for f in result["fields"]}
    assert result["as_asked"] == 1 and list(by_field) == ["#code", "#shout", "#nick-label", "#town-box", "#pin",
                                                          "#plan"], result
    assert by_field["#code"]["value"] == "1234" and "reformatted" in by_field["#code"]["note"]
    assert by_field["#shout"]["value"] == "HELLO"
    assert "input#nick" in by_field["#nick-label"]["typed_into"] and "value" not in by_field["#nick-label"]
    assert "input#town" in by_field["#town-box"]["typed_into"]
    assert by_field["#pin"]["value_length"] == 4 and "value" not in by_field["#pin"], "a password by its length"
    assert by_field["#plan"] == {"field": "#plan", "selected": "Pro plan"}
    assert result["submitted"] == "form" and "Save draft" in result["submit_button"], "two buttons: which one"
    assert submitted(send) == {"code": "1234", "shout": "HELLO", "nick": "Ann", "town": "Oslo", "pin": "9876",
                               "plan": "pro", "note": "hi", "go": "draft"}

    view = model_view({"ok": True, "action": "fill", "result": result}, "T-fill")
    facts = json.dumps(view.facts)
    for said in ("1234", "HELLO", "input#nick", "Pro plan", "Save draft"):
        assert said not in facts and any(said in text for text in view.page.values()), said
    assert view.facts["result"]["as_asked"] == 1 and view.facts["result"]["submitted"] == "form"
    assert view.facts["result"]["fields"][4] == {"field": "#pin", "value_length": 4, "note": by_field["#pin"]["note"]}
    assert view.page["fields.5.selected"] == "Pro plan" and view.page["submit_button"] == result["submit_button"]
