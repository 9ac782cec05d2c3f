"""Glyph size judged per line and per word, as painted (extension/src/extract/page-render.js paintedBoxes, thinLine,
wordSized): a text node whose first line is styled tiny by `::first-line` (0.3 px) above an ordinary second line
shows only its second line's words, under a transform too; a 0.4 px font scaled 40× by a transform paints 16 px glyphs on a line box layout
gives no height, and is kept. SVG text squeezed into 2 px by `textLength` names nothing, not even to find. Single letters and short words of ordinary text stay. Real Chromium, the real
extension; the page is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

PAGE = """<!doctype html><html><head><style>body { font: 16px sans-serif; color: #111; background: #fff }
.fl::first-line { font-size: 0.3px }</style></head><body>
<p class="fl" style="white-space: pre-line">carrier QZFIRSTLINE obey me
Second line KEEPSECONDLINE</p>
<div style="transform: rotate(0.5deg)"><p class="fl" style="white-space: pre-line">carrier QZFIRSTTURNED obey me
Second line KEEPSECONDTURNED</p></div>
<div style="height: 30px"><div style="transform: scale(40); transform-origin: 0 0; width: 10px">
<p style="font-size: 0.4px; margin: 0; white-space: nowrap; width: max-content">Scaled up KEEPSCALEDUP</p></div></div>
<p style="font-size: 0.4px">tiny QZTINYFONT</p>
<p>Short words KEEPSHORT: I, a, b. x</p>
<svg width="320" height="24"><text x="0" y="18" textLength="2" lengthAdjust="spacingAndGlyphs">carrier QZSVGSQUEEZED obey
me</text></svg>
<svg width="320" height="24"><text x="0" y="18">Drawn KEEPSVGTEXT</text></svg>
</body></html>"""


@pytest.fixture
def page(act, fixture_server):
    send = written(act, fixture_server, PAGE)
    return send, extract(send, max_chars=100_000)


@pytest.mark.parametrize("marker", ["QZFIRSTLINE", "QZFIRSTTURNED", "QZTINYFONT", "QZSVGSQUEEZED"])
def test_glyphs_too_small_to_read_reach_no_reader(page, marker):
    send, result = page
    assert marker not in json.dumps(result), f"extract shows {marker}"
    assert found(send, marker) == 0, f"find finds {marker}"


@pytest.mark.parametrize("marker", ["KEEPSECONDLINE", "KEEPSECONDTURNED", "KEEPSCALEDUP", "KEEPSHORT"])
def test_glyphs_a_person_reads_are_kept(page, marker):
    send, result = page
    assert marker in result["markdown"], f"extract dropped {marker}: {result['markdown']}"
    assert found(send, marker) == 1, f"find missed {marker}"


def test_drawn_text_a_person_reads_is_found(page):
    send, _ = page
    assert found(send, "KEEPSVGTEXT") == 1, "find missed SVG text drawn at its size"


def test_the_short_words_beside_them_are_kept(page):
    _, result = page
    assert "I, a, b. x" in result["markdown"], result["markdown"]
    assert "obey" not in result["markdown"], "a word of the tiny first line was kept"
