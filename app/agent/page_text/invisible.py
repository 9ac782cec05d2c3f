"""Invisible format characters out of every page string the model reads, whichever reader brought it (a find's
match, what a click reached, a tab's title, an error's quote): soft hyphens, zero-width spaces and joiners, the
word joiner, bidi marks, embeddings and isolates, the BOM. The extension drops them from extract's walk as text
enters it (extension/src/extract/format-chars.js, whose comment says why each is dropped or kept); this is the
same rule at the one place every reader's page text passes (app/agent/tools/browser_result.py), and the two agree
on extension/test/fixtures/invisible-vectors.json. Kept, because they change what is drawn: a zero-width joiner
in an emoji sequence, emoji tag characters, a joiner or non-joiner after a letter of a script that shapes joined
letters, and the prepended concatenation marks of Arabic, Syriac and Kaithi. A zero-width space between two
characters becomes a space (it marks a word's edge).
"""

from __future__ import annotations

import unicodedata
from functools import cache

_DRAWN = frozenset([*range(0x0600, 0x0606), 0x06DD, 0x070F, 0x0890, 0x0891, 0x08E2, 0x110BD, 0x110CD])
_TAGS = range(0xE0020, 0xE0080)
_UNSHAPED_SCRIPTS = ("LATIN", "GREEK", "CYRILLIC")


@cache
def _is_format(char: str) -> bool:
    return unicodedata.category(char) == "Cf"


@cache
def _is_picture(char: str) -> bool:
    """An emoji's picture, skin-tone modifier or presentation selector (Extended_Pictographic, approximately:
    the symbols of the emoji blocks)."""
    code = ord(char)
    return code == 0xFE0F or 0x1F3FB <= code <= 0x1F3FF or (
        unicodedata.category(char) == "So" and (code >= 0x1F000 or 0x2600 <= code <= 0x27BF))


@cache
def _is_shaped(char: str) -> bool:
    """A letter or mark of a script whose letters join (not Latin, Greek or Cyrillic)."""
    if not unicodedata.category(char).startswith(("L", "M")):
        return False
    return not unicodedata.name(char, "").startswith(_UNSHAPED_SCRIPTS)


def drop_invisible(text: str) -> str:
    """`text` without its invisible format characters (the ones that change what is drawn kept)."""
    if not any(_is_format(c) for c in text):
        return text
    out: list[str] = []
    for at, char in enumerate(text):
        if not _is_format(char) or ord(char) in _DRAWN or ord(char) in _TAGS:
            out.append(char)
            continue
        before, after = text[at - 1] if at else "", text[at + 1] if at + 1 < len(text) else ""
        if char == "\u200b":
            if before.strip() and after.strip():
                out.append(" ")
        elif char in "\u200c\u200d" and (
                (char == "\u200d" and ((before and _is_picture(before)) or (after and _is_picture(after))))
                or (before and _is_shaped(before))):
            out.append(char)
    return "".join(out)
