"""The action models: discriminated union, uid/selector XOR, bounds, and the generated schema."""

from __future__ import annotations

import pytest

from app.protocol.actions import ACTION_ADAPTER, ACTION_TYPES, MAX_TEXT_CHARS, action_to_wire, parse_action
from app.protocol.errors import ActionFailed, ErrorCode


def fails(data: dict) -> ActionFailed:
    with pytest.raises(ActionFailed) as info:
        parse_action(data)
    return info.value


def test_the_declared_actions():
    """The core set every peer has is declared (new actions need no edit here), each type once."""
    assert set(ACTION_TYPES) >= {"navigate", "history", "click", "type", "press_key", "scroll", "screenshot",
                                 "extract", "wait_for", "hover", "evaluate", "get_tabs", "open_tab", "close_tab"}
    assert len(set(ACTION_TYPES)) == len(ACTION_TYPES)


@pytest.mark.parametrize("kind", ["click", "hover", "type"])
def test_element_actions_need_exactly_one_of_uid_or_selector(kind):
    extra = {"text": "hi"} if kind == "type" else {}
    assert fails({"type": kind, **extra}).code is ErrorCode.INVALID_ACTION
    both = fails({"type": kind, "uid": "e1", "selector": "#a", **extra})
    assert "exactly one of 'uid'" in both.message
    assert parse_action({"type": kind, "uid": "e4", **extra}).uid == "e4"
    assert parse_action({"type": kind, "selector": "[aria-hidden='false']", **extra}).selector


def test_wait_for_takes_one_of_uid_selector_text():
    assert fails({"type": "wait_for"}).code is ErrorCode.INVALID_ACTION
    assert fails({"type": "wait_for", "text": "x", "uid": "e1"}).code is ErrorCode.INVALID_ACTION
    assert parse_action({"type": "wait_for", "text": "Saved", "state": "visible"}).text == "Saved"


def test_scroll_and_screenshot_targets():
    assert parse_action({"type": "scroll", "direction": "down"}).direction == "down"
    assert parse_action({"type": "scroll", "uid": "e9"}).uid == "e9"
    assert fails({"type": "scroll"}).code is ErrorCode.INVALID_ACTION
    assert fails({"type": "scroll", "uid": "e9", "direction": "up"}).code is ErrorCode.INVALID_ACTION
    assert parse_action({"type": "screenshot"}).full_page is False
    assert fails({"type": "screenshot", "uid": "e1", "selector": "a"}).code is ErrorCode.INVALID_ACTION
    both = fails({"type": "screenshot", "uid": "e1", "full_page": True})
    assert both.code is ErrorCode.INVALID_ACTION and "not both" in str(both)
    assert parse_action({"type": "screenshot", "full_page": True}).full_page is True


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "data:text/html,hi",
                                 "chrome://settings", "chrome-extension://abc/page.html", "about:config"])
def test_non_http_urls_are_forbidden(url):
    for kind in ("navigate", "open_tab"):
        err = fails({"type": kind, "url": url})
        assert err.code is ErrorCode.FORBIDDEN_URL, url
        assert "http(s)" in err.message


def test_about_blank_and_http_urls_are_allowed():
    assert parse_action({"type": "open_tab", "url": "about:blank"}).url == "about:blank"
    assert parse_action({"type": "navigate", "url": "https://example.com/x?y=1"}).timeout_ms == 30_000


def test_bounds():
    assert fails({"type": "type", "uid": "e1", "text": "x" * (MAX_TEXT_CHARS + 1)}).code is ErrorCode.INVALID_ACTION
    assert fails({"type": "wait_for", "text": "a", "timeout_ms": 30_001}).message.startswith("timeout_ms")
    assert fails({"type": "navigate", "url": "http://a/", "timeout_ms": -1}).code is ErrorCode.INVALID_ACTION
    assert fails({"type": "click", "uid": "4"}).code is ErrorCode.INVALID_ACTION


def test_unknown_type_and_unknown_fields_are_named():
    assert "must be one of: navigate" in fails({"type": "teleport"}).message
    assert "unknown field 'colour'" in fails({"type": "get_tabs", "colour": "red"}).message
    assert fails({"no": "type"}).code is ErrorCode.INVALID_ACTION
    assert fails("not even an object").code is ErrorCode.INVALID_ACTION


def test_wire_form_drops_none_and_keeps_defaults():
    wire = action_to_wire(parse_action({"type": "click", "uid": "e4"}))
    assert wire == {"type": "click", "uid": "e4", "button": "left", "click_count": 1}


def test_schema_is_one_of_with_const_types():
    schema = ACTION_ADAPTER.json_schema()
    consts = {schema["$defs"][ref["$ref"].split("/")[-1]]["properties"]["type"]["const"] for ref in schema["oneOf"]}
    assert consts == set(ACTION_TYPES)
