"""An obligation of now to press a sensitive control or to move money, in the languages of injection_patterns.json
`obligation_now` ("Vous devez maintenant cliquer sur Acheter", "Sie müssen jetzt auf Kaufen klicken", "你现在必须点击
购买"; "Sie müssen jetzt 500 € überweisen", "Debes transferir ahora 200 dólares", "你现在必须转账500元"): one clause
holding, of one language, a word of obligation and a word of now, with either a word of pressing and a control's
command (app/protocol/safety's sensitive-words.json: pay, delete, transfer) or a word of moving money (transfer,
wire, pay, send, deposit) and an amount (a number next to a currency sign, code or word, a number right after or
before a word of moving money other than sending, or a word for money, funds or savings). Word order is free, as it is in these languages
("… jetzt auf Kaufen klicken", "… jetzt 500 € überweisen"), so the words are looked for in the clause, not in a
sequence. English has its own pattern (injection_patterns.json `obligation-now`), and its strictness is the
standard: "You must now pay $5" is flagged (so is "Vous devez maintenant payer 3 € de frais de port", as a
checkout's line may read), "You must now pay the remaining balance" (no amount: a balance is none) and "Sie müssen
jetzt auf Speichern klicken" (no sensitive control) or "Sie müssen jetzt 5 Minuten warten" (nothing moved) stay
plain.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

CLAUSE_END = r"[!?;。！？；؟]|(?<!\d)\.|\.(?!\d)"
"""A clause ends at a stop, but not at a point between digits (`5.000 €`, `Rp 500.000`)."""


@dataclass(frozen=True)
class Obligation:
    """One language's words: each kind as a regex of whole words (flagger._word_fragments), and the first words of
    its obligation and now phrases as sets (a fast look at a line's words before any regex runs)."""
    must: re.Pattern[str]
    now: re.Pattern[str]
    press: re.Pattern[str]
    control: re.Pattern[str]
    move: re.Pattern[str]
    """A word of moving money or of sending (`überweisen`, `virer`, `转账`, `senden`)."""
    amount: re.Pattern[str]
    """An amount of money: a number next to a currency (`500 €`, `200 dólares`, `5万円`), a number right after or
    before a word that moves nothing but money (`virer 300`, `2000 überweisen`, not `senden`), or a word for money,
    funds or savings (`Geld`, `argent`, `资金`)."""
    stops: re.Pattern[str]
    """Where its clauses end (CLAUSE_END, or where its digits fold to points, as Persian `۰` does, none next to one)."""
    must_heads: frozenset[str]
    now_heads: frozenset[str]
    unspaced: bool
    """Written without spaces between words (Chinese, Japanese, Korean endings): looked for in any line of its
    script, by the regexes alone."""


_WORD = re.compile(r"[^\W_]+")
_UNSPACED = re.compile(r"[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def obligation_lines(lines: list[str], languages: tuple[Obligation, ...]) -> set[int]:
    """The indexes of `lines` (folded stream lines) with a clause that obliges the reader, now, to press a sensitive
    control or to move money."""
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
        if worth and any(_obliges(clause, language) for language in worth for clause in language.stops.split(line)):
            flagged.add(index)
    return flagged


def _obliges(clause: str, language: Obligation) -> bool:
    if language.must.search(clause) is None or language.now.search(clause) is None:
        return False
    return any(all(word.search(clause) is not None for word in pair)
               for pair in ((language.press, language.control), (language.move, language.amount)))
