"""What is painted over text, and what clip-path cuts away, is judged from the rendering (issue 18): a box inside
the text's own element painted over it, a box painted over text below the viewport, a clip-path shape that leaves
none of the text's boxes; beside what a person reads although hit testing lists a box above it (an in-flow child or
sibling pulled under the text by a negative margin, a translucent child, inline children, text hit testing skips)
and clip-paths that keep the text.

Real Chromium, the real extension; the page is written inline here (PAGE) into tests/fixtures/pages/extract/inline.html.
Each marker is asked of extract and of find (page-seen.js, a reader without a walk)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract, open_page

COVER = "position:absolute;inset:-2px;background:#fff"
PAGE = f"""<!doctype html><html><head><style>body {{ font: 16px sans-serif; margin: 8px; color: #111; background: #fff }}
p, div {{ margin: 6px 0 }}</style></head><body>
<p><span style="position:relative;display:inline-block">carrier QZOWNBOX<span style="{COVER}"></span></span></p>
<div style="position:relative">text KEEPOWNTINT<div style="position:absolute;inset:0;background:rgba(0,0,0,.1)"></div></div>
<div>text KEEPFLOWCHILD<div style="margin-top:-20px;height:30px;background:#eee"></div></div>
<p style="margin:0">text KEEPFLOWSIB</p><div style="margin-top:-18px;height:30px;background:#ddd"></div>
<p>text KEEPINLINE <b>bold KEEPBOLD</b> and <a href="#x">link KEEPLINK</a></p>
<div style="position:relative"><div style="position:absolute;inset:0;margin:0;background:#ccc"></div><p style="position:relative;pointer-events:none">title KEEPNOPOINTER</p></div>
<div style="position:relative"><p style="pointer-events:none">carrier QZNOPOINTERCOVER</p><div style="position:absolute;inset:0;margin:0;background:#fff"></div></div>
<div style="clip-path:polygon(0 0, 5% 0, 5% 5%, 0 5%)">carrier QZCLIPPOLY with more words</div>
<div style="clip-path:circle(2px at 0 0)">carrier QZCLIPCIRCLE</div>
<div style="clip-path:inset(0 0 95% 0)">carrier QZCLIPINSET</div>
<div style="clip-path:path('M0 0 L4 0 L4 4 Z')"><span>carrier QZCLIPPATH</span></div>
<div style="clip-path:inset(0 round 8px);background:#eef;padding:4px">rounded KEEPCLIPROUND</div>
<div style="clip-path:polygon(0 0, 60% 0, 60% 100%, 0 100%)"><span>KEEPCLIPHALF</span> and a few words</div>
<div style="width:300px;clip-path:ellipse(50% 50%)">KEEPELLIPSE</div>
<div style="height:3000px"></div>
<p><span style="position:relative;display:inline-block">carrier QZFAROWNBOX<span style="{COVER}"></span></span></p>
<div style="position:relative">text KEEPFARTINT<div style="position:absolute;inset:0;background:rgba(0,0,0,.1)"></div></div>
<div style="position:relative"><p>carrier QZFARCOVER</p><div style="position:absolute;inset:0;margin:0;background:#fff"></div></div>
<div style="position:relative"><div style="position:absolute;inset:0;margin:0;background:#ccc"></div><p style="position:relative">far KEEPFARUNDER</p></div>
<p style="margin:0">text KEEPFARFLOW</p><div style="margin-top:-18px;height:30px;background:#ddd"></div>
</body></html>"""

HIDDEN = ["OWNBOX", "NOPOINTERCOVER", "CLIPPOLY", "CLIPCIRCLE", "CLIPINSET", "CLIPPATH", "FAROWNBOX", "FARCOVER"]
KEPT = ["OWNTINT", "FLOWCHILD", "FLOWSIB", "INLINE", "BOLD", "LINK", "NOPOINTER", "CLIPROUND", "CLIPHALF", "ELLIPSE",
        "FARTINT", "FARUNDER", "FARFLOW"]


def written(act, fixture_server, html: str):
    """A fresh tab on the inline page, with `html` as its document; returns send(action)."""
    send = open_page(act, fixture_server, "inline.html")
    wrote = send({"type": "evaluate", "expression": f"document.open(); document.write({json.dumps(html)}); document.close(); true"})
    assert wrote.ok, wrote.error
    return send


@pytest.fixture
def painted(act, fixture_server):
    send = written(act, fixture_server, PAGE)
    return send, extract(send, max_chars=100_000)


def found(send, text: str) -> int:
    response = send({"type": "find", "text": text, "limit": 20})
    assert response.ok, response.error
    return response.result["total"]


@pytest.mark.parametrize("kind", HIDDEN)
def test_covered_or_clipped_text_reaches_no_reader(painted, kind):
    send, result = painted
    assert f"QZ{kind}" not in json.dumps(result), f"extract shows {kind}"
    assert found(send, f"QZ{kind}") == 0, f"find finds {kind}"


@pytest.mark.parametrize("kind", KEPT)
def test_text_a_person_reads_is_kept(painted, kind):
    send, result = painted
    assert f"KEEP{kind}" in result["markdown"] + result["elements"], f"extract deleted {kind}"
    assert found(send, f"KEEP{kind}") >= 1, f"find misses {kind}"
