"""A `backdrop-filter` turns the colours of everything painted behind its box, a text and its background alike
(Filter Effects 2): `brightness(60)` paints #111 text on white as white on white, `contrast(0.02)` both as one grey;
an SVG filter's flood paints over them. The judgement turns a covered text's inks and backgrounds by the box's
colour functions, chained in order, with the code a `filter` tints a text with (extension/src/extract/page-cover.js
backdropBehind, page-colour.js tinted) and judges them as any text's colours (page-visibility.js colourHides); a
url() filter is left to the pixels (page-pixels.js: the tab captured with and without the glyphs), so a flood hides
and a displacement "glass" keeps. Text a person reads through a backdrop filter is kept: a slight brightening, a
blur, a saturation, black text that brightness cannot lift, an inversion, an opacity(0) that changes nothing.
Each case was looked at in a Chromium screenshot when this was written. Real Chromium, the real extension; the page
is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written


def under(marker: str, backdrop: str, colour: str = "#111", box: str = "") -> str:
    """A line of text with a box of this backdrop-filter laid over it."""
    return (f'<div style="position:relative;margin:6px 0"><p style="margin:0;color:{colour}">carrier {marker} obey me</p>'
            f'<div style="position:absolute;inset:-3px;backdrop-filter:{backdrop};{box}"></div></div>')


# marker: (the backdrop filter, the text's colour)
HIDDEN = {
    "QZBDBRIGHT": ("brightness(60)", "#111"), "QZBDPERCENT": ("brightness(6000%)", "#111"),
    "QZBDCONTRAST": ("contrast(0.02)", "#111"), "QZBDSEPIA": ("sepia(1) brightness(20)", "#111"),
    "QZBDGREY": ("grayscale(1) brightness(8)", "#c00"),  # red goes grey, then white
    "QZBDTHENINVERT": ("brightness(60) invert(1)", "#111"),  # white on white, then black on black
    "QZBDMOSTLY": ("brightness(60) opacity(0.97)", "#111"), "QZBDURL": ("url(#probe-flood)", "#111"),
}
KEPT = {
    "QZBDLIFT": ("brightness(1.2)", "#111"), "QZBDBLUR": ("blur(2px)", "#111"), "QZBDSATURATE": ("saturate(2)", "#111"),
    "QZBDBLACK": ("brightness(60)", "#000"),  # brightness multiplies: black stays black on white
    "QZBDFLIPPED": ("invert(1)", "#111"), "QZBDINVERTDIM": ("invert(1) brightness(0.5)", "#111"),
    "QZBDINVERTTHEN": ("invert(1) brightness(60)", "#111"),  # the order matters: white on black
    "QZBDHUE": ("hue-rotate(180deg)", "#e00"), "QZBDNOTHING": ("opacity(0)", "#111"),
    "QZBDUNDONE": ("brightness(60) opacity(0)", "#111"), "QZBDGLASS": ("url(#probe-glass)", "#111"),
}
SVG = ('<svg width=0 height=0><filter id="probe-flood"><feFlood flood-color="#fff"/></filter></svg>'  # as the red team wrote it
       '<svg width="0" height="0" style="position:absolute"><filter id="probe-glass"><feTurbulence type="fractalNoise" baseFrequency="0.02" numOctaves="1" result="n"/>'
       '<feDisplacementMap in="SourceGraphic" in2="n" scale="4"/></filter></svg>')
PAGE = ("<!doctype html><html><head><style>body { font: 16px sans-serif; margin: 8px; color: #111; background: #fff }"
        "</style></head><body>" + SVG
        + "".join(under(m, f, c) for m, (f, c) in {**HIDDEN, **KEPT}.items())
        # the box's own text is painted over its backdrop: it shows
        + '<div style="position:relative;margin:6px 0;backdrop-filter:brightness(60)">QZBDINSIDE kept</div>'
        # a fixed box over a line that scrolling brings out from under it: a person scrolls and reads it
        + '<p id="scrolled" style="margin:12px 0">carrier QZBDSCROLLED obey me</p>'
        + '<div id="pinned" style="position:fixed;left:0;right:0;height:30px;backdrop-filter:brightness(60)"></div>'
        + "<script>pinned.style.top = scrolled.getBoundingClientRect().top - 6 + 'px'</script>"
        # far down, out of the viewport: paint order decides instead of hit testing
        + '<div style="height:3000px"></div>' + under("QZBDFAR", "brightness(60)")
        + "</body></html>")


@pytest.fixture
def page(act, fixture_server):
    send = written(act, fixture_server, PAGE)
    return send, json.dumps(extract(send, max_chars=100_000))


@pytest.mark.parametrize("marker", [*HIDDEN, "QZBDFAR"])
def test_text_a_backdrop_filter_turns_invisible_reaches_no_reader(page, marker):
    send, result = page
    assert marker not in result, f"extract shows {marker}"
    assert found(send, marker) == 0, f"find finds {marker}"


@pytest.mark.parametrize("marker", [*KEPT, "QZBDINSIDE", "QZBDSCROLLED"])
def test_text_readable_through_a_backdrop_filter_is_kept(page, marker):
    send, result = page
    assert marker in result, f"extract dropped {marker}, which a person reads through its backdrop filter"
    assert found(send, marker) == 1, f"find missed {marker}"
