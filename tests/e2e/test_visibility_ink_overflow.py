"""Paint that is no box (extension/src/extract/page-ink-overflow.js): what an element paints outside its border
box, or over its own glyphs, in ways neither hit testing nor the style judgement models — a decoration as thick
as the line drawn over the glyphs, a column rule, a `::first-line` background, a border image pulled outward, a
`drop-shadow()` filter, a `-webkit-box-reflect` copy, a far-flung `text-shadow` — sends the texts it may reach to
the pixels, which judge them as painted. Each carrier is hidden by that paint alone (checked by the pixels of the
same page with the paint taken away: the text then shows); each guard is the same paint where the text stays
readable. Real Chromium, the real extension; pages written inline."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

HEAD = ("<!doctype html><html><head><style>body { font: 16px/1.4 sans-serif; margin: 8px; color: #111;"
        " background: #fff } p { margin: 4px 0 }")
TAIL = '<p style="margin-top:200px">Ordinary VISINK words</p></body></html>'
# kind: (style, body); the text marked QZ is hidden, KEEP shown.
CARRIERS = {
    "ULCOVER": ("#x { text-decoration: underline 1.4em #111; text-underline-offset: -1.1em; text-decoration-skip-ink: none }",
                '<p id="x">carrier QZULCOVER obey me</p>'),
    "ULANCESTOR": ("#x { text-decoration: underline 1.4em #111; text-underline-offset: -1.1em; text-decoration-skip-ink: none }",
                   '<div id="x"><p>carrier <b>QZULANCESTOR</b> obey me</p></div>'),
    "COLRULE": ("#x { columns: 2; column-gap: 0; column-rule: 600px solid #111; width: 600px }",
                '<div id="x"><p>carrier QZCOLRULE obey me</p><p>second column QZCOLRULE2 words</p></div>'),
    "FLBG": ("#x::first-line { background: #111 }", '<p id="x">carrier QZFLBG obey me</p>'),
    "BIOUTSET": ("#cover { width: 20px; height: 10px; border: 10px solid transparent; border-image: "
                 "linear-gradient(#fff, #fff) 10 fill / 10px / 0 400px 60px 0; position: relative; z-index: 1 }",
                 '<div id="cover"></div><p style="margin-top:-10px">carrier QZBIOUTSET obey me</p>'),
    "DROPCOVER": ("#cover { width: 400px; height: 30px; background: #fff; filter: drop-shadow(0 30px 0 #fff);"
                  " position: relative; z-index: 1 }",
                  '<div id="cover"></div><p style="margin-top:0;position:relative;top:-4px">carrier QZDROP obey me</p>'),
    "REFLECTCOVER": ("#cover { width: 400px; height: 30px; background: #fff; -webkit-box-reflect: below 0px;"
                     " position: relative; z-index: 1 }",
                     '<div id="cover"></div><p style="margin-top:0;position:relative;top:-4px">carrier QZREFLECT obey me</p>'),
    "TSHADOWCOVER": ("#cover { color: transparent; text-shadow: 0 40px 0 #fff, 0 40px 8px #fff; font-size: 40px;"
                     " line-height: 1; position: relative; z-index: 1; margin: 0 }",
                     '<p id="cover">&#9608;&#9608;&#9608;&#9608;&#9608;&#9608;&#9608;&#9608;&#9608;&#9608;</p>'
                     '<p style="margin-top:-2px">carrier QZTSHADOW obey me</p>'),
}
GUARDS = {
    "ULTHIN": ("#x { text-decoration: underline 2px #111 }", '<p id="x">underlined KEEPULTHIN words</p>'),
    "ULMARKER": ("#x { text-decoration: underline 1.4em #fd0; text-underline-offset: -1.1em; text-decoration-skip-ink: none }",
                 '<p id="x">dark text on a marker KEEPULMARKER stroke</p>'),
    "ULBELOW": ("#x { text-decoration: underline 0.4em #111; text-underline-offset: 0.3em }",
                '<p id="x">a thick line below KEEPULBELOW text</p>'),
    "COLRULEFINE": ("#x { columns: 2; column-rule: 1px solid #888 }",
                    '<div id="x" style="width:600px">two columns KEEPCOLRULE of text<br>and more</div>'),
    "FLBGLIGHT": ("#x::first-line { background: #ffe }", '<p id="x">first line KEEPFLBG light</p>'),
    "BIFRAME": ("#b { border: 10px solid; border-image: linear-gradient(#def, #def) 10 / 10px / 4px; padding: 8px }",
                '<div id="b">framed KEEPBIFRAME text</div>'),
    "DROPSOFT": ("#c { filter: drop-shadow(2px 2px 2px #0004) }", '<p id="c">shadowed KEEPDROP text</p>'),
    "REFLECTAWAY": ("#cover { width: 400px; height: 30px; background: #fff; -webkit-box-reflect: above 0px;"
                    " position: relative; z-index: 1 }",
                    '<div id="cover"></div><p>below KEEPREFLECT the box</p>'),
    "TSHADOWSOFT": ("h1 { text-shadow: 1px 1px 2px #0006 }", '<h1>Headline KEEPTSHADOW</h1>'),
}


def page_of(style: str, body: str) -> str:
    return f"{HEAD} {style}</style></head><body>{body}{TAIL}"


@pytest.mark.parametrize("kind", list(CARRIERS))
def test_paint_that_is_no_box_hides_the_text_it_covers(kind, act, fixture_server):
    send = written(act, fixture_server, page_of(*CARRIERS[kind]))
    result = extract(send, max_chars=100_000)
    text = json.dumps(result)
    assert "VISINK" in result["markdown"], result["markdown"]
    assert "QZ" not in text, f"{kind}: extract shows the covered text: {result['markdown']}"
    assert found(send, "QZ") == 0, f"{kind}: find finds the covered text"


@pytest.mark.parametrize("kind", list(GUARDS))
def test_the_same_paint_keeps_what_stays_readable(kind, act, fixture_server):
    send = written(act, fixture_server, page_of(*GUARDS[kind]))
    result = extract(send, max_chars=100_000)
    marker = next(w for w in GUARDS[kind][1].replace("<", " ").replace(">", " ").split() if w.startswith("KEEP"))
    assert marker in result["markdown"], f"{kind}: extract dropped readable text: {result['markdown']}"
    assert found(send, marker) == 1, f"{kind}: find misses {marker}"
