"""The flagger's second view of the same stream (app/agent/page_text/flagger.py): the words with what separates
them taken away, so a phrase still matches when its letters are spaced out (`i g n o r e`, `i.g.n.o.r.e`), its words
are glued by an invisible separator (`ignore\u200bprevious`), a word is hyphenated across a line break (`ig-` /
`nore`), it is split over element-index lines (`e4 button "Ignore all previous"` / `e5 link "instructions"`) or
markdown links (`[ignore all previous](…) [instructions](…)`), or written in leetspeak (`1gn0r3 pr3v10us`).

`compact_text` makes the view: an element line's uid and role, link targets and uid tokens dropped, and every
character but a letter, a digit, `@ $ ! |` and the punctuation patterns rely on (`:` `?` `'`); then digits and `@ $ ! |`
read as the letters they stand for (LEET: patterns hold no digits); line breaks stay, so its lines are the
stream's.
`compact_source` rewrites a pattern for it (whitespace, word boundaries, lookarounds and separator punctuation
removed), so every phrasing of injection_patterns.json runs in both views with no second list. A compact match
counts only where it begins and ends at a word's edge in the stream (`bot` in `botanist` is no match), which keeps
ordinary text, whose words the view runs together, from matching inside words.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache

from app.protocol.safety.fold import ignorable_ranges

KEPT_PUNCTUATION = frozenset(":?'：？")
"""Punctuation the view keeps: patterns need it (`new task:`, `l'utilisateur`), and it is not a letter separator."""
LEET = tuple(zip("013457@$89!|", "oieastasbgii", strict=True))
"""Digits and symbols that stand for letters (in the compact view only; a page's text is never changed)."""
_DROPPED = re.compile(r"(?:^e\d+ [a-z]+(?: |$)|\]\([^)\n]*\)|\[e\d+\]|[^\w:?'：？\n@$!|]|[!|](?![^\W_])|_)+",
                      re.MULTILINE)
"""What the view leaves out: an element line's uid and role, a link's target, a uid token, and every character but a
letter, a digit, `@ $` and a `! |` before a letter or digit (leet) and KEPT_PUNCTUATION; never a line break."""
_META = frozenset(".^$*+?()[]{}|\\")


def compact_text(stream_text: str) -> str:
    """The compact view of a stream (its lines are the stream's)."""
    return _read_leet(_DROPPED.sub("", stream_text))


@cache
def _invisible_table() -> dict[int, str]:
    return {cp: " " for low, high in ignorable_ranges() for cp in range(low, high + 1)}


@cache
def _invisibles() -> frozenset[str]:
    return frozenset(map(chr, _invisible_table()))


def invisibles_spaced(text: str) -> str:
    """`text` with each invisible character a space (`text` itself when it has none): where a compact match was
    refused at a word edge, the view is made again from this, so words glued by a zero-width space still have edges
    a match can stand on (the fold removes them; a soft hyphen inside a word is a separator the view drops anyway)."""
    return text if _invisibles().isdisjoint(text) else text.translate(_invisible_table())


def compact_key(key: str) -> str:
    return _read_leet(_DROPPED.sub("", key))


def _read_leet(text: str) -> str:
    for symbol, letter in LEET:  # a few replaces beat translate() on a long, mostly ASCII string
        if symbol in text:
            text = text.replace(symbol, letter)
    return text


def _dropped_char(ch: str) -> bool:
    """Whether the view drops this literal character of a pattern."""
    if ch in KEPT_PUNCTUATION:
        return False
    return ch.isspace() or ch == "_" or not ch.isalnum() and unicodedata.category(ch)[0] in "PSZ"


def _skip_quantifier(source: str, at: int) -> int:
    if at < len(source) and source[at] in "?*+":
        at += 1
        if at < len(source) and source[at] in "?+":
            at += 1
    elif at < len(source) and source[at] == "{":
        at = source.index("}", at) + 1
    return at


def _class_end(source: str, at: int) -> int:
    """The index of the `]` closing the character class that opens at `at`."""
    i = at + 1
    if i < len(source) and source[i] == "^":
        i += 1
    if i < len(source) and source[i] == "]":
        i += 1
    while source[i] != "]":
        i += 2 if source[i] == "\\" else 1
    return i


def _group_end(source: str, at: int) -> int:
    depth, i = 0, at
    while True:
        ch = source[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "[":
            i = _class_end(source, i) + 1
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0:
            return i
        i += 1


def _separator_class(body: str) -> bool:
    """A character class that stands for a separator: it holds `\\s`, or only characters the view drops."""
    inner = body[1:-1]
    if inner.startswith("^"):
        return False
    if "\\s" in inner:
        return True
    members = re.sub(r"\\(.)", r"\1", inner)
    return bool(members) and "-" not in members.strip("-") and all(_dropped_char(ch) for ch in members)


_WORD_GAP = re.compile(r"\(\?:\\[wS]\+\\s\+\)\{0,(\d+)\}\??")
"""A gap of up to n words in a pattern (`(?:\\w+\\s+){0,2}`): in the compact view, where words are not separated,
it is one bounded run of letters (nested quantifiers over a run with no separators would backtrack without end)."""
GAP_LETTERS = 16
"""Letters a word of a gap may have in the compact view."""


def compact_source(source: str) -> str:
    """A pattern (already folded, placeholders filled) rewritten for the compact view."""
    source = _WORD_GAP.sub(lambda m: rf"\w{{0,{GAP_LETTERS * int(m.group(1))}}}?", source)
    out: list[str] = []
    i, n = 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "\\":
            escape = source[i:i + 2]
            if escape in ("\\s", "\\b") or (escape[1:] and _dropped_char(escape[1])):
                i = _skip_quantifier(source, i + 2)
            else:
                out.append(escape)
                i += 2
        elif ch == "[":
            end = _class_end(source, i)
            body = source[i:end + 1]
            if _separator_class(body):
                i = _skip_quantifier(source, end + 1)
            else:
                out.append(body)
                i = end + 1
        elif source.startswith(("(?!", "(?<!", "(?=", "(?<="), i):
            i = _skip_quantifier(source, _group_end(source, i) + 1)
        elif ch == "{":
            end = source.index("}", i)
            out.append(source[i:end + 1])
            i = end + 1
        elif ch not in _META and _dropped_char(ch):
            i = _skip_quantifier(source, i + 1)
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@dataclass(frozen=True)
class CompactView:
    """The compact view of a stream, with what a match in it needs to be placed back on the stream's lines."""
    stream_lines: tuple[str, ...]
    lines: tuple[str, ...]

    @classmethod
    def of(cls, stream_text: str) -> CompactView:
        return cls(tuple(stream_text.split("\n")), tuple(compact_text(stream_text).split("\n")))

    def key_lines(self, guarded: dict[str, tuple[int, ...]]) -> dict[int, set[int]]:
        """For each pattern index, the lines that hold one of its keys (`guarded`: compact key → pattern indexes).
        A key of the plain view holds only characters this view keeps, so where the stream has it this view has it
        too: one search serves both views."""
        text, starts = self.window(0, len(self.lines) - 1)  # a key may run across a line break (`ig-` / `nore`)
        last = len(starts) - 1
        near: dict[int, set[int]] = {}
        for key, indexes in guarded.items():
            at = text.find(key)
            while at != -1:
                line = bisect_right(starts, at) - 1
                for index in indexes:
                    near.setdefault(index, set()).add(line)
                at = text.find(key, starts[line + 1] if line < last else len(text))  # the window covers the rest
        return near

    def flagged(self, near: dict[int, set[int]], regexes: Sequence[re.Pattern[str] | None],
                windows: Callable[[list[int], int], list[tuple[int, int]]]) -> tuple[set[int], bool]:
        """The stream lines a compact pattern matches in `windows` around the lines of its keys (`near`), and
        whether a match was refused at a word edge."""
        flagged: set[int] = set()
        refused = False
        for index, lines in near.items():
            regex = regexes[index]
            if regex is None:
                continue
            for low, high in windows(sorted(lines), len(self.lines) - 1):
                for placed in compact_matches(regex, self, low, high):
                    if placed is None:
                        refused = True
                    else:
                        flagged.update(placed)
        return flagged, refused

    def window(self, low: int, high: int) -> tuple[str, list[int]]:
        """Lines low..high joined with nothing between (a word may run across a line break), and where each
        line begins in the joined string."""
        starts, offset = [], 0
        for line in self.lines[low:high + 1]:
            starts.append(offset)
            offset += len(line)
        return "".join(self.lines[low:high + 1]), starts

    def _kept(self, line: int) -> list[int]:
        """Where in its stream line each character of a compact line came from."""
        text, at = self.stream_lines[line], 0
        kept: list[int] = []
        for dropped in _DROPPED.finditer(text):
            kept.extend(range(at, dropped.start()))
            at = dropped.end()
        kept.extend(range(at, len(text)))
        return kept

    def placed(self, match: re.Match[str], low: int, starts: list[int]) -> range | None:
        """The stream lines a compact match covers, or None when it begins or ends inside a word of the stream."""
        first = low + bisect_right(starts, match.start()) - 1
        last = low + bisect_right(starts, max(match.start(), match.end() - 1)) - 1
        begin = self._kept(first)[match.start() - starts[first - low]]
        end = self._kept(last)[max(match.start(), match.end() - 1) - starts[last - low]]
        if _inside_word(self.stream_lines[first], begin, -1) or _inside_word(self.stream_lines[last], end, 1):
            return None
        return range(first, last + 1)


def _inside_word(line: str, at: int, step: int) -> bool:
    """Whether the character next to `at` (before it for -1, after for 1) continues a Latin-script word (scripts
    written without spaces have no word edges to stand on)."""
    near = at + step
    if near < 0 or near >= len(line):
        return False
    return line[near].isalnum() and line[at].isalnum() and ord(line[near]) < 0x2E80 and ord(line[at]) < 0x2E80


def compact_matches(regex: re.Pattern[str], view: CompactView, low: int, high: int) -> Iterator[range | None]:
    """The stream lines of each match of a compact pattern in lines low..high (None for a match refused because it
    begins or ends inside a word)."""
    text, starts = view.window(low, high)
    for match in regex.finditer(text):
        if match.end() > match.start():
            yield view.placed(match, low, starts)

