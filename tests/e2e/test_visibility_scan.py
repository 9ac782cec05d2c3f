"""The judgement's one scan of the document per call (extension/src/extract/page-scan.js, issue 18 speed) leaves out
only what no list could hold: the content of a `display: none` box (no boxes), and for the outlines and shadows of
page-decor.js the insides of pictures and of never-boxed elements. These pages check the places where a shortcut
would go wrong: an outline painted over text right after a nested SVG, a hidden subtree and a script (the scan must
climb back out of them to the right depth), near the top and below the viewport; and an opaque box inside an SVG
<foreignObject> painted over text below the viewport, which a reader without a walk (find) finds only when the
opaque layers are listed inside pictures too. A fixed white box inside a `display: none` subtree covers nothing.

Real Chromium, the real extension; the page is written inline into tests/fixtures/pages/extract/inline.html. Each
marker is asked of extract and of find (page-seen.js, a reader without a walk)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

RING = "outline:30px solid #fff;outline-offset:-30px;padding:4px"
NESTED_SVG = '<div><div><svg width="20" height="20"><g><g><rect width="5" height="5"></rect></g></g></svg></div></div>'
PAGE = f"""<!doctype html><html><head><style>body {{ font: 16px sans-serif; margin: 8px; color: #111; background: #fff }}
p {{ margin: 6px 0 }}</style></head><body>
<p>text KEEPFIRST</p>
{NESTED_SVG}
<p style="{RING}">carrier QZRINGAFTERSVG</p>
<div style="display:none"><div><div><span>x</span><div style="position:fixed;inset:0;background:#fff"></div></div></div></div>
<p style="{RING}">carrier QZRINGAFTERNONE</p>
<p>text KEEPAFTERNONE</p>
<script>void 0</script>
<p style="{RING}">carrier QZRINGAFTERSCRIPT</p>
<div style="height:3000px"></div>
<svg width="600" height="40" style="display:block"><foreignObject width="600" height="40"><div
 xmlns="http://www.w3.org/1999/xhtml" style="position:absolute;inset:0;background:#fff"></div></foreignObject></svg>
<p style="margin-top:-34px">carrier QZFOREIGNCOVER</p>
<div style="height:200px"></div>
<p>far text KEEPFAR</p>
{NESTED_SVG}
<p style="{RING}">carrier QZFARRING</p>
</body></html>"""

HIDDEN = ["RINGAFTERSVG", "RINGAFTERNONE", "RINGAFTERSCRIPT", "FARRING"]
KEPT = ["FIRST", "AFTERNONE", "FAR"]


@pytest.fixture
def scanned(act, fixture_server):
    send = written(act, fixture_server, PAGE)
    return send, extract(send, max_chars=100_000)


@pytest.mark.parametrize("kind", HIDDEN)
def test_an_outline_after_a_pruned_subtree_still_covers(scanned, kind):
    send, result = scanned
    assert f"QZ{kind}" not in json.dumps(result), f"extract shows {kind}"
    assert found(send, f"QZ{kind}") == 0, f"find finds {kind}"


def test_an_opaque_box_inside_a_picture_covers_text_below_the_viewport(scanned):
    send, _ = scanned
    assert found(send, "QZFOREIGNCOVER") == 0, "find finds the text under the foreignObject's box"


@pytest.mark.parametrize("kind", KEPT)
def test_text_beside_the_pruned_subtrees_is_kept(scanned, kind):
    send, result = scanned
    assert f"KEEP{kind}" in result["markdown"], f"extract deleted {kind}"
    assert found(send, f"KEEP{kind}") >= 1, f"find misses {kind}"
