"""Closed shadow roots (extension/src/extract/closed-roots.js, page-shadow.js): a root page code attached with
`attachShadow({mode: "closed"})`, on a div or on a custom element, is read and judged like an open one by every
reader. Text only inside it is kept (extract, find, wait_for); its own styles over the light children it slots
through <slot> (an opacity:0 wrapper, a clip-path inset(50%) wrapper, an opaque cover painted over the slot) keep
those children out of extract, find and wait_for's seen text. Closed inside open and open inside closed, a closed
root in a same-origin iframe, and a closed root attached after the library was installed are judged the same.
Each page is read first by find (before any extract), so no reader depends on an extract having run.
Real Chromium, the real extension; each page is written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json
import time

from tests.e2e.actions_helpers import wait_until
from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

HEAD = "<!doctype html><html><head><style>body { font: 16px sans-serif; margin: 8px; color: #111; background: #fff }"
# The inner HTML of a closed root per kind: its own readable text, and how it shows its slotted light children.
INNER = {
    "OPACITY": '<p>Own text KEEPOPACITY here</p><div style="opacity: 0"><slot></slot></div>',
    "CLIP": '<p>Own text KEEPCLIP here</p><div style="clip-path: inset(50%)"><slot></slot></div>',
    "COVER": ('<p>Own text KEEPCOVER here</p><div style="position: relative"><slot></slot>'
              '<div style="position: absolute; inset: 0; background: #fff"></div></div>'),
    "PLAIN": '<p>Own text KEEPPLAIN here</p><div><slot></slot></div>',
}
HIDING = ("OPACITY", "CLIP", "COVER")

ATTACH = """
function closedRoot(host, html) { const root = host.attachShadow({mode: "closed"}); root.innerHTML = html; return root; }
"""


def hosts(prefix: str) -> str:
    """A div per kind, whose light child (`carrier QZ<prefix><kind>`) its closed root slots."""
    return "".join(f'<div id="{prefix}{kind}"><p>carrier QZ{prefix}{kind} obey me</p></div>' for kind in INNER)


def attach(prefix: str, into: str = "document") -> str:
    inner = {k: v.replace("KEEP", f"KEEP{prefix}") for k, v in INNER.items()}
    return "".join(f"closedRoot({into}.getElementById({json.dumps(prefix + k)}), {json.dumps(v)});" for k, v in inner.items())


def page(body: str, script: str) -> str:
    return f"{HEAD}</style></head><body>{body}<script>{ATTACH}{script}</script></body></html>"


def assert_judged(send, prefixes: list[str], waits: bool = True) -> None:
    """Each prefix's kinds: own text kept, hidden slotted carriers out, a plainly slotted one kept; by find, extract
    and wait_for (`waits`: wait_for reads the top document only, so a frame's own text is not waited for). find runs
    first: it must not need an extract to have found the roots."""
    for prefix in prefixes:
        for kind in INNER:
            assert found(send, f"KEEP{prefix}{kind}") == 1, f"find misses the closed root's own text KEEP{prefix}{kind}"
    text = json.dumps(extract(send, max_chars=100_000))
    for prefix in prefixes:
        for kind in INNER:
            assert f"KEEP{prefix}{kind}" in text, f"extract dropped the closed root's own text KEEP{prefix}{kind}"
        for kind in HIDING:
            marker = f"QZ{prefix}{kind}"
            assert marker not in text, f"extract shows {marker}, hidden by its closed root's {kind.lower()}"
            assert found(send, marker) == 0, f"find finds {marker}, hidden by its closed root's {kind.lower()}"
            waited = send({"type": "wait_for", "text": marker, "timeout_ms": 150})
            assert not waited.ok and waited.error.code == "timeout", f"wait_for sees {marker}: {waited}"
        assert f"QZ{prefix}PLAIN" in text, f"extract dropped QZ{prefix}PLAIN, slotted plainly"
        assert found(send, f"QZ{prefix}PLAIN") == 1, f"find misses QZ{prefix}PLAIN, slotted plainly"
    if waits:
        assert send({"type": "wait_for", "text": f"KEEP{prefixes[0]}OPACITY", "timeout_ms": 2000}).ok


def test_closed_roots_on_divs_are_read_and_judged(act, fixture_server):
    send = written(act, fixture_server, page(hosts("D"), attach("D")))
    assert_judged(send, ["D"])
    for kind in HIDING:  # select_text reads the host as a person sees it: the root's own text, not the carrier
        whole = send({"type": "select_text", "selector": f"#D{kind}"})
        assert whole.ok and f"KEEPD{kind}" in json.dumps(whole.result), f"select_text of #D{kind}: {whole}"
        assert f"QZD{kind}" not in json.dumps(whole.result), f"select_text shows QZD{kind}"
        part = send({"type": "select_text", "selector": f"#D{kind}", "text": f"QZD{kind}"})
        assert not part.ok and part.error.code == "invalid_action", f"select_text selects hidden QZD{kind}: {part}"


def test_closed_roots_on_custom_elements_are_read_and_judged(act, fixture_server):
    body = "".join(f'<x-{k.lower()}><p>carrier QZC{k} obey me</p></x-{k.lower()}>' for k in INNER)
    define = "".join(
        f"customElements.define('x-{k.lower()}', class extends HTMLElement {{ constructor() {{ super(); "
        f"closedRoot(this, {json.dumps(v.replace('KEEP', 'KEEPC'))}); }} }});" for k, v in INNER.items())
    send = written(act, fixture_server, page(body, define))
    assert_judged(send, ["C"])


def test_closed_inside_open_and_open_inside_closed(act, fixture_server):
    # O: closed roots on divs inside an open root; I: divs with closed roots inside an open root inside a closed one.
    script = (f"const open = document.getElementById('outer').attachShadow({{mode: 'open'}}); open.innerHTML = {json.dumps(hosts('O'))};"
              + attach("O", "open")
              + "const shut = closedRoot(document.getElementById('outer2'), '<div id=\"mid\"></div>');"
              + f"const mid = shut.getElementById('mid').attachShadow({{mode: 'open'}}); mid.innerHTML = {json.dumps(hosts('I'))};"
              + attach("I", "mid"))
    send = written(act, fixture_server, page('<div id="outer"></div><div id="outer2"></div>', script))
    assert_judged(send, ["O", "I"])


def test_a_closed_root_in_a_same_origin_frame(act, fixture_server):
    inner = page(hosts("F"), attach("F"))
    body = f'<p>Top</p><iframe style="width: 600px; height: 900px; border: 0" srcdoc="{inner.replace("&", "&amp;").replace(chr(34), "&quot;")}"></iframe>'
    send = written(act, fixture_server, page(body, ""))
    ready = "document.querySelector('iframe').contentDocument?.getElementById('FPLAIN') !== null"
    assert wait_until(lambda: send({"type": "evaluate", "expression": ready}).result["value"]), "the frame loads"
    assert_judged(send, ["F"], waits=False)


def test_a_closed_root_attached_after_the_library_is_installed(act, fixture_server):
    send = written(act, fixture_server, page(hosts("L"), ""))
    first = json.dumps(extract(send, max_chars=100_000))
    assert "QZLOPACITY" in first, "before its root is attached the carrier is plain text"
    attached = send({"type": "evaluate", "expression": ATTACH + attach("L") + "true"})
    assert attached.ok, attached.error
    # No mutation tells a root attached to an element already in the page: the next whole walk finds it, due
    # CLOSED_WALK_MS (2 s) after the last on a page this small (page-shadow.js).
    time.sleep(2.2)
    assert_judged(send, ["L"])
