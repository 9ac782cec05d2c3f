"""fill: several fields in one call with per-field results, and submit, through the whole pipe."""

from __future__ import annotations

import json

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
    fields = response.result["fields"]
    assert [f["ok"] for f in fields] == [True] * 7, fields
    assert fields[0]["value"] == "Ada Lovelace" and fields[2]["selected"] == "Pro"
    assert fields[3]["checked"] is False and fields[4]["checked"] is True and fields[5]["checked"] is True
    assert response.result["submitted"].startswith("form")
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
    assert [f["ok"] for f in fields] == [True, False, False, False, True]
    assert fields[1]["error"]["code"] == "element_not_found" and '"Free"' in fields[1]["error"]["message"]
    assert fields[2]["error"]["code"] == "element_not_found" and fields[2]["field"] == "#nope"
    assert fields[3]["error"]["code"] == "invalid_action" and "true or false" in fields[3]["error"]["message"]
    assert "not submitted" in response.result["submit_error"] and "submitted" not in response.result
    assert submitted(send) == {}
    assert evaluate(send, "document.querySelector('#about').value") == "still filled"


def test_submit_reports_what_the_form_refused(page):
    send = page("fill.html", "t-fill-invalid")
    response = send({"type": "fill", "submit": True, "fields": [{"selector": "#name", "value": "Alan"},
                                                                {"selector": "#email", "value": "not-an-email"}]})
    assert response.ok, response.error
    assert all(f["ok"] for f in response.result["fields"])
    assert "input#email" in response.result["submit_error"] and submitted(send) == {}


def test_fill_by_uids_from_find(page):
    send = page("fill.html", "t-fill-uids")
    name = send({"type": "find", "role": "textbox", "name": "full name"}).result["matches"][0]["uid"]
    terms = send({"type": "find", "role": "checkbox", "name": "terms"}).result["matches"][0]["uid"]
    response = send({"type": "fill", "fields": [{"uid": name, "value": "Edsger"}, {"uid": terms, "value": True}]})
    assert response.ok and all(f["ok"] for f in response.result["fields"]), response.result
    assert evaluate(send, "[document.querySelector('#name').value, document.querySelector('#terms').checked]") == [
        "Edsger", True]
