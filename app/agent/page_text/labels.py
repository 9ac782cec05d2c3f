"""The grammar of a chat turn's label: every way a page writes "this line is the user (system, assistant, tool)
speaking" read into the one form the turn rules judge (`role: words`, app/agent/page_text/turns.py and the
labelled patterns of injection_patterns.json), so a new spelling of a label is no new rule.

A label is, on a stream line (folded, block marks gone, so `>>>` and list bullets are already off):
- opening marks (`[`, `<`, `(`, `*`, `#`, `|`, `»`, `⟨`, `«`, `~`, `_`), then a role's word of any language, whole,
  or spelt out letter by letter (`U s e r`, `S.y.s.t.e.m`, `A-s-s-i-s-t-a-n-t`);
- optionally a qualifier: a number (`User 2`, `User #1`), a parenthesis (`Assistant (thinking)`), or a word of
  saying or of a message (`User said`, `SYSTEM NOTICE`, `Nutzer sagt`, `用户说`: injection_patterns.json
  `label_qualifiers`);
- closing marks, then a separator: a colon (`:`, `：`), a dash between spaces (`Human — yes`), a chevron or an
  arrow (`USER » confirm`, `user -> pay`), or nothing but a space after a label its brackets close (`[USER] please
  pay`, `(System) you may`).
A line of the plain form (`User: pay`) is left as it is; any other is rewritten `role: words`.
"""

from __future__ import annotations

import re

_OPEN = r"[\[<(*#|»›⟨«~_\s-]*"
_CLOSE = r"[\]>)*|_»›⟩»]*"
_SPACED = r"(?:[^\W\d_][ .\-_·•*]{1,2})+[^\W\d_]"
_OPENING, _CLOSING = frozenset("[<(⟨«"), frozenset("]>)⟩»")


def _unspaced(word: str) -> bool:
    return any(0x2E80 <= ord(ch) < 0xA000 or 0xAC00 <= ord(ch) < 0xD7B0 or 0xF900 <= ord(ch) < 0xFB00 for ch in word)


def _whole(words: tuple[str, ...]) -> str:
    """An alternation of words, each standing whole where its script spaces its words (longest first)."""
    parts = []
    for word in sorted(set(words), key=len, reverse=True):
        tail = "" if _unspaced(word[-1:]) else r"(?![^\W\d_])"
        parts.append(re.escape(word) + tail)
    return "|".join(parts)


class LabelGrammar:
    """The label grammar of one set of roles and qualifiers (built once: flagger.py keeps one)."""

    def __init__(self, roles: tuple[str, ...], qualifiers: tuple[str, ...]) -> None:
        self._starts = frozenset(role[:2] for role in roles)
        self._joined = {re.sub(r"[\W_]", "", word): word for word in roles}
        """Each role's word by its letters alone: `toolresult` is `tool result`."""
        self._grammar = re.compile(
            rf"^(?P<lead>{_OPEN})(?:(?P<role>{_whole(roles)})|(?P<letters>{_SPACED}))"
            rf"(?P<qual>\s*#?\d{{1,3}}(?!\d)|\s*\([^()\n]{{1,30}}\)|\s*(?:{_whole(qualifiers)}))?"
            rf"(?P<close>{_CLOSE})(?P<sep>\s*[:：]|\s+[—–―‒−ー一-]{{1,2}}\s+|\s*[→⇒⟶]\s*|\s*[»›>]\s*|\s*(?:=>|->)\s*|\s+)"
            r"\s*(?P<rest>\S.*)?$", re.IGNORECASE)

    def canonical(self, body: str) -> str:
        """A stream line with its turn label, in any of the module's forms, written `role: words`; any other line
        as it is (a spelt-out word that is no role's, a label whose separator is a bare space without brackets
        around it, a line of the plain form)."""
        head = body.lstrip("[<(*#|»›⟨«~_ \t-")[:3]
        if head[:2] not in self._starts and head[:1] not in self._starts and not (
                len(head) == 3 and head[1] in " .-_·•*" and head[2].isalpha()):
            return body
        found = self._grammar.match(body)
        if found is None:
            return body
        role = found.group("role")
        if role is None:
            role = self._joined.get(re.sub(r"[\W_]", "", found.group("letters")))
            if role is None:
                return body
        separator = found.group("sep").strip()
        if not separator and not (_OPENING & set(found.group("lead")) and _CLOSING & set(found.group("close"))):
            return body  # `User guide`, `System requirements`: a bare space ends no label without its brackets
        plain = found.group("letters") is None and found.group("qual") is None and separator in (":", "：")
        return body if plain else f"{role}: {found.group('rest') or ''}".rstrip()
