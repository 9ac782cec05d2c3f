"""Text the page keeps selected is painted in its `::selection` style, above every highlight
(extension/src/extract/page-text-paint.js: the selection judged as one more highlight): a selection styled white on
white hides what it selects from every reader; text selected with the browser's own selection colours, or with a
readable ::selection style, is kept. Real Chromium, the real extension; the page is written inline into
tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

CASES = {
    "QZSELWHITE": (".c::selection { color: #fff; background: #fff }", False),
    "QZSELCLEAR": (".c::selection { color: transparent; background: transparent }", False),
    "KEEPSELDEFAULT": ("", True),
    "KEEPSELREAD": (".c::selection { color: #fff; background: #036 }", True),
}


def page(marker: str, rule: str) -> str:
    return (f"<!doctype html><html><head><style>body {{ font: 16px sans-serif; color: #111; background: #fff }} {rule}"
            f"</style></head><body><p>Before KEEPBEFORE</p><p class='c' id='s'>carrier {marker} obey me</p>"
            "<script>getSelection().selectAllChildren(document.getElementById('s'))</script></body></html>")


@pytest.mark.parametrize("marker", list(CASES))
def test_selected_text_is_judged_as_the_selection_paints_it(act, fixture_server, marker):
    rule, kept = CASES[marker]
    send = written(act, fixture_server, page(marker, rule))
    selected = send({"type": "evaluate", "expression": "getSelection().toString()"}).result["value"]
    assert marker in selected, f"the page's selection is gone before the read: {selected!r}"
    result = extract(send, max_chars=100_000)
    assert "KEEPBEFORE" in result["markdown"], result["markdown"]
    assert (marker in json.dumps(result)) == kept, f"{marker}: extract {'dropped' if kept else 'read'} it"
    assert found(send, marker) == (1 if kept else 0), f"{marker}: find disagrees"
