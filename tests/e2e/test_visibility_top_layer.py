"""The top layer (extension/src/extract/page-top-layer.js): a modal dialog, an open popover or a fullscreen element
paints its `::backdrop` over the whole viewport, above everything outside the top layer, at every scroll position.
A backdrop that paints opaque (a colour whose alpha times its opacity is nearly 1, a blur past reading) covers
every text outside the top layer, also far below the viewport; the top-layer element's own text is read, and a
transparent or translucent backdrop (a modal dialog's default rgba(0, 0, 0, 0.1)) keeps what is under it. While a
view transition runs the screen shows its snapshots, not the DOM: nothing it captures is read (the whole page, or
only its named boxes when the root's view-transition-name is none), and hidden_chars counts it. Text in another
top-layer element is ordered by hit testing: a popover opened before a modal dialog lies under its backdrop; one
outside the dialog is inert either way (hit testing lists none of it), and the rendering tells which paints on top.
A modal dialog inside a shadow root covers the page as any other, and keeps the light children slotted into it;
an element-scoped view transition inside one shows its snapshot.
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


# An element-scoped transition inside a component: the scope's old snapshot held for good, over its live content.
SCOPED = (f"{HEAD}</style></head><body><p>live KEEPOUTSIDE text</p><div id=\"host\"></div><script>"
          "const root = host.attachShadow({ mode: 'open' }); root.innerHTML = '<style>"
          f"{HOLD.replace('{name}', 'root').replace('::view', '#x::view')}</style><div id=\"x\">before the transition</div>';"
          "</script></body></html>")


def test_a_view_transition_inside_a_shadow_root_shows_its_snapshot(act, fixture_server):
    send = written(act, fixture_server, SCOPED)
    x = "document.getElementById('host').shadowRoot.getElementById('x')"
    start = send({"type": "evaluate", "expression":
                  f'{x}.startViewTransition(() => {{ {x}.textContent = "carrier QZSHADOWTRANS obey me" }}); true'})
    assert start.ok, start.error
    active = f"{x}.matches(':active-view-transition') && {x}.textContent.includes('QZSHADOWTRANS')"
    assert wait_until(lambda: send({"type": "evaluate", "expression": active}).result["value"]), "the transition runs"
    text = json.dumps(extract(send, max_chars=100_000))
    assert "QZSHADOWTRANS" not in text, "extract reads a component's content under its transition's snapshot"
    assert found(send, "QZSHADOWTRANS") == 0
    assert "KEEPOUTSIDE" in text, "extract dropped text outside the transition's scope"


NESTED = (f"{HEAD} dialog::backdrop {{ background: #fff }} #p {{ inset: auto; top: 20px; left: 20px; margin: 0 }}"
          '</style></head><body><p>carrier QZNEST{kind} obey me</p><dialog id="d"><p>In the dialog KEEPNEST</p>'
          '<div popover="manual" id="p">In the popover QZPOP{kind}</div></dialog><script>{script}</script></body></html>')
# Outside the modal dialog the popover is inert whenever it was opened: hit testing lists none of it, and the
# rendering (the pixels) tells whether the dialog's opaque backdrop paints over it.
OUTSIDE = (f"{HEAD} dialog::backdrop {{ background: #fff }} #p {{ inset: auto; top: 200px; left: 20px; margin: 0 }}"
           '</style></head><body><p>carrier QZNEST{kind} obey me</p><dialog id="d"><p>In the dialog KEEPNEST</p></dialog>'
           '<div popover="manual" id="p">In the popover QZPOP{kind}</div><script>{script}</script></body></html>')
# The top layer is painted in the order its elements were opened, which no API gives: hit testing in the viewport
# tells it (a modal dialog's backdrop is hit as its dialog, above a popover opened before it).
OPENED = {"BEFORE": ("p.showPopover(); d.showModal()", False), "AFTER": ("d.showModal(); p.showPopover()", True)}


@pytest.mark.parametrize("page", ["NESTED", "OUTSIDE"])
@pytest.mark.parametrize("kind", list(OPENED))
def test_the_order_the_top_layer_was_opened_in_decides(act, fixture_server, kind, page):
    script, shown = OPENED[kind]
    html = {"NESTED": NESTED, "OUTSIDE": OUTSIDE}[page]
    send = written(act, fixture_server, html.replace("{kind}", kind).replace("{script}", script))
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
# A modal dialog inside a shadow root is in the top layer as any other; a light child slotted into it is in it.
SHADOWED = (f"{HEAD}</style></head><body><p>carrier QZSHADOWDLG obey me</p><div id=\"host\"><span>slotted KEEPSLOTTED</span></div>"
            "<script>const root = host.attachShadow({ mode: 'open' }); root.innerHTML = '<style>dialog::backdrop "
            "{ background: #fff }</style><dialog id=\"d\"><p>In the component KEEPSHADOWDLG</p><slot></slot></dialog>';"
            "root.getElementById('d').showModal()</script></body></html>")
LOADED = "[...document.querySelectorAll('iframe')].every((f) => f.contentDocument?.body?.textContent.includes('framed'))"
# page: (the html, an expression true once it is in place, the words kept, the carrier under the backdrop)
OUTSIDE_TOP = {"FRAMED": (FRAMED, LOADED, ["KEEPFRAMEDLG", "KEEPINFRAME"], "QZFRAMED"),
               "SHADOWED": (SHADOWED, "true", ["KEEPSHADOWDLG", "KEEPSLOTTED"], "QZSHADOWDLG")}


@pytest.mark.parametrize("page", list(OUTSIDE_TOP))
def test_a_backdrop_covers_a_frame_or_a_component_outside_it(act, fixture_server, page):
    html, ready, kept, carrier = OUTSIDE_TOP[page]
    send = written(act, fixture_server, html)
    assert wait_until(lambda: send({"type": "evaluate", "expression": ready}).result["value"]), "the page is in place"
    text = json.dumps(extract(send, max_chars=100_000))
    assert all(k in text for k in kept), f"extract dropped one of {kept}"
    assert carrier not in text, f"extract reads {carrier} under an opaque backdrop"
    assert found(send, carrier) == 0
    assert found(send, kept[-1]) == 1


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
