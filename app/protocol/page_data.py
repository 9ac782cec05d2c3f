"""The one walk over a browser output that finds the page's text in it, by the declaration of the action that
produced it (`ActionSpec.result`, app/protocol/actions/shapes.py) and the shape every error shares.

Two readers share it, so they can never disagree: the boundary marking of the model's view
(app.agent.tools.browser_result) and the data-flow memory (app.safety.flow_check, through `page_data`). A key no
declaration names is page text (shapes.UNDECLARED): forgetting one over-marks, never leaks.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator, Mapping

from app.protocol.actions import ACTION_SPECS
from app.protocol.actions.shapes import ERROR, UNDECLARED, Part, Shape

QUOTES_KEY = "page_text"
"""The sibling of a `Part.QUOTING` message that lists the page text it quotes (app.protocol.envelope.ErrorBody)."""


def result_shape(action_type: object) -> Shape:
    """What the declaration of `action_type` says its result holds ({}: an unknown action, all of it page text)."""
    spec = ACTION_SPECS.get(action_type) if isinstance(action_type, str) else None
    return spec.result if spec is not None else {}


def without_framed(value: Any, shape: Part | Shape) -> Any:
    """`value` without its `Part.FRAMED` parts, wherever its shape declares them (a change list's inside an input
    action's result too): what the model reads, which says that text where the markdown or change list does."""
    if isinstance(shape, Part):
        return value
    if isinstance(value, list):
        return [without_framed(v, shape) for v in value]
    if isinstance(value, dict):
        return {k: without_framed(v, shape.get(k, UNDECLARED)) for k, v in value.items()
                if shape.get(k) != Part.FRAMED}
    return value


Path = tuple[str | int, ...]
"""Where a string stands in an output: its keys and list indexes from the output's root (`("result", "title")`)."""


class PageDataVisitor:
    """What to do with each string the walk finds; this one keeps everything as it is (subclasses mark or collect).
    `path` is where the string being visited stands (the walk keeps it)."""

    path: Path = ()
    quotes: tuple[str, ...] = ()
    """The page text the object being walked lists in `page_text` (what its `Part.QUOTING` message quotes)."""

    def text(self, value: str) -> str:
        """A string of the page's."""
        return value

    def copied(self, value: str) -> str:
        """A string of the page's that is now on the task's clipboard."""
        return self.text(value)

    def url(self, value: str) -> str:
        return value

    def framed(self, url: str, text: str) -> dict[str, str]:
        """What a frame of another origin (`url`) shows (`Part.FRAMED`): page text, the URL a URL."""
        return {"url": self.url(url), "text": self.text(text)}

    # -- the walk ------------------------------------------------------------------------------------------------
    def output(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """A copy of `{ok, action, result | error}` with each of its page strings replaced by what the visitor made
        of it."""
        out = dict(data)
        if isinstance(data.get("result"), dict):
            out["result"] = self.within("result", data["result"], result_shape(data.get("action")))
        if isinstance(data.get("error"), dict):
            out["error"] = self.within("error", data["error"], ERROR)
        return out

    @contextmanager
    def _step(self, step: str | int) -> Iterator[None]:
        outer = self.path
        self.path = (*outer, step)
        try:
            yield
        finally:
            self.path = outer

    def within(self, step: str | int, value: Any, shape: Part | Shape) -> Any:
        """`node` one key or index further down the path."""
        with self._step(step):
            return self.node(value, shape)

    def node(self, value: Any, shape: Part | Shape) -> Any:
        if isinstance(shape, Part):
            return self.part(value, shape)
        if isinstance(value, list):
            return [self.within(index, v, shape) for index, v in enumerate(value)]
        if isinstance(value, dict):
            return self.object(value, shape)
        return self.part(value, UNDECLARED)  # a string where an object was declared: not what was declared

    def object(self, value: dict[str, Any], shape: Shape) -> dict[str, Any]:
        given = value.get(QUOTES_KEY)
        outer_quotes = self.quotes
        self.quotes = tuple(q for q in given if isinstance(q, str) and q) if isinstance(given, list) else ()
        out: dict[str, Any] = {}
        try:
            for key, item in value.items():
                node = shape.get(key, UNDECLARED)
                if node == Part.QUOTING:
                    out[key] = self.within(key, item, Part.QUOTING if isinstance(item, str) else Part.PAGE)
                elif key == QUOTES_KEY and any(shape.get(k) == Part.QUOTING for k in value):
                    continue  # its quotes are marked where the message says them
                elif key not in shape and isinstance(item, (bool, int, float)):
                    out[key] = self.within(key, _as_text(item), UNDECLARED)
                else:
                    out[key] = self.within(key, item, node)
        finally:
            self.quotes = outer_quotes
        return out

    def part(self, value: Any, part: Part) -> Any:
        if part == Part.OWN or value is None or isinstance(value, (bool, int, float)):
            return value
        if part == Part.QUOTING:
            return self.quoting(value, list(self.quotes))
        if isinstance(value, list):
            return [self.within_part(index, v, part) for index, v in enumerate(value)]
        if isinstance(value, dict):
            if part == Part.FRAMED:
                return self.framed(str(value.get("url") or ""), str(value.get("text") or ""))
            if part == Part.PAGE_JSON:
                return self.text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
            inner = Part.PAGE if part == Part.URL else part
            return {k: self.within_part(k, _as_text(v) if isinstance(v, (bool, int, float)) else v, inner)
                    for k, v in value.items()}
        if not isinstance(value, str) or not value:
            return value
        if part == Part.URL:
            return self.url(value)
        return self.copied(value) if part == Part.CLIPBOARD else self.text(value)

    def within_part(self, step: str | int, value: Any, part: Part) -> Any:
        with self._step(step):
            return self.part(value, part)

    def quoting(self, message: str, quotes: list[str]) -> str:
        """bua's words with the page text they quote marked where it stands; when a declared quote is not in the
        message verbatim, the whole message is page text (it cannot be told apart)."""
        if not quotes:
            return message
        if any(q not in message for q in quotes):
            return self.text(message)
        pattern = re.compile("|".join(re.escape(q) for q in sorted(set(quotes), key=len, reverse=True)))
        return pattern.sub(lambda m: self.text(m.group(0)), message)


def _as_text(value: bool | int | float) -> str:
    """A number or true/false under a key no declaration names, or inside an object of the page's: its key is page
    text (the page may have chosen it), so the entry is page text, its value written as JSON (`5`, `true`)."""
    return json.dumps(value)


@dataclass
class _Collector(PageDataVisitor):
    found: list[str] = field(default_factory=list)
    on_clipboard: list[str] = field(default_factory=list)
    frames: list[tuple[str, str]] = field(default_factory=list)

    def framed(self, url: str, text: str) -> dict[str, str]:
        self.frames.append((url, text))
        return {"url": url, "text": text}

    def text(self, value: str) -> str:
        self.found.append(value)
        return value

    def copied(self, value: str) -> str:
        self.on_clipboard.append(value)
        return self.text(value)


@dataclass(frozen=True)
class PageData:
    texts: list[str]
    """Every page string of the output, as the page gave it: what the data-flow memory records."""
    copied: list[str]
    """What the action put on the task's clipboard (a copy's `Part.CLIPBOARD` result)."""
    framed: list[tuple[str, str]] = field(default_factory=list)
    """(frame origin, text) of what frames of other origins show (`Part.FRAMED`): also in `texts`, where the
    page's own text says it."""


def page_data(data: Mapping[str, Any]) -> PageData:
    """The page strings of a browser output `{action, result | error}`, unmarked: exactly what the model's view marks."""
    collector = _Collector()
    collector.output(data)
    return PageData(collector.found, collector.on_clipboard, collector.frames)



def frames_as_said(frames: list[dict[str, Any]], data: Mapping[str, Any]) -> list[dict[str, str]]:
    """`frames` (`Part.FRAMED` entries another output declared) for the output `data` that says their lines again:
    each line as many times as `data` says it (a refusal repeats a held control's quotes in its message and its
    details), since each line a frame declares takes one line out of the page's own text
    (app.safety.flow_check.own_text); a line `data` does not say is left out."""
    said = Counter(line.strip() for text in page_data(data).texts for line in text.splitlines() if line.strip())
    out = []
    for frame in frames:
        lines = [line for line in str(frame.get("text") or "").splitlines() for _ in range(said[line.strip()])]
        if lines:
            out.append({"url": str(frame.get("url") or ""), "text": "\n".join(lines)})
    return out
