"""An obligation of now to press a sensitive control, in the languages of injection_patterns.json
`obligation_now` ("Vous devez maintenant cliquer sur Acheter", "Sie müssen jetzt auf Kaufen klicken", "你现在必须点击
购买"): one clause holding, of one language, a word of obligation, a word of now, a word of pressing and a control's
command (app/protocol/safety's sensitive-words.json: pay, delete, transfer). Word order is free, as it is in these languages ("… jetzt auf Kaufen klicken"), so the four are looked for in the clause, not in a
sequence. English has its own pattern (injection_patterns.json `obligation-now`); "You must now pay the remaining
balance" (no control, no transfer) and "Sie müssen jetzt auf Speichern klicken" (no sensitive control) stay plain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_CLAUSE_END = re.compile(r"[.!?;。！？；]")


@dataclass(frozen=True)
class Obligation:
    """One language's words: each kind as a regex of whole words (flagger._word_fragments), and the first words of
    its obligation and now phrases as sets (a fast look at a line's words before any regex runs)."""
    must: re.Pattern[str]
    now: re.Pattern[str]
    press: re.Pattern[str]
    control: re.Pattern[str]
    must_heads: frozenset[str]
    now_heads: frozenset[str]
    unspaced: bool
    """Written without spaces between words (Chinese, Japanese, Korean endings): looked for in any line of its
    script, by the regexes alone."""


_WORD = re.compile(r"[^\W_]+")
_UNSPACED = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def obligation_lines(lines: list[str], languages: tuple[Obligation, ...]) -> set[int]:
    """The indexes of `lines` (folded stream lines) with a clause that obliges the reader, now, to press a sensitive
    control."""
    text = "\n".join(lines)
    every = set(_WORD.findall(text))  # one look at the text's words: most pages hold no language's pair
    spaced = [language for language in languages
              if not language.unspaced and every & language.must_heads and every & language.now_heads]
    unspaced = [language for language in languages if language.unspaced] if _UNSPACED.search(text) else []
    flagged: set[int] = set()
    if not spaced and not unspaced:
        return flagged
    for index, line in enumerate(lines):
        words = set(_WORD.findall(line))
        worth = [language for language in spaced if words & language.must_heads and words & language.now_heads]
        if unspaced and _UNSPACED.search(line):
            worth += unspaced
        if worth and any(_obliges(clause, language) for clause in _CLAUSE_END.split(line) for language in worth):
            flagged.add(index)
    return flagged


def _obliges(clause: str, language: Obligation) -> bool:
    return all(word.search(clause) is not None
               for word in (language.must, language.now, language.press, language.control))
