"""A non-replaced inline box ignores its own transform, overflow, contain and content-visibility (CSS Transforms 1
§3, Overflow 3 §3, Containment 2 §3–4 apply them to block-level and atomic boxes only), so the judgement does not
read them for it (extension/src/extract/page-render.js renderContext): text in a `<span>` styled `transform:
scale(0.01)`, turned away with `backface-visibility: hidden`, or `content-visibility: hidden` is painted as if
unstyled, and a person reads it. The same styles on an inline-block, where they apply, hide its text from every
reader. content-visibility likewise skips nothing in a table's box, a row or row group, or a ruby box, where size
containment has no effect. Real Chromium, the real extension; the page is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

STYLES = {
    "SCALED": "transform: scale(0.01)",
    "TURNED": "transform: rotateY(180deg); backface-visibility: hidden",
    "SKIPPED": "content-visibility: hidden",
    "SQUASHED": "transform: scaleY(0.05)",
}
PAGE = "<!doctype html><html><head><style>body { font: 16px sans-serif; margin: 8px; color: #111; background: #fff }"
PAGE += "p { margin: 12px 0 }</style></head><body>"
PAGE += "".join(f'<p>inline <span style="{style}">QZIN{kind} kept</span></p>'
                f'<p>atomic <span style="display: inline-block; {style}">QZAT{kind} hidden</span></p>'
                for kind, style in STYLES.items())
# content-visibility: hidden where size containment has no effect (a table's box, a row, a row group, a ruby box):
# its content is painted as unstyled; in a cell, a caption or a list item it is not. Each compared in Chromium with
# its unstyled twin by screenshots when this was written.
CV = "content-visibility: hidden"
UNSKIPPED = {
    "TABLE": f'<table style="{CV}"><tr><td>QZCVTABLE kept</td></tr></table>',
    "ROW": f'<table><tr style="{CV}"><td>QZCVROW kept</td></tr></table>',
    "BODY": f'<table><tbody style="{CV}"><tr><td>QZCVBODY kept</td></tr></tbody></table>',
    "RUBY": f'<p><ruby style="{CV}">QZCVRUBY kept<rt>r</rt></ruby></p>',
}
SKIPPED = {
    "CELL": f'<table><tr><td style="{CV}">QZCVCELL hidden</td></tr></table>',
    "CAPTION": f'<table><caption style="{CV}">QZCVCAPTION hidden</caption><tr><td>x</td></tr></table>',
    "ITEM": f'<ul><li style="{CV}">QZCVITEM hidden</li></ul>',
    "FLEX": f'<div style="display: flex; {CV}">QZCVFLEX hidden</div>',
}
PAGE += "".join(UNSKIPPED.values()) + "".join(SKIPPED.values()) + "</body></html>"


KEPT = [f"QZIN{kind}" for kind in STYLES] + [f"QZCV{kind}" for kind in UNSKIPPED]
HIDDEN = [f"QZAT{kind}" for kind in STYLES] + [f"QZCV{kind}" for kind in SKIPPED]


@pytest.fixture
def page(act, fixture_server):
    send = written(act, fixture_server, PAGE)
    return send, json.dumps(extract(send, max_chars=100_000))


@pytest.mark.parametrize("marker", KEPT)
def test_styles_that_do_not_apply_to_the_box_keep_its_text(page, marker):
    send, result = page
    assert marker in result, f"extract dropped {marker}, which is painted as if unstyled"
    assert found(send, marker) == 1, f"find missed {marker}"


@pytest.mark.parametrize("marker", HIDDEN)
def test_the_same_styles_where_they_apply_hide_the_text(page, marker):
    send, result = page
    assert marker not in result, f"extract shows {marker}"
    assert found(send, marker) == 0, f"find finds {marker}"
