"""One boundary per result: what the model reads of a browser output is bua's own facts as JSON, then (when the
output holds any page text) the task's marker and one region, to the end of the result, whose lines are the page's
strings, each keyed by where it stands in the output:

    {"ok":true,"action":"click","result":{"effects":{"dom_mutations":3},"changes":{"summary":"1 added"}}}
    ⟦k7q2m⟧
    clicked: "button \"Save\""
    changes.markdown: "+ Saved"

A key is the string's path in `result` (`title`, `fields.0.element`), or in the output for an error's strings
(`error.message`). A value is a JSON string, so one line is one string: a page's line break or quote cannot start
a line of its own or leave its quotes, which is why the region needs no closing marker (a page's "end of data" is
visibly inside a string); marker look-alikes inside page text are defused before (app/agent/page_text/
forgeries.py). Where bua's words quote the page (an error's message), the quote's place says `{key}` and the quote
is a line of the region. The marker costs 7 characters per result, not ~50 per string (docs/architecture.md,
"Page content as data").

`read_view` puts a rendered view back together (the scripted model and the tests read results as a model does).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from app.agent.page_text.boundary import CLOSE, OPEN, marker
from app.protocol.page_data import Path


class _Moved:
    def __repr__(self) -> str:
        return "MOVED"


MOVED: Any = _Moved()
"""What stands in the facts where a page string was, until `facts_without` takes it out."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*\Z")
_REGION = re.compile(r"\n" + re.escape(OPEN) + r"([^\s" + re.escape(CLOSE) + r"]+)" + re.escape(CLOSE)
                     + r"\n(.*)\Z", re.DOTALL)


def key_of(path: Path) -> str:
    """A path as the region names it: steps joined by dots, `result.` left out (an error's keys begin `error.`),
    a step that is not a plain name or index quoted as JSON (so no key holds a line break)."""
    steps = list(path[1:]) if path[:1] == ("result",) and path[1:2] != ("error",) else list(path)
    return ".".join(str(s) if isinstance(s, int) or _NAME.match(s) else json.dumps(s, ensure_ascii=False)
                    for s in steps)


def path_of(key: str) -> Path:
    """The path a region key names (`key_of` read back)."""
    steps: list[str | int] = []
    at = 0
    while at < len(key):
        if key[at] == '"':
            value, at = json.JSONDecoder().raw_decode(key, at)
            steps.append(value)
        else:
            end = key.find(".", at)
            end = len(key) if end == -1 else end
            step = key[at:end]
            steps.append(int(step) if step.isdigit() else step)
            at = end
        at += 1  # the dot
    return tuple(steps) if steps[:1] in (["result"], ["error"]) else ("result", *steps)


def facts_without(value: Any) -> Any:
    """The facts with every MOVED string taken out: a key whose string moved goes, a list whose items all moved
    goes, a moved item among others leaves null (the other items keep their indexes), and an object or list left
    empty by the moves goes too (the region's keys make it again)."""
    if isinstance(value, dict):
        kept = {k: facts_without(v) for k, v in value.items()}
        out = {k: v for k, v in kept.items() if v is not MOVED}
        return MOVED if value and not out else out
    if isinstance(value, list):
        items = [facts_without(v) for v in value]
        if value and all(item is MOVED for item in items):
            return MOVED
        return [None if item is MOVED else item for item in items]
    return value


@dataclass
class MarkedView:
    """A browser output as the model reads it: bua's facts, and the page's strings by key (already neutralised
    and flagged), rendered by `text()` with one boundary."""
    facts: dict[str, Any]
    token: str | None = None
    page: dict[str, str] = field(default_factory=dict)

    def text(self) -> str:
        facts = json.dumps(self.facts, ensure_ascii=False, separators=(",", ":"))
        if not self.page or self.token is None:
            return facts
        lines = "\n".join(f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in self.page.items())
        return f"{facts}\n{marker(self.token)}\n{lines}"

    def read(self, each: Callable[[str], str] = str) -> dict[str, Any]:
        """The output put back together: each page string (as `each` makes it) where it stood, quotes back in
        their messages."""
        page = {key: each(value) for key, value in self.page.items()}
        data: Any = self.facts
        for key, value in page.items():
            data = _placed(data, path_of(key), value)
        read: dict[str, Any] = _filled(data, page) if page else data
        return read


def parse_view(text: str) -> MarkedView:
    """A rendered view (`MarkedView.text()`) split back into its facts and its region's strings by key."""
    region = _REGION.search(text)
    facts: dict[str, Any] = json.loads(text[:region.start()] if region else text)
    page: dict[str, str] = {}
    for line in region.group(2).split("\n") if region else []:
        if line:
            key, value = _split_line(line)
            page[key] = value
    return MarkedView(facts, region.group(1) if region else None, page)


def read_view(text: str) -> dict[str, Any]:
    """A rendered view read back into one output, as a model reads it: the facts with each region line at its
    key, and each `{key}` in bua's words replaced by that key's string."""
    return parse_view(text).read()


def _split_line(line: str) -> tuple[str, str]:
    """`key: "json"` → (key, the string); a quoted step may hold `: `, so the key is read step by step."""
    at = 0
    while at < len(line):
        if line[at] == '"':
            _value, at = json.JSONDecoder().raw_decode(line, at)
        else:
            while at < len(line) and line[at] not in ".:":
                at += 1
        if line.startswith(": ", at):
            return line[:at], json.loads(line[at + 2:])
        at += 1
    raise ValueError(f"not a region line (key: \"string\"): {line[:80]!r}")


def _placed(node: Any, path: Path, value: str) -> Any:
    """`node` with `value` at `path`, making the objects and lists on the way."""
    if not path:
        return value
    step, rest = path[0], path[1:]
    if isinstance(step, int):
        items = list(node) if isinstance(node, list) else []
        items.extend([None] * (step + 1 - len(items)))
        items[step] = _placed(items[step], rest, value)
        return items
    obj = dict(node) if isinstance(node, dict) else {}
    obj[step] = _placed(obj.get(step), rest, value)
    return obj


def _filled(node: Any, page: dict[str, str]) -> Any:
    if isinstance(node, dict):
        return {k: _filled(v, page) for k, v in node.items()}
    if isinstance(node, list):
        return [_filled(v, page) for v in node]
    if isinstance(node, str) and "{" in node:
        return re.sub(r"\{([^{}\n]+)\}", lambda m: page.get(m.group(1), m.group(0)), node)
    return node
