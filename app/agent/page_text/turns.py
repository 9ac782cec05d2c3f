"""Fake dialogues in page text: lines labelled as chat turns ("Human:", "User:", "Assistant:", "AI:" and their
translations in the languages of injection_patterns.json), one of the person's side and one of the model's side
near each other, each said in a phrase (or on the next line), as a page writes them to make its words look like the conversation the agent is in. A single
labelled line is judged by the patterns instead (a "System:" line that addresses the agent, an "Assistant:" line
that agrees to something, a "User:" line that asks for something): "User: guest" in a table is not a dialogue.
"""

from __future__ import annotations

import re
from functools import cache

SPAN = 4
"""Stream lines within which a turn of each side makes a dialogue."""


@cache
def _label(user: tuple[str, ...], model: tuple[str, ...]) -> re.Pattern[str]:
    def words(group: tuple[str, ...]) -> str:
        return "|".join(re.escape(w) for w in sorted(group, key=len, reverse=True))
    return re.compile(rf"^(?:[\[<(*#|]+\s*)?(?:(?P<user>{words(user)})|(?P<model>{words(model)}))(?![^\W\d_])"
                      r"\s*[\]>)*|]*\s*:[*_]*\s*(?P<rest>.*)$", re.IGNORECASE)


def dialogue_lines(lines: list[str], user: tuple[str, ...], model: tuple[str, ...]) -> set[int]:
    """The indexes of `lines` (folded, without block marks) that belong to a fake dialogue: each turn of a span
    that holds turns of both sides, and the line after a label that stands alone (the turn's words). A label with a
    field's value after it ("User: guest") is not a turn."""
    label = _label(user, model)
    turns: list[tuple[int, str, str]] = []
    for index, line in enumerate(lines):
        if ":" not in line[:40]:
            continue
        found = label.match(line)
        if found and _spoken(found.group("rest").strip()):
            turns.append((index, "user" if found.group("user") else "model", found.group("rest").strip()))
    flagged: set[int] = set()
    for position, (index, side, _rest) in enumerate(turns):
        near = [t for t in turns[position:] if t[0] - index < SPAN]
        if any(other != side for _i, other, _r in near):
            for turn_index, _side, rest in near:
                alone = not rest
                flagged.add(turn_index)
                if alone and turn_index + 1 < len(lines):
                    flagged.add(turn_index + 1)
    return flagged


def _spoken(rest: str) -> bool:
    """Whether a turn's words read as something said (a label alone, its words on the next line; a phrase of three
    words or more; a question), not a field's value ("User: guest", "Assistant: Maria Lopez")."""
    if not rest or rest.endswith(("?", "？")):
        return True
    return len(rest.split()) >= 3 or len(rest) >= 8 and not rest.isascii()
