"""Web fonts made for tests (issue 18's blank-glyph carriers): a font whose glyphs draw boxes, and one whose glyphs
draw nothing, each as a data: URL for an @font-face rule. Built with fontTools, so no binary fixture is kept."""

from __future__ import annotations

import base64
import io
import string

from fontTools.fontBuilder import FontBuilder
from fontTools.pens.ttGlyphPen import TTGlyphPen

CHARS = string.ascii_letters + string.digits + " .,:;!?'-"
ADVANCE = 600


def _glyph(inked: bool) -> object:
    pen = TTGlyphPen(None)
    if inked:  # a box from the baseline to cap height: ink a person sees
        pen.moveTo((60, 0))
        pen.lineTo((60, 700))
        pen.lineTo((540, 700))
        pen.lineTo((540, 0))
        pen.closePath()
    return pen.glyph()


def font_url(inked: bool) -> str:
    """A TrueType font mapping letters, digits and common punctuation to box glyphs (inked) or to glyphs with no
    contours (blank: laid out with advances like any font, drawing nothing), as a data: URL."""
    names = [".notdef"] + [f"g{ord(c)}" for c in CHARS]
    fb = FontBuilder(1000, isTTF=True)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({ord(c): f"g{ord(c)}" for c in CHARS})
    fb.setupGlyf({n: _glyph(inked and n not in (".notdef", "g32")) for n in names})
    fb.setupHorizontalMetrics({n: (ADVANCE, 60) for n in names})
    fb.setupHorizontalHeader(ascent=800, descent=-200)
    family = "BuaInked" if inked else "BuaBlank"
    fb.setupNameTable({"familyName": family, "styleName": "Regular"})
    fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
    fb.setupPost()
    out = io.BytesIO()
    fb.save(out)
    return "data:font/ttf;base64," + base64.b64encode(out.getvalue()).decode("ascii")
