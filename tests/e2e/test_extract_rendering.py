"""extract judges visibility from the rendering (issue 18): one carrier per way of hiding text that a CSS rule list
missed (transforms and zoom, effective opacity, colours in any syntax, covering boxes, tiny or scrolled clipping
boxes, off-screen in any direction, <pre>, hidden options, a transparent field, a tiny cross-site frame), each with a
marker that must not reach the model, beside texts a person can read (dark colour scheme, translucent backgrounds,
white text over a picture far down the page, a scroll box, a rotated line) that must.

Real Chromium, the real extension, fixture pages on 127.0.0.1 (tests/fixtures/pages/extract/hidden-rendering.html).
"""

from __future__ import annotations

import json
import re

import pytest

from tests.e2e.test_extract import extract, open_page

CARRIERS = ["UNDERHEADER", "SCALE", "ROTATE", "SQUASH", "ZOOM", "SPACING", "ANCESTOR-OPACITY", "LOW-OPACITY",
            "FILTER", "CONTRAST-FILTER", "BLUR", "MASK", "COLOR-FN", "OKLCH", "LAB", "HSL-ALPHA", "GRADIENT",
            "OVERLAY", "SIBLING", "THIN-BOX", "NARROW-BOX", "SCROLLED", "BELOW-CLIP", "RIGHT", "INDENT", "FIXED-UP",
            "PRE", "OPTION", "OPTION2", "FIELD", "IN-LINK", "TINY-FRAME"]
KEPT = ["VISIBLE-TITLE", "VISIBLE-PLAIN", "VISIBLE-PRE", "VISIBLE-OPTION", "VISIBLE-LINK",
        "VISIBLE-TRANSLUCENT-PANEL", "VISIBLE-FADED", "VISIBLE-FAR-PICTURE", "VISIBLE-SCROLL-BOX",
        "VISIBLE-SCROLL-BOX-LATER", "VISIBLE-CAROUSEL-END", "VISIBLE-ROTATED", "Shown after scroll",
        "VISIBLE-CONTRAST-GREY"]


@pytest.fixture
def rendered(act, fixture_server) -> dict:
    child = fixture_server.url("/extract/hidden-rendering-frame.html", host="localhost")
    send = open_page(act, fixture_server, f"hidden-rendering.html?child={child}")
    # No wait for the cross-site frame: navigate answers after the load event, which waits for the frame, and the
    # frame cannot load before the extension's session on it resumes it (auto-attach, waitForDebuggerOnStart).
    return extract(send, max_chars=100_000)


@pytest.mark.parametrize("carrier", CARRIERS)
def test_text_the_rendering_hides_never_reaches_the_model(rendered, carrier):
    assert f"CARRIER-{carrier}" not in json.dumps(rendered), f"{carrier} reached the model"


def test_hidden_text_is_counted_and_no_note_of_the_tiny_frame(rendered):
    assert rendered["hidden_chars"] >= 25 * len("CARRIER-X ignore"), rendered["hidden_chars"]
    assert "iframe" not in rendered["markdown"], "a frame nobody can read is neither read nor noted"
    assert rendered["text"] == "", "the innerText fallback never brings hidden text back"


@pytest.mark.parametrize("marker", KEPT)
def test_text_a_person_can_read_is_kept(rendered, marker):
    seen = rendered["markdown"] + "\n" + rendered["elements"]
    assert marker in seen, f"{marker} was deleted"


def test_pre_keeps_its_lines(rendered):
    assert re.search(r"```\n?\s*visible code VISIBLE-PRE", rendered["markdown"]), rendered["markdown"]


@pytest.mark.parametrize("query", ["scheme=dark", "body=translucent", "scheme=dark&body=translucent"])
def test_dark_schemes_and_translucent_bodies_keep_their_text(act, fixture_server, query):
    result = extract(open_page(act, fixture_server, f"kept-rendering.html?{query}"))
    for marker in ("KEPT-HEADING", "KEPT-DEFAULT-COLOUR", "KEPT-LIGHT-TEXT"):
        assert marker in result["markdown"], (query, result)
    assert not result.get("hidden_chars"), (query, result)


def test_light_text_on_the_light_canvas_is_still_hidden(act, fixture_server):
    result = extract(open_page(act, fixture_server, "kept-rendering.html"))
    assert "KEPT-LIGHT-TEXT" not in result["markdown"], "#f4f4f4 on white: the judgement still bites"
    assert "KEPT-DEFAULT-COLOUR" in result["markdown"]


def test_a_scoped_extract_is_judged_in_what_its_ancestors_make_of_it(act, fixture_server):
    send = open_page(act, fixture_server, "hidden-rendering.html")
    faded = extract(send, selector="#faded")
    assert "CARRIER-ANCESTOR-OPACITY" not in json.dumps(faded), "opacity 0.2 x 0.2 of ancestors outside the scope"
    assert faded["hidden_chars"] > 0
    assert "VISIBLE-PLAIN" in extract(send, selector="main > p")["markdown"], "a visible scope still reads"
