"""Reading an extract's elements the way a model does: the markdown names an element where it stands (`[Buy](e7)`,
`[e5]`) and the index says only what the markdown does not (extension/src/extract/element-lines.js):

- `e5 textbox "Email" value="a@b.c" required`: a whole line, for an element the markdown does not name (a field
  beside its label, a token whose text is not its name, one in a left-out region with its context `(in footer)`);
- `e7 button disabled`, `e4 e5 e6 button`: the role and states of elements the markdown names; their names are
  their tokens' texts;
- `navigation "Main": [Jobs](e1) [e4]`: the links of a region the markdown leaves out;
- a token with no line of its own is a link.

A change list's element lines are whole lines (`~ e11 checkbox "Done" checked (was: checkbox "Done")`) and read
the same once new_lines took their marks off.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

INDEX_LINE = re.compile(r'^\s*-?\s*\[?(e\d+(?: e\d+)*)\]?\s+(\w[\w-]*)(?:\s+"((?:[^"\\]|\\.)*)")?(.*)$')
"""An element's line (`e4 textbox "Email" required`), or a facts line of one or more uids (`e4 e5 button`)."""
REGION_LINE = re.compile(r'^([a-z][a-z ]*(?: "(?:[^"\\]|\\.)*")?): (\[.*)$')
"""A left-out region's links on one line: `navigation "Main": [Jobs](e1) [Reports](e3) [e4]`."""
TOKEN = re.compile(r"\[((?:[^\[\]\\]|\\.)*)\]\((e\d+)\)|\[(e\d+)\]")
"""An element where the markdown (or a region's line) shows it: `[Jobs](e1)`, or `[e4]` without a text."""
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
CONTEXT = re.compile(r"\((.*?)\)(?:\s+\(was: .*\))?$")
"""An element line's context, up to a change list's `(was: …)` when one follows."""


@dataclass
class Element:
    uid: str
    role: str
    name: str
    context: str
    states: str = field(default="", compare=False)
    """as the index spells them (`value="x" required`)"""
    line: str = field(default="", compare=False)
    """the markdown line its token stands on ("" when the markdown does not show it)"""


def elements(extract_result: dict[str, Any]) -> list[Element]:
    """Every element an extract result (or the `elements` of a change list) names: the index's elements in its
    order, then the links only the markdown names; each with its name from its line or else from its token."""
    found: dict[str, Element] = {}
    raw = extract_result.get("elements", "")
    for line in raw.splitlines() if isinstance(raw, str) else [str(x) for x in raw]:
        for element in index_line(line):
            found.setdefault(element.uid, element)
    markdown = extract_result.get("markdown", "")
    for line in markdown.splitlines() if isinstance(markdown, str) else []:
        for token in TOKEN.finditer(line):
            uid, label = token.group(2) or token.group(3), _unescape(token.group(1) or "")
            listed = found.get(uid)
            if listed is None:
                found[uid] = Element(uid, "link", label, "", line=line)
                continue
            listed.line = listed.line or line
            listed.name = listed.name or label
    return list(found.values())


def index_line(line: str) -> list[Element]:
    """The elements of one index line: one for an element's line, each uid of a facts line, each link of a
    region's line; none for anything else."""
    if match := INDEX_LINE.match(line):
        uids, role, name, rest = match.groups()
        states, context = split_rest(rest)
        return [Element(uid, role, _json_text(name or ""), context, states=states) for uid in uids.split()]
    if region := REGION_LINE.match(line):
        return [Element(token.group(2) or token.group(3), "link", _unescape(token.group(1) or ""),
                        f"in {region.group(1)}") for token in TOKEN.finditer(region.group(2))]
    return []


def split_rest(rest: str) -> tuple[str, str]:
    """An element line's states and its context in parentheses after them (`value="a (b)" (row: Jane Doe)` →
    `value="a (b)"`, `row: Jane Doe`): quoted state values are skipped, and a change list's `(was: …)` is neither
    context nor part of it (`~ e10 button "Renamed" (was: button "Rename me")` has none)."""
    i = 0
    while i < len(rest):
        if rest[i] == '"':
            quoted = QUOTED.match(rest, i)
            i = quoted.end() if quoted else len(rest)
        elif rest[i] == "(" and (i == 0 or rest[i - 1].isspace()):
            states = rest[:i].strip()
            if rest.startswith("(was: ", i):
                return states, ""
            found = CONTEXT.match(rest, i)
            return states, found.group(1) if found else ""
        else:
            i += 1
    return rest.strip(), ""


def _json_text(quoted: str) -> str:
    """A name as the index writes it (JSON without its quotes) → the name."""
    try:
        return str(json.loads(f'"{quoted}"'))
    except ValueError:
        return quoted


def _unescape(label: str) -> str:
    return re.sub(r"\\(.)", r"\1", label)
