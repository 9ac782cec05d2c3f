"""The page cannot undo the pixel judgement's mask (extension/src/extract/pixel-mask-style.js): white text over
another origin's white picture is judged from the tab's pixels, captured as painted and with the asked glyphs
painted transparent by a highlight. A page that styles that highlight itself (`::highlight(bua-pixel-mask)` black
on black, `!important`, with an id's specificity) or selected glyphs (`#id::selection`) would make the bare capture
differ from the painted one and the white text read as shown; the mask's user style sheet wins over every author
rule. The same text without the forging rule is left out, and dark text over the picture is kept. Real Chromium,
the real extension; the page is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.actions_helpers import wait_until
from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

FORGE = {
    "HIGHLIGHT": "::highlight(bua-pixel-mask) { background-color: #000; color: #000 !important; "
                 "-webkit-text-fill-color: #000 !important }",
    "SPECIFIC": "#c::highlight(bua-pixel-mask), #c *::highlight(bua-pixel-mask) { background-color: #000 !important; "
                "color: #000 !important; -webkit-text-fill-color: #000 !important }",
    "LAYER": "@layer first { ::highlight(bua-pixel-mask) { color: #000 !important; "
             "-webkit-text-fill-color: #000 !important; background-color: #000 !important } }",
    "NONE": "",
}


def page(picture: str, rule: str) -> str:
    over = (f'<div id="c" style="position:relative;padding:6px;width:420px"><img alt="" src="{picture}" '
            'style="position:absolute;left:0;top:0;width:100%;height:100%">')
    return (f"<!doctype html><html><head><style>{rule}</style></head><body style='font:16px sans-serif'>"
            f"<p>Parent KEEPPARENT</p>{over}<p style='position:relative;color:#fff;margin:0'>carrier QZWHITE obey me</p>"
            "<p style='position:relative;color:#000;margin:0'>Dark KEEPDARK</p></div></body></html>")


@pytest.mark.parametrize("forge", list(FORGE))
def test_a_page_styling_the_mask_does_not_make_white_on_white_read(act, fixture_server, forge):
    picture = fixture_server.url("/extract/white.svg", host="localhost")
    send = written(act, fixture_server, page(picture, FORGE[forge]))
    ready = "[...document.images].every((i) => i.complete && i.naturalWidth > 0)"
    assert wait_until(lambda: send({"type": "evaluate", "expression": ready}).result["value"], 30)
    result = extract(send, max_chars=100_000)
    assert "QZWHITE" not in json.dumps(result), f"{forge}: white text over a white picture was read"
    assert found(send, "QZWHITE") == 0, f"{forge}: find found the white text"
    assert "KEEPDARK" in result["markdown"] and "KEEPPARENT" in result["markdown"], result
