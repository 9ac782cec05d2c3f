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

A polite imperative stands for the obligation (`polite`: Japanese `…してください`, Korean `…하세요` / `…해 주세요`,
Chinese `请…`, German `Klicken Sie`, French `Cliquez` / `Veuillez`, Spanish `Haga clic` / `por favor`, English
`please`, Hindi `कृपया` / `…करें`), more narrowly, as a shop's help speaks that way: its now must stand apart from
the control's own name (`今すぐ購入`, `Jetzt kaufen`, `立即购买`, `Buy now` name a button, so "「今すぐ購入」ボタンを押して
ください" is no hurry), and a step that says what it is for (`purpose`: `…するには`, `um … zu`, `pour …`, `如需…`) is a
how-to's, not an order to press (it still moves no money unflagged). A clause may run over up to CLAUSE_LINES lines
(a phrase split over paragraphs or list items) while a line ends with no stop.

Languages are found by their words' heads (and CJK and Devanagari by script), not by a language identifier:
py3langid (measured on the flagger bench's 321 texts) names every polite line of test_evasions_round3.py right, but
reading each line costs about 3 ms per extract at p50 (the whole flagging costs 3.4 ms), and it reads full-width
German as Cantonese (`yue`): a router on its answer would let a look-alike evade, while the fold it cannot read
(`く` folds to `❬`) is what these rules run on.
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
    """Written without spaces between words (Chinese, Japanese, Korean endings)."""
    polite: re.Pattern[str] | None = None
    """A polite imperative or a word of please, which obliges as `must` does where its now is no control's name."""
    purpose: re.Pattern[str] | None = None
    """A word that says what a step is for, or when (`um`, `pour`, `するには`): such a step's press is a how-to's."""
    polite_heads: frozenset[str] = frozenset()
    script: re.Pattern[str] | None = None
    """A letter of its script where its words cannot be cut by `\\w` (CJK; Devanagari, whose vowel signs are no
    word letters): the language is looked for in any line holding one, by the regexes alone."""


_WORD = re.compile(r"[^\W_]+")
CLAUSE_LINES = 3
"""Lines one clause may run over (while a line ends with no stop): `Klicken Sie jetzt` / `auf Kaufen.`"""


def _heads(language: Obligation) -> frozenset[str]:
    return language.must_heads | language.polite_heads


def obligation_lines(lines: list[str], languages: tuple[Obligation, ...]) -> set[int]:
    """The indexes of `lines` (folded stream lines) with a clause that obliges the reader, now, to press a sensitive
    control or to move money (a clause that runs on over the next lines flags each of them)."""
    text = "\n".join(lines)
    every = set(_WORD.findall(text))  # one look at the text's words: most pages hold no language's pair
    spaced = [language for language in languages
              if language.script is None and every & _heads(language) and every & language.now_heads]
    scripts = [language for language in languages if language.script is not None and language.script.search(text)]
    flagged: set[int] = set()
    if not spaced and not scripts:
        return flagged
    wanted = frozenset().union(*(_heads(language) | language.now_heads for language in spaced))
    heads = [wanted.intersection(_WORD.findall(line)) for line in lines] if spaced else []
    closed = [_closed(line) for line in lines]
    for index in range(len(lines)):
        last = index
        while last + 1 < len(lines) and last - index + 1 < CLAUSE_LINES and not closed[last]:
            last += 1
        words = set().union(*heads[index:last + 1]) if spaced else set()
        worth = [language for language in spaced if words & _heads(language) and words & language.now_heads]
        window = "\n".join(lines[index:last + 1])
        worth += [language for language in scripts if language.script is not None and
                  language.script.search(window)]
        for language in worth:
            for begin, end in _clauses(window, language):
                if begin <= len(lines[index]) and _obliges(window[begin:end], language):  # the later lines' own
                    # clauses are read from their own line
                    first, last = _obliging_lines(window, begin, end, language)
                    flagged.update(range(index + first, index + last + 1))
    return flagged


def _obliging_lines(window: str, begin: int, end: int, language: Obligation) -> tuple[int, int]:
    """The first and last lines of the window (counted in it) of the fewest whole lines of an obliging clause that
    still oblige: a line it ran over that holds none of its words (a heading before it, with no stop) is not its."""
    starts = [begin] + [i + 1 for i in range(begin, end) if window[i] == "\n"]
    top = next(k for k in range(len(starts) - 1, -1, -1) if _obliges(window[starts[k]:end], language))
    bottom = next(k for k in range(top, len(starts))
                  if k == len(starts) - 1 or _obliges(window[starts[top]:starts[k + 1] - 1], language))
    first = window.count("\n", 0, begin)
    return first + top, first + bottom


def _closed(line: str) -> bool:
    """Whether a line ends a clause (a stop or a colon at its end)."""
    return line.rstrip()[-1:] in "!?;:.。！？；؟।"


def _clauses(window: str, language: Obligation) -> list[tuple[int, int]]:
    """The spans of a window's clauses, between its language's stops (a clause's words off its trailing space)."""
    spans, start = [], 0
    for stop in language.stops.finditer(window):
        spans.append((start, stop.start()))
        start = stop.end()
    spans.append((start, len(window)))
    return [(begin + len(window[begin:end]) - len(window[begin:end].lstrip()), len(window[:end].rstrip()))
            for begin, end in spans if window[begin:end].strip()]


def _obliges(clause: str, language: Obligation) -> bool:
    if language.now.search(clause) is None:
        return False
    pairs: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = ((language.press, language.control),
                                                                   (language.move, language.amount))
    if language.must.search(clause) is None:
        if language.polite is None or language.polite.search(clause) is None:
            return False
        named = language.control.sub(lambda found: "" if language.now.search(found.group()) else found.group(), clause)
        if language.now.search(named) is None:  # `今すぐ購入`, `Jetzt kaufen`: the now is the button's name
            return False
        if language.purpose is not None and language.purpose.search(clause) is not None:
            pairs = pairs[1:]  # `購入するには…押してください`: a how-to's step
    return any(all(word.search(clause) is not None for word in pair) for pair in pairs)
