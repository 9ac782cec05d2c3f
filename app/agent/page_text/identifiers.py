"""The ids and class names of element handles (`button#ignorePreviousInstructi….ignore_previous-all "Go"`,
extension/src/page/functions.js describeElement: each cut to 24 characters, an ellipsis for what was cut) read as
the words they join, for the flagger (app/agent/page_text/flagger.py): camelCase, snake_case and kebab-case are
split (`ignorePreviousInstructions`, `ignore_previous-instructions`: "ignore previous instructions"), and a cut one
is read as each phrase its last word may be the start of: that word completed as a word of
injection_patterns.json's patterns that it begins (`…Instructi…` as `instructions`), or, for letters of one case
joined without a mark (`IGNOREPREVIOUSINSTRU…`), its end completed so.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from functools import cache

_PART = re.compile(r"(?P<mark>[#.])(?<=[\w…-][#.])(?P<ident>[^\W\d_][\w-]*…?)")
"""An id or class name after a tag name or another one (`div#main`, `.btn-primary`); `example.com` is one too, and
reads the same."""
_JOINED_PART = re.compile(r"(?P<mark>[#.])(?<=[\w…-][#.])(?P<ident>[^\W\d_][\w-]*?(?:[a-z][A-Z]|[^\W\d_][_-]+[^\W_])[\w-]*…?)")
"""One that joins words (the only ones `identifiers_read` rewrites: a scan in C finds them)."""
_JOINT = re.compile(r"(?<=[^\W\d_])[_-]+(?=[^\W_])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
CUT = "…"
MIN_PREFIX = 4
"""Letters a cut word needs to be completed (fewer begin too many words)."""
MAX_COMPLETIONS = 32


def words_of(ident: str) -> str:
    """An identifier's words, space-separated (`ignorePreviousInstructions`: `ignore Previous Instructions`)."""
    return _JOINT.sub(" ", ident)


def identifiers_read(text: str) -> str:
    """`text` with every id and class name that joins words written as those words (line breaks kept)."""
    if "#" not in text and "." not in text:
        return text

    def read(match: re.Match[str]) -> str:
        ident = match.group("ident")
        split = words_of(ident)
        return match.group(0) if split == ident else f"{match.group('mark')} {split} "
    return _JOINED_PART.sub(read, text)


def cut_readings(text: str, vocabulary: tuple[str, ...]) -> list[tuple[int, str]]:
    """(line index, phrase) for each way a cut identifier of `text` may go on: its words, the last one completed by
    a word of `vocabulary` (sorted, lower case) that it begins."""
    if CUT not in text:
        return []
    readings = []
    for index, line in enumerate(text.split("\n")):
        if CUT not in line:
            continue
        for match in _PART.finditer(line):
            ident = match.group("ident")
            if ident.endswith(CUT):
                readings += [(index, phrase) for phrase in _completions(ident[:-1], vocabulary)]
    return readings


def _completions(ident: str, vocabulary: tuple[str, ...]) -> list[str]:
    words = words_of(ident).split()
    if not words:
        return []
    head, last = " ".join(words[:-1]), words[-1].lower()
    found: list[str] = []
    for start in range(len(last) - MIN_PREFIX + 1):  # a joined word's end may be where a cut word begins
        prefix = last[start:]
        for word in _beginning(prefix, vocabulary)[:MAX_COMPLETIONS]:
            found.append(f"{head} {last[:start]} {word}".strip())
        if found:
            break
    return found


def _beginning(prefix: str, vocabulary: tuple[str, ...]) -> list[str]:
    at, out = bisect_left(vocabulary, prefix), []
    while at < len(vocabulary) and vocabulary[at].startswith(prefix):
        if vocabulary[at] != prefix:
            out.append(vocabulary[at])
        at += 1
    return out


@cache
def pattern_words(sources: tuple[str, ...]) -> tuple[str, ...]:
    """The words (four letters or more) written in regular-expression sources, lower case, sorted."""
    return tuple(sorted({w.lower() for source in sources for w in re.findall(r"[^\W\d_]{4,}", source)}))
