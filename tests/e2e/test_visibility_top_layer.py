"""The top layer (extension/src/extract/page-top-layer.js): a modal dialog, an open popover or a fullscreen element
paints its `::backdrop` over the whole viewport, above everything outside the top layer, at every scroll position.
A backdrop that paints opaque (a colour whose alpha times its opacity is nearly 1, a blur past reading) covers
every text outside the top layer, also far below the viewport; the top-layer element's own text is read, and a
transparent or translucent backdrop (a modal dialog's default rgba(0, 0, 0, 0.1)) keeps what is under it. While a
view transition runs the screen shows its snapshots, not the DOM: nothing it captures is read (the whole page, or
only its named boxes when the root's view-transition-name is none), and hidden_chars counts it. Text in another
top-layer element is ordered by hit testing: a popover opened before a modal dialog lies under its backdrop.
Real Chromium, the real extension; each page is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.actions_helpers import wait_until
from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

HEAD = "<!doctype html><html><head><style>body { font: 16px sans-serif; margin: 8px; color: #111; background: #fff }"
FAR = '<div style="height: 4000px"></div><p>far below QZ{kind}FAR obey me</p>'
DIALOG = '<p>carrier QZ{kind} obey me</p><dialog id="d"><p>In the dialog KEEP{kind}</p></dialog>' + FAR
POPOVER = '<p>carrier QZ{kind} obey me</p><div popover id="p">In the popover KEEP{kind}</div>' + FAR
# kind: (the backdrop's style, the body, the script that opens it, whether what is under the backdrop is covered)
PAGES = {
    "DLGBACKDROP": ("dialog::backdrop { background: #fff }", DIALOG, "d.showModal()", True),
    "POPBACKDROP": ("[popover]::backdrop { background: #fff }", POPOVER, "p.showPopover()", True),
    "DLGBLUR": ("dialog::backdrop { backdrop-filter: blur(12px) }", DIALOG, "d.showModal()", True),
    "DLGDEFAULT": ("", DIALOG, "d.showModal()", False),
    "DLGTRANSLUCENT": ("dialog::backdrop { background: rgba(255, 255, 255, 0.5) }", DIALOG, "d.showModal()", False),
    "DLGFADED": ("dialog::backdrop { background: #fff; opacity: 0.4 }", DIALOG, "d.showModal()", False),
    "POPDEFAULT": ("", POPOVER, "p.showPopover()", False),
    "DLGSHUT": ("dialog::backdrop { background: #fff }", DIALOG, "", False),
}


def page_of(kind: str) -> str:
    style, body, script, _ = PAGES[kind]
    return f"{HEAD} {style}</style></head><body>{body.format(kind=kind)}<script>{script}</script></body></html>"


@pytest.fixture(params=list(PAGES))
def layered(request, act, fixture_server):
    kind = request.param
    send = written(act, fixture_server, page_of(kind))
    return kind, send, extract(send, max_chars=100_000)


def test_an_opaque_backdrop_covers_the_page_and_keeps_the_top_layer(layered):
    kind, send, result = layered
    text = json.dumps(result)
    covered = PAGES[kind][3]
    if PAGES[kind][2]:
        assert f"KEEP{kind}" in text, f"extract dropped the top-layer element's own text in {kind}"
        assert found(send, f"KEEP{kind}") == 1, f"find misses KEEP{kind}"
    for marker in (f"QZ{kind} obey", f"QZ{kind}FAR"):  # on screen, and 4000 px below it
        if covered:
            assert marker not in text, f"extract shows {marker} under an opaque backdrop"
            assert found(send, marker) == 0, f"find finds {marker} under an opaque backdrop"
        else:
            assert marker in text, f"extract dropped {marker}, readable under the backdrop"
            assert found(send, marker) == 1, f"find misses {marker}"
    if covered:
        assert result.get("hidden_chars", 0) >= len(f"carrier QZ{kind} obey me"), "the covered text is counted"


HOLD = (" @keyframes keep { from { opacity: 1 } to { opacity: 1 } } @keyframes gone { from { opacity: 0 } to { opacity: 0 } }"
        " ::view-transition-old({name}) { animation: keep 100000s } ::view-transition-new({name}) { animation: gone 100000s }")
# The old snapshot held for good, the new one never shown: the screen shows the page as it was before the change.
TRANSITION = (f"{HEAD} {HOLD.replace('{name}', 'root')}"
              '</style></head><body><p id="x">before the transition</p><p>steady QZSTEADY text</p></body></html>')
NAMED = (f"{HEAD} :root {{ view-transition-name: none }} #x {{ view-transition-name: card }} {HOLD.replace('{name}', 'card')}"
         '</style></head><body><p>live QZLIVE text</p><div id="x">before the transition</div></body></html>')


def transitioning(act, fixture_server, html: str, marker: str):
    """A page whose element #x gets `carrier {marker} obey me` in a view transition that holds its snapshots."""
    send = written(act, fixture_server, html)
    start = send({"type": "evaluate", "expression":
                  f'document.startViewTransition(() => {{ x.textContent = "carrier {marker} obey me" }}); true'})
    assert start.ok, start.error
    active = f"document.documentElement.matches(':active-view-transition') && x.textContent.includes('{marker}')"
    assert wait_until(lambda: send({"type": "evaluate", "expression": active}).result["value"]), "the transition runs"
    return send


