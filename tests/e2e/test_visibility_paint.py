"""What is painted over text, and what clip-path cuts away, is judged from the rendering (issue 18): a box inside
the text's own element painted over it, a box painted over text below the viewport, a clip-path shape that leaves
none of the text's boxes; beside what a person reads although hit testing lists a box above it (an in-flow child or
sibling pulled under the text by a negative margin, a translucent child, inline children, text hit testing skips, a picture that never loaded)
and clip-paths that keep the text.

Pictures behind text are sampled (page-picture.js): text the colour of the image behind it is hidden (an image
under it, a box's background image), an in-flow picture pulled over earlier text hides it
(it paints later in tree order), readable text over a photo stays, and so does text over a picture whose colours
cannot be read (another origin's image taints the canvas).

Real Chromium, the real extension; the pages are written inline here (PAGE, PICTURES) into
tests/fixtures/pages/extract/inline.html. Each marker is asked of extract and of find (page-seen.js, a reader without
a walk)."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from tests.e2e.actions_helpers import wait_until
from tests.e2e.test_extract import extract, open_page

COVER = "position:absolute;inset:-2px;background:#fff"
# A picture that failed to load paints nothing: text under it stays.
BROKEN_BG = "position:absolute;inset:0;margin:0;background-image:url(/extract/no-such.png)"
BROKEN_IMG = "position:absolute;left:0;top:0;width:100%;height:100%"
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
<div style="position:relative"><p>over an image that never loaded KEEPNOIMAGE</p><span style="{BROKEN_BG}"></span></div>
<div style="position:relative"><p>over a broken picture KEEPBROKENIMG</p><img alt="" src="/extract/no-such.png" style="{BROKEN_IMG}"></div>
<div style="height:3000px"></div>
<div style="position:relative"><p>far over an image that never loaded KEEPFARNOIMAGE</p><span style="{BROKEN_BG}"></span></div>
<p><span style="position:relative;display:inline-block">carrier QZFAROWNBOX<span style="{COVER}"></span></span></p>
<div style="position:relative">text KEEPFARTINT<div style="position:absolute;inset:0;background:rgba(0,0,0,.1)"></div></div>
<div style="position:relative"><p>carrier QZFARCOVER</p><div style="position:absolute;inset:0;margin:0;background:#fff"></div></div>
<div style="position:relative"><div style="position:absolute;inset:0;margin:0;background:#ccc"></div><p style="position:relative">far KEEPFARUNDER</p></div>
<p style="margin:0">text KEEPFARFLOW</p><div style="margin-top:-18px;height:30px;background:#ddd"></div>
</body></html>"""

HIDDEN = ["OWNBOX", "NOPOINTERCOVER", "CLIPPOLY", "CLIPCIRCLE", "CLIPINSET", "CLIPPATH", "FAROWNBOX", "FARCOVER"]
KEPT = ["OWNTINT", "FLOWCHILD", "FLOWSIB", "INLINE", "BOLD", "LINK", "NOPOINTER", "CLIPROUND", "CLIPHALF", "ELLIPSE",
        "FARTINT", "FARUNDER", "FARFLOW", "NOIMAGE", "BROKENIMG", "FARNOIMAGE"]



def svg(body: str) -> str:
    return "data:image/svg+xml," + quote(f"<svg xmlns='http://www.w3.org/2000/svg' width='40' height='20'>{body}</svg>")


PALE = svg("<rect width='40' height='20' fill='#f4f4f4'/>")
PHOTO = svg("<rect width='40' height='20' fill='#eee'/><rect width='40' height='10' y='5' fill='#123'/><circle cx='30' cy='10' r='6' fill='#c84'/>")
UNDER = "position:absolute;left:0;top:0;width:100%;height:100%"
PICTURES = """<!doctype html><html><head><style>body {{ font: 16px sans-serif; margin: 8px; color: #111; background: #fff }}
.on {{ position: relative; margin: 8px 0; padding: 6px }} .on p {{ position: relative; margin: 0 }}</style></head><body>
<div class="on"><img alt="" style="{under}" src="{pale}"><p style="color:#f1f1f1">carrier QZIMGSAME</p></div>
<div class="on" style="background:#222"><img alt="" style="{under}" src="{pale}"><p style="color:#fff">carrier QZIMGDARKPAGE</p></div>
<div style="background:#222;padding:6px"><div style="background-image:url(&quot;{pale}&quot;);background-size:cover;color:#fff">carrier QZBGSAME</div></div>
<div class="on"><img alt="" style="{under}" src="{photo}"><p style="color:#fff">white over a photo KEEPPHOTO</p></div>
<div style="background-image:url(&quot;{photo}&quot;);background-size:100% 100%;color:#fff;padding:6px">white over a background photo KEEPBGPHOTO</div>
<div style="background-image:url(&quot;{photo}&quot;);background-size:cover;color:#fff;padding:6px">white over the pale top of a photo QZBGTOP</div>
<div class="on" style="background:#222"><img alt="" style="{under}" src="{cross}"><p style="color:#fff">white over another origin's pale picture QZCROSS</p></div>
<div class="on" style="background:#222"><img alt="" style="{under}" src="{cross}"><p style="color:#111">dark over another origin's pale picture KEEPCROSSDARK</p></div>
<p style="margin:0">carrier QZLATERIMG</p><img alt="" src="{pale}" style="display:block;margin-top:-22px;width:400px;height:30px">
<img alt="" src="{photo}" style="display:block;width:400px;height:30px;margin-bottom:-26px"><p style="margin:0;color:#fff">white after a photo KEEPEARLIERIMG</p>
<div style="height:3000px"></div>
<div class="on" style="background:#222"><img alt="" style="{under}" src="{pale}"><p style="color:#fff">carrier QZFARIMG</p></div>
<div class="on"><img alt="" style="{under}" src="{photo}"><p style="color:#fff">far white over a photo KEEPFARPHOTO</p></div>
</body></html>"""
# BGTOP: a cover-sized background shows only its pale top behind the text (the part behind the text is sampled).
# CROSS: another origin's picture, whose pixels page code cannot read, is judged from the rendering (page-pixels.js).
PICTURE_HIDDEN = ["IMGSAME", "IMGDARKPAGE", "BGSAME", "FARIMG", "LATERIMG", "BGTOP", "CROSS"]
PICTURE_KEPT = ["PHOTO", "BGPHOTO", "CROSSDARK", "FARPHOTO", "EARLIERIMG"]


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


@pytest.fixture
def pictured(act, fixture_server):
    cross = fixture_server.url("/extract/pale.svg", host="localhost")
    send = written(act, fixture_server, PICTURES.format(under=UNDER, pale=PALE, photo=PHOTO, cross=cross))
    loaded = "[...document.images].every((img) => img.complete)"
    assert wait_until(lambda: send({"type": "evaluate", "expression": loaded}).result["value"]), "the pictures load"
    return send, extract(send, max_chars=100_000)


@pytest.mark.parametrize("kind", PICTURE_HIDDEN)
def test_text_the_colour_of_the_picture_behind_it_is_hidden(pictured, kind):
    send, result = pictured
    assert f"QZ{kind}" not in json.dumps(result), f"extract shows {kind}"
    assert found(send, f"QZ{kind}") == 0, f"find finds {kind}"


@pytest.mark.parametrize("kind", PICTURE_KEPT)
def test_readable_text_over_a_picture_is_kept(pictured, kind):
    send, result = pictured
    assert f"KEEP{kind}" in result["markdown"], f"extract deleted {kind}"
    assert found(send, f"KEEP{kind}") >= 1, f"find misses {kind}"

