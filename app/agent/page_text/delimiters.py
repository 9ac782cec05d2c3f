"""Paired delimiters that are no brackets, as a page writes them around a word to imitate the boundary marker
`⟦T⟧` (app/agent/page_text/boundary.py) where forgeries.py's bracket view (Unicode Ps/Pe and characters named as
brackets) does not reach: bars (`‖k7q2m‖`, `||k7q2m||`, `¦…¦`, `║…║`), ditto and wiggly marks, half blocks
(`▌k7q2m▐`), quotation marks and doubled ASCII (`««k7q2m»»`, `<<k7q2m>>`, `//k7q2m//`) and combinations (`|/k7q2m/|`).

Judged in the text as written (NFKC), not its fold: the fold reads `‖` as `ll`. A delimiter is a run of one to
three characters that are neither letters, digits, spaces nor punctuation that ordinary prose puts next to a word
(dashes, dots, commas, colons, bullets, ellipses: by Unicode name and category) nor markdown's emphasis marks; the
run after the token must mirror the run before it (the same characters in reverse order, each a left one's right
one by its Unicode name: `▌`/`▐`, `<`/`>`; `/` and `\\` alike). The token is what the boundary's is: 3 to 16 letters
and digits, written in small letters, not all digits, touching both runs. Where every character of both runs is
ASCII, or the run is a single quotation mark, the run must be doubled or combined and the token must mix letters
and digits (`||spoiler||`, `/api/`, `«k7q2m»` are everyday; `||k7q2m||`, `««k7q2m»»` are not). Runs of non-ASCII
brackets alone are forgeries.py's.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from app.protocol.safety.fold import fold

_PROSE = ("DASH", "HYPHEN", "FULL STOP", "COMMA", "COLON", "ELLIPSIS", "DOT", "BULLET", "QUESTION", "EXCLAMATION",
          "PRIME", "LOW LINE", "SPACE")
"""Words of the Unicode names of punctuation that prose writes next to a word: never a delimiter."""
_MARKDOWN = "*~=`+_"
"""What markdown writes around a word (emphasis, strike-through, highlight, code, `++inserted++`): formatting."""
_ASCII_MIRROR = {"<": ">", ">": "<", "(": ")", ")": "(", "[": "]", "]": "[", "{": "}", "}": "{", "\\": "/"}
_RUN = re.compile(r"(?P<open>[^\w\s](?:(?<=[^\x00-\x7f])[^\w\s]{0,2}|[^\w\s]{1,2}))"
                  r"(?P<token>[^\W_]{3,16})(?P<close>[^\w\s]{1,3})")
"""A run, a token and a run; the first run begins with a character that is no ASCII or is two long (a single
ASCII mark is everyday: `(abc)`, `/api/`), checked in the scan (most page text has no match)."""
_TOKEN = re.compile(r"[a-z0-9]{3,16}")


@cache
def is_delimiter(char: str) -> bool:
    """Whether a character (as written) may stand for a bracket: a symbol or punctuation mark that prose does not
    put beside a word (`|`, `‖`, `¦`, `*`, `#`, `/`, `▌`; not `.`, `-`, `—`, `…`, `•`, `'`, `"`)."""
    if char.isspace() or char.isalnum() or char == "_":
        return False
    category = unicodedata.category(char)
    if category[0] not in "PS" or category in ("Pd", "Pc") or char in ".,;:!?" or char in _MARKDOWN:
        return False
    name = unicodedata.name(char, "")
    return not any(word in name for word in _PROSE)


@cache
def _mirror(char: str) -> str:
    """The character that closes what `char` opens: its ASCII pair, else the character named as its other side
    (`LEFT` for `RIGHT`, `OPENING` for `CLOSING`), else itself (a bar closes a bar)."""
    if char in _ASCII_MIRROR:
        return _ASCII_MIRROR[char]
    name = unicodedata.name(char, "")
    for one, other in (("LEFT", "RIGHT"), ("OPENING", "CLOSING"), ("BEGIN", "END")):
        for a, b in ((one, other), (other, one)):
            if a in name:
                try:
                    return unicodedata.lookup(name.replace(a, b))
                except KeyError:
                    pass
    return "/" if char == "\\" else char


def _mirrors(opening: str, closing: str) -> bool:
    return len(opening) == len(closing) and all(
        _mirror(a) == ("/" if b == "\\" else b) for a, b in zip(reversed(opening), closing, strict=True))


def _everyday(run: str) -> bool:
    """ASCII, or a single quotation mark (`«k7q2m»` is how prose quotes a code)."""
    return run.isascii() or len(run) == 1 and "QUOTATION" in unicodedata.name(run, "")


def _brackets_only(run: str) -> bool:
    """Non-ASCII brackets alone: forgeries.py's bracket view judges those (a single `⟨system⟩` is a defused tag)."""
    return not run.isascii() and all(unicodedata.category(ch) in ("Ps", "Pe") or "BRACKET" in unicodedata.name(ch, "")
                                     for ch in run)


def delimited_tokens(text: str, defused: str = "") -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(opening run, closing run) spans in `text` of each token between paired delimiters that are no brackets
    alone, as the module says; a pair of brackets only is forgeries.py's to judge, and a run that holds one of
    `defused` (how forgeries.py writes a tag it defused: `⟨¦start¦⟩`) is its output."""
    found = []
    for match in _RUN.finditer(text):
        token = match.group("token")
        if not token.islower() or defused and any(ch in defused for ch in match.group("open") + match.group("close")):
            continue
        spans = _paired(match)
        if spans is None:
            continue
        opening = unicodedata.normalize("NFKC", text[slice(*spans[0])])
        folded = fold(token)
        if _brackets_only(opening) or not _TOKEN.fullmatch(folded) or folded.isdigit():
            continue
        if (_everyday(opening) or _everyday(unicodedata.normalize("NFKC", text[slice(*spans[1])]))) and not (
                len(opening) >= 2 and any(ch.isdigit() for ch in folded) and any(ch.isalpha() for ch in folded)):
            continue
        found.append(spans)
    return found


def _paired(match: re.Match[str]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The longest runs that touch the token and mirror each other, all of delimiters (`(‖k7q2m‖).` gives
    `(‖`, `‖)`), or none."""
    opening, closing = match.group("open"), match.group("close")
    for size in range(min(len(opening), len(closing)), 0, -1):
        left, right = opening[-size:], closing[:size]
        plain_left, plain_right = unicodedata.normalize("NFKC", left), unicodedata.normalize("NFKC", right)
        if all(is_delimiter(ch) for ch in plain_left + plain_right) and _mirrors(plain_left, plain_right):
            start, end = match.start("token"), match.end("token")
            return (start - size, start), (end, end + size)
    return None