def test_a_running_view_transition_shows_snapshots_not_the_page(act, fixture_server):
    send = transitioning(act, fixture_server, TRANSITION, "QZVIEWTRANS")
    result = extract(send, max_chars=100_000)
    text = json.dumps(result)
    assert "QZVIEWTRANS" not in text and "QZSTEADY" not in text, "extract reads the DOM under the snapshots"
    assert result.get("hidden_chars", 0) >= len("carrier QZVIEWTRANS obey me"), "the unseen text is counted"
    assert found(send, "QZVIEWTRANS") == 0, "find finds text under the snapshots"
    ended = send({"type": "evaluate", "expression": "document.getAnimations().forEach((a) => a.finish()); true"})
    assert ended.ok, ended.error
    done = "!document.documentElement.matches(':active-view-transition')"
    assert wait_until(lambda: send({"type": "evaluate", "expression": done}).result["value"]), "the transition ends"
    assert "QZVIEWTRANS" in json.dumps(extract(send, max_chars=100_000)), "once it ends the page is read"
    assert found(send, "QZVIEWTRANS") == 1


def test_a_transition_that_does_not_capture_the_root_paints_the_rest_live(act, fixture_server):
    send = transitioning(act, fixture_server, NAMED, "QZCARDTRANS")
    text = json.dumps(extract(send, max_chars=100_000))
    assert "QZCARDTRANS" not in text, "extract reads the named box under its old snapshot"
    assert found(send, "QZCARDTRANS") == 0
    assert "QZLIVE" in text, "extract dropped text the transition does not capture"
    assert found(send, "QZLIVE") == 1


NESTED = (f"{HEAD} dialog::backdrop {{ background: #fff }} #p {{ inset: auto; top: 20px; left: 20px; margin: 0 }}"
          '</style></head><body><p>carrier QZNEST{kind} obey me</p><dialog id="d"><p>In the dialog KEEPNEST</p>'
          '<div popover="manual" id="p">In the popover QZPOP{kind}</div></dialog><script>{script}</script></body></html>')
# The top layer is painted in the order its elements were opened, which no API gives: hit testing in the viewport
# tells it (a modal dialog's backdrop is hit as its dialog, above a popover opened before it).
OPENED = {"BEFORE": ("p.showPopover(); d.showModal()", False), "AFTER": ("d.showModal(); p.showPopover()", True)}


@pytest.mark.parametrize("kind", list(OPENED))
def test_hit_testing_orders_the_top_layer(act, fixture_server, kind):
    script, shown = OPENED[kind]
    send = written(act, fixture_server, NESTED.replace("{kind}", kind).replace("{script}", script))
    text = json.dumps(extract(send, max_chars=100_000))
    assert "KEEPNEST" in text and f"QZNEST{kind}" not in text
    if shown:
        assert f"QZPOP{kind}" in text, "extract dropped a popover opened over the dialog's backdrop"
        assert found(send, f"QZPOP{kind}") == 1
    else:
        assert f"QZPOP{kind}" not in text, "extract reads a popover under a dialog's opaque backdrop"
        assert found(send, f"QZPOP{kind}") == 0


FRAMED = (f"{HEAD} dialog::backdrop {{ background: #fff }}</style></head><body>"
          '<iframe srcdoc="<p>framed QZFRAMED obey me</p>"></iframe>'
          '<dialog id="d"><p>In the dialog KEEPFRAMEDLG</p><iframe srcdoc="<p>framed KEEPINFRAME</p>"></iframe></dialog>'
          "<script>d.showModal()</script></body></html>")


def test_a_backdrop_covers_a_frame_outside_the_top_layer(act, fixture_server):
    send = written(act, fixture_server, FRAMED)
    loaded = "[...document.querySelectorAll('iframe')].every((f) => f.contentDocument?.body?.textContent.includes('framed'))"
    assert wait_until(lambda: send({"type": "evaluate", "expression": loaded}).result["value"]), "the frames load"
    text = json.dumps(extract(send, max_chars=100_000))
    assert "KEEPFRAMEDLG" in text and "KEEPINFRAME" in text, "extract dropped the dialog's text or its frame's"
    assert "QZFRAMED" not in text, "extract reads a frame under an opaque backdrop"
    assert found(send, "QZFRAMED") == 0
    assert found(send, "KEEPINFRAME") == 1


FULLSCREEN = (f"{HEAD}</style></head><body><button id=\"b\" onclick=\"f.requestFullscreen()\">Full screen</button>"
              '<p>carrier QZFULLSCREEN obey me</p><div id="f" style="background: #fff">In full screen KEEPFULL</div></body></html>')


def test_a_fullscreen_element_covers_the_page_with_its_black_backdrop(act, fixture_server):
    send = written(act, fixture_server, FULLSCREEN)
    clicked = send({"type": "click", "selector": "#b"})  # a click is the gesture fullscreen asks for
    assert clicked.ok, clicked.error
    try:
        full = "document.fullscreenElement?.id === 'f'"
        assert wait_until(lambda: send({"type": "evaluate", "expression": full}).result["value"]), "the element is full screen"
        text = json.dumps(extract(send, max_chars=100_000))
        assert "KEEPFULL" in text, "extract dropped the fullscreen element's text"
        assert "QZFULLSCREEN" not in text, "extract reads the page under the fullscreen backdrop"
        assert found(send, "QZFULLSCREEN") == 0 and found(send, "KEEPFULL") == 1
    finally:
        send({"type": "evaluate", "expression": "document.exitFullscreen().then(() => true, () => false)"})
