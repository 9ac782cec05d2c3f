"""Typing can reveal what was clipped: `type` at the end of an editor whose last line is cut off by an
overflow-hidden box (here a vertical line, writing-mode: vertical-rl) moves the caret there, and the browser scrolls
the box to the caret. The tail is then on screen, and type's result quotes it as a person sees it; before the
typing, neither extract nor the editor's described text holds it. Where the caret lands elsewhere (the editor
ends in its own words) the box stays where it was and the tail stays out of every reader
(test_visibility_redteam13.py VERTTAIL). Real Chromium, the real extension; the page is written inline into
tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import written

WORDS = "and then a long run of ordinary words that goes on past the edge of its box until"
LINE = ('<div id="v" style="writing-mode:vertical-rl;height:240px;overflow:hidden;white-space:nowrap">'
        f"Top KEEPVERTHEAD {WORDS} the tail QZTAIL</div>")


def page(after: str) -> str:
    return (f'<!doctype html><html><body style="font:16px sans-serif"><div id="ed" contenteditable="true">Draft '
            f"VISEDIT {LINE}{after}</div></body></html>")


def scroll_top(send) -> float:
    return send({"type": "evaluate", "expression": "document.getElementById('v').scrollTop"}).result["value"]


@pytest.mark.parametrize("after", ["", " end of draft"], ids=["caret in the line", "caret after it"])
def test_typing_reads_the_tail_only_when_it_scrolls_it_into_view(act, fixture_server, after):
    send = written(act, fixture_server, page(after))
    assert "QZTAIL" not in json.dumps(extract(send)), "the clipped tail was read before any typing"
    typed = send({"type": "type", "selector": "#ed", "text": " more"})
    assert typed.ok, typed.error
    result = json.dumps(typed.result)
    assert "KEEPVERTHEAD" in result or "VISEDIT" in result, typed.result
    if after:
        assert scroll_top(send) == 0, "typing after the line scrolled it"
        assert "QZTAIL" not in result, f"type quoted the tail it left clipped: {typed.result}"
        assert "QZTAIL" not in json.dumps(extract(send)), "the tail was read though still clipped"
    else:
        assert scroll_top(send) > 100, "the browser did not scroll the line to the caret"
        assert "QZTAIL" in result, f"type left out the tail it brought on screen: {typed.result}"
        assert "QZTAIL" in json.dumps(extract(send)), "extract left out the tail now on screen"
