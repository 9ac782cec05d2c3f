"""Data stays on its site unless the person agrees: a data-flow policy enforced in the app, outside the model.

Per task, bua remembers what each site (registrable domain, app.safety.sites) showed it: every page-derived string
of every result and every error that quotes the page, as each action's declaration says (app.protocol.page_data;
an undeclared key counts as the page's). Before a request goes out, typing text that one site showed into another
site (a field declared as typed text or keys, a paste of what the task copied), a script that carries it, or
opening a URL that carries it anywhere (userinfo, host labels, path, query, fragment; percent-decoded) is a *flow*,
and asks the person as a sensitive action does (app.safety.flow_check reads the declared carriers).

What counts as data: a piece of the typed text or URL that is
* a run of at least 6 digits (separators such as spaces, dots, commas, apostrophes, dashes, underscores, slashes,
  brackets, asterisks, middle dots or a plus allowed, up to three between two digits: a card, account or phone number; compared as bare digits, so "4111 1111 1111 1111"
  and "4111111111111111", or "+49 30 1234567" and "(030) 1234567", are the same data), or
* a token of at least 8 characters that is not plain words (words joined by . - _ ' are plain, `drop.html`,
  `long-term`): it holds a digit, a symbol such as @ or /, or an inner capital (an email, a code, a key, an
  IBAN), or
* a phrase of at least 3 words and 20 characters (a copied sentence): the whole text, and each of its sentences,
  lines and fields (split at sentence ends, line breaks, quotes, brackets, `&` and `=`), so a sentence inside a
  longer message or a request body is found as well as one sent alone.
Text is compared folded (app.protocol.safety.fold: invisible characters removed, NFKC, confusable letters folded to
their Latin look-alikes, case-folded), so a secret shown as "SK-Live-…", in full-width letters or with a Cyrillic
`а` is the same data typed as "sk-live-…". A phrase is compared by its words alone (every run of punctuation,
separators and spaces read as one space): "Meet me at the north-dock, at noon" is "meet me at the north dock at
noon". Digits are compared run by run: two numbers that only sit in the same paragraph are not joined into one. Plain words, short strings and numbers under
6 digits are not data. Text that appears in the person's own
task prompt (the task's description and instructions, `note_task_words`) is exempt, and so is text the
destination site showed too. Only the last MAX_CHARS_PER_TASK characters a task saw are kept.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass
from urllib.parse import unquote_plus, urlsplit

from app.protocol.safety.fold import fold as fold_confusables
from app.safety.sites import site_of

MAX_CHARS_PER_TASK = 4_000_000
MIN_TOKEN_CHARS = 8
MIN_DIGITS = 6
MIN_PHRASE_WORDS = 3
MIN_PHRASE_CHARS = 20
WINDOW_WORDS = 7
"""A phrase of this many words or more is compared window by window: each run of WINDOW_WORDS words of it, so a
sentence copied into a longer message is found wherever it sits (and a common run of fewer words is not data)."""
MAX_TASKS = 64

_TOKEN = re.compile(r"[^\s\"'<>()\[\]{},;|`]+")
_SEPARATOR = r"[\s.,'*\-_/()+\u00b7\u2010-\u2015\u2212]"
_DIGIT_RUN = re.compile(rf"\d(?:{_SEPARATOR}{{0,3}}\d)*")
_PLAIN_WORD = re.compile(r"[^\W\d_]+(?:['._-][^\W\d_]+)*", re.UNICODE)
_INNER_CAPITAL = re.compile(r"[a-z][A-Z]")
_URL_SPLIT = re.compile(r"[/?&=#+;,]+")
_SEGMENT_SPLIT = re.compile(r"(?<=[.!?])\s+|[\r\n\t\"{}\[\]<>|&=]+")
_NOT_WORD = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class Flow:
    """Data that one site showed, about to reach another."""

    piece: str
    source_site: str
    dest_site: str
    why: str = ""
    """Said to the person instead of "it carries data that A showed to B" (a script that can send the page's data)."""

    def sample(self) -> str:
        """The piece as a person reads it in the confirmation (long pieces cut)."""
        return self.piece if len(self.piece) <= 60 else f"{self.piece[:57]}…"


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def fold(text: str) -> str:
    """Text as the data-flow memory compares it: invisible characters removed, NFKC, confusables folded, case-folded
    (app.protocol.safety.fold), whitespace collapsed to single spaces."""
    return " ".join(fold_confusables(text).split())


def words_of(folded: str) -> str:
    """A folded text's words alone, one space between them (a phrase is compared so: see the module docstring)."""
    return _NOT_WORD.sub(" ", folded).strip()


def digit_runs(text: str) -> list[str]:
    """Each number of `text` as bare digits (its separators dropped), one entry per number."""
    return [_digits(run) for run in _DIGIT_RUN.findall(text)]


def _without_leading_zeros(piece: str) -> str | None:
    """A number written with a national prefix (`030 …` for `+49 30 …`): the rest, when it is still data."""
    rest = piece.lstrip("0")
    return rest if rest != piece and len(rest) >= MIN_DIGITS else None


def data_pieces(text: str) -> list[str]:
    """The pieces of `text` that count as data (see the module docstring), folded."""
    pieces: list[str] = [run for run in digit_runs(fold(text)) if len(run) >= MIN_DIGITS]
    for token in _TOKEN.findall(text):
        token = token.strip(".:!?")
        if len(token) < MIN_TOKEN_CHARS or _digits(token) == token:
            continue
        plain = _PLAIN_WORD.fullmatch(token) is not None and not _INNER_CAPITAL.search(token)
        if not plain:
            pieces.append(fold(token))
    for segment in dict.fromkeys([text, *_SEGMENT_SPLIT.split(text)]):
        if len(segment.split()) < MIN_PHRASE_WORDS:
            continue
        words = words_of(fold(segment)).split()
        phrases = windows(words) if len(words) >= WINDOW_WORDS else [" ".join(words)]
        pieces += [phrase for phrase in phrases if len(phrase) >= MIN_PHRASE_CHARS]
    return list(dict.fromkeys(pieces))


def windows(words: list[str]) -> list[str]:
    """Each run of WINDOW_WORDS words."""
    return [" ".join(words[i:i + WINDOW_WORDS]) for i in range(len(words) - WINDOW_WORDS + 1)]


def is_window(piece: str) -> bool:
    return piece.count(" ") == WINDOW_WORDS - 1


def window_set(folded: str) -> set[str]:
    """The windows of a folded text's words, for lookups (a window piece is checked against it)."""
    return set(windows(words_of(folded).split()))


def _decoded(text: str) -> str:
    """Percent-decoded until it stops changing (at most 3 times: `%2573` is `%73` is `s`)."""
    for _ in range(3):
        plain = unquote_plus(text)
        if plain == text:
            break
        text = plain
    return text


def url_pieces(url: str) -> list[str]:
    """The data pieces a URL carries: in its userinfo (`SECRET@host`), the host labels left of its site
    (`SECRET.evil.example`), its path, query and fragment, each decoded. The destination's own site name is not
    data (it is where the URL goes)."""
    try:
        parts = urlsplit(url.strip())
        user, password, host = parts.username or "", parts.password or "", (parts.hostname or "").rstrip(".")
    except ValueError:
        return data_pieces(_decoded(url))
    site = site_of(url)
    sub = host[:-len(site)].rstrip(".") if site and host.endswith(site) else ("" if site == host else host)
    carried = [user, password, *sub.split("."), parts.path, parts.query, parts.fragment]
    texts = [_decoded(part) for part in carried if part]
    pieces = [piece for text in texts for chunk in _URL_SPLIT.split(text) if chunk for piece in data_pieces(chunk)]
    return list(dict.fromkeys(pieces))


class _Seen:
    """What one site showed one task: the text (folded) and its numbers apart, as bare digits one per line."""

    def __init__(self) -> None:
        self.chunks: list[str] = []
        self.size = 0
        self._text: str | None = None
        self._digits: str | None = None
        self._words: str | None = None
        self._windows: set[str] | None = None

    def add(self, text: str) -> None:
        self.chunks.append(fold(text))
        self.size += len(self.chunks[-1])
        self._text = self._digits = self._words = None
        if self._windows is not None:
            self._windows |= window_set(self.chunks[-1])

    def trim(self, budget: int) -> None:
        while self.size > budget and self.chunks:
            self.size -= len(self.chunks.pop(0))
            self._text = self._digits = self._words = self._windows = None

    def holds(self, piece: str) -> bool:
        if self._text is None:
            self._text = "\n".join(self.chunks)
        if is_window(piece):
            if self._windows is None:
                self._windows = {w for chunk in self.chunks for w in window_set(chunk)}
            return piece in self._windows
        if " " in piece:  # a shorter phrase (no other piece has a space), by its words (words_of), whole words only
            if self._words is None:
                self._words = f" {words_of(self._text)} "
            return f" {piece} " in self._words
        if piece.isdigit():
            if self._digits is None:
                self._digits = "\n".join(run for c in self.chunks for run in digit_runs(c))
            rest = _without_leading_zeros(piece)
            return piece in self._digits or (rest is not None and rest in self._digits)
        return piece in self._text


class DataFlow:
    """Per task: what each site showed, and the person's own words for it."""

    def __init__(self) -> None:
        self._shown: OrderedDict[str, dict[str, _Seen]] = OrderedDict()
        self._exempt: dict[str, str] = {}
        self._exempt_windows: dict[str, set[str]] = {}

    def note_task_words(self, task_id: str, text: str) -> None:
        """The person's own task prompt: its text is never "data from a site"."""
        folded = fold(text)
        numbers = " ".join(digit_runs(folded))
        self._exempt[task_id] = f"{self._exempt.get(task_id, '')}\n{folded}\n{words_of(folded)}\n{numbers}"[-200_000:]
        self._exempt_windows.setdefault(task_id, set()).update(window_set(folded))

    def observe(self, task_id: str, url: str, text: str) -> None:
        site = site_of(url)
        if not site or not text:
            return
        sites = self._shown.setdefault(task_id, {})
        self._shown.move_to_end(task_id)
        while len(self._shown) > MAX_TASKS:
            self._shown.popitem(last=False)
        sites.setdefault(site, _Seen()).add(text)
        total = sum(s.size for s in sites.values())
        if total > MAX_CHARS_PER_TASK:
            for seen in sites.values():
                seen.trim(max(0, seen.size - (total - MAX_CHARS_PER_TASK)))

    def forget(self, task_id: str) -> None:
        self._shown.pop(task_id, None)
        self._exempt.pop(task_id, None)
        self._exempt_windows.pop(task_id, None)

    def check_text(self, task_id: str, text: str, dest_url: str) -> Flow | None:
        """A piece of `text` that another site showed this task, about to be typed on `dest_url`'s site."""
        return self._check(task_id, data_pieces(text), site_of(dest_url))

    def check_pieces(self, task_id: str, pieces: list[str], dest_url: str) -> Flow | None:
        """Like `check_text`, for pieces already cut (app.safety.flows joins typed pieces)."""
        return self._check(task_id, pieces, site_of(dest_url))

    def check_url(self, task_id: str, url: str) -> Flow | None:
        """A piece of data another site showed, carried anywhere in `url` (see `url_pieces`)."""
        return self._check(task_id, url_pieces(url), site_of(url))

    def _check(self, task_id: str, pieces: list[str], dest: str) -> Flow | None:
        sites = self._shown.get(task_id)
        if not sites or not pieces:
            return None
        exempt = self._exempt.get(task_id, "")
        exempt_windows = self._exempt_windows.get(task_id, set())
        here = sites.get(dest)
        for piece in pieces:
            if piece in exempt_windows if is_window(piece) else piece in exempt:
                continue
            if here is not None and here.holds(piece):
                continue
            for site, seen in sites.items():
                if site != dest and seen.holds(piece):
                    return Flow(piece, site, dest)
        return None
