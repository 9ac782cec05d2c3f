"""The judgement's layout facts last one synchronous call (extension/src/extract/page-render.js `factsOf`, cleared in
a microtask; `styleOf` reads each computed property once per element and call; page-scan.js scans once per call):
a page's script that changes styles between two calls, without touching the DOM (a stylesheet rule edited through
the CSSOM, which no mutation observer sees), is judged afresh by the next call of every reader.

Each carrier is a text whose look one rule decides: the opacity of its parent (render context), its colour against
the page's background (colour judgement), an outline ring over it (the scan's decorations), and an opaque box
painted over it by a positioned sibling (covering). Per carrier, extract and find read the page three times: shown,
then hidden by a rule edit, then shown again by the opposite edit. Real Chromium, the real extension; the page is
written inline into tests/fixtures/pages/extract/inline.html."""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract
from tests.e2e.test_visibility_paint import found, written

# Each rule: (selector, its declarations while the text shows, while it is hidden).
RULES = {
    "OPACITY": (".opacity", "opacity: 1", "opacity: 0"),
    "COLOUR": (".colour", "color: #111", "color: #fff"),
    "RING": (".ring", "outline: 0px solid #fff; outline-offset: 0", "outline: 30px solid #fff; outline-offset: -30px"),
    "COVER": (".cover", "background: transparent", "background: #fff"),
}
STYLE = "\n".join(f"{sel} {{ {shown} }}" for sel, shown, _ in RULES.values())
PAGE = f"""<!doctype html><html><head><style>body {{ font: 16px sans-serif; margin: 8px; color: #111; background: #fff }}
p {{ margin: 12px 0; padding: 4px }}
.box {{ position: relative }} .cover {{ position: absolute; inset: 0 }}</style><style id="rules">{STYLE}</style></head><body>
<p>text QZSTEADY</p>
<div class="opacity"><p>carrier QZOPACITY</p></div>
<p class="colour">carrier QZCOLOUR</p>
<p class="ring">carrier QZRING</p>
<div class="box"><p>carrier QZCOVER</p><div class="cover"></div></div>
</body></html>"""


def restyle(send, kind: str, hidden: bool) -> None:
    """Edit the carrier's rule in place through the CSSOM (no DOM mutation) and let the browser restyle."""
    selector, shown, hiding = RULES[kind]
    text = hiding if hidden else shown
    script = f"""(() => {{
      const sheet = document.getElementById("rules").sheet;
      const rule = [...sheet.cssRules].find((r) => r.selectorText === {json.dumps(selector)});
      rule.style.cssText = {json.dumps(text)};
      return getComputedStyle(document.body).color !== "";
    }})()"""
    response = send({"type": "evaluate", "expression": script})
    assert response.ok, response.error


@pytest.fixture
def page(act, fixture_server):
    return written(act, fixture_server, PAGE)


def seen(send, marker: str) -> tuple[bool, bool]:
    """Whether extract, and whether find, read the marker now."""
    return marker in extract(send, max_chars=100_000)["markdown"], found(send, marker) >= 1


@pytest.mark.parametrize("kind", list(RULES))
def test_a_style_changed_between_calls_is_judged_afresh(page, kind):
    marker = f"QZ{kind}"
    assert seen(page, marker) == (True, True), f"{kind}: shown text not read at first"
    restyle(page, kind, hidden=True)
    assert seen(page, marker) == (False, False), f"{kind}: text hidden since the last call is still read"
    assert seen(page, "QZSTEADY") == (True, True), "the steady text went with the edit"
    restyle(page, kind, hidden=False)
    assert seen(page, marker) == (True, True), f"{kind}: text shown again since the last call is not read"
