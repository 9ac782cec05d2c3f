"""Reading a Messages-API request the way a model would: the prompt, and each tool call with its real result."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from app.agent.page_text.region import read_view

_ids = itertools.count(1)
ELEMENT_LINE = re.compile(r'^\s*-?\s*\[?(e\d+)\]?\s+(\w[\w-]*)\s+"((?:[^"\\]|\\.)*)"(.*)$')
REGION_LINE = re.compile(r'^([a-z][a-z ]*(?: "(?:[^"\\]|\\.)*")?): (\[.*)$')
"""A left-out region's links on one line: `navigation "Main": [Jobs](e1) [Reports](e3) [e4]`."""
REGION_TOKEN = re.compile(r"\[((?:[^\[\]\\]|\\.)*)\]\((e\d+)\)|\[(e\d+)\]")
QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
CONTEXT = re.compile(r"\((.*?)\)(?:\s+\(was: .*\))?$")
"""An element line's context, up to a change list's `(was: …)` when one follows."""


@dataclass
class Step:
    name: str
    input: dict[str, Any]
    result: dict[str, Any]


def first_user_text(body: dict[str, Any]) -> str:
    content = body["messages"][0]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(b.get("text", "") for b in content if b.get("type") == "text")


def steps(body: dict[str, Any]) -> list[Step]:
    """Tool calls in order, each paired with the JSON its tool_result carried."""
    uses: dict[str, dict[str, Any]] = {}
    found: list[Step] = []
    for message in body["messages"]:
        if isinstance(message["content"], str):
            continue
        for block in message["content"]:
            if block.get("type") == "tool_use":
                uses[block["id"]] = block
            elif block.get("type") == "tool_result":
                use = uses.get(block["tool_use_id"], {})
                text = "".join(c.get("text", "") for c in block.get("content", []) if c.get("type") == "text")
                try:
                    result = read_view(text)  # reads page data as a model does: each string at its key
                except ValueError:
                    result = {"raw": text}
                found.append(Step(use.get("name", "?"), use.get("input", {}), result))
    return found


def notes(body: dict[str, Any]) -> list[str]:
    """The model's own text blocks so far, oldest first (they are never shrunk)."""
    found = []
    for message in body["messages"]:
        if message["role"] == "assistant" and not isinstance(message["content"], str):
            found += [b.get("text", "") for b in message["content"] if b.get("type") == "text"]
    return found


def offers(body: dict[str, Any], tool: str, field: str) -> bool:
    """Whether the request's `tool` takes `field` (e.g. browser's extract `changes`)."""
    for t in body.get("tools") or []:
        if t.get("name") == tool:
            return field in ((t.get("input_schema") or {}).get("properties") or {})
    return False


def new_lines(changes: dict[str, Any], key: str) -> list[str]:
    """The lines a change list (`changes.markdown` or `changes.elements`) says are there now: added or changed."""
    raw = changes.get(key)
    lines = raw.splitlines() if isinstance(raw, str) else []
    return [line[2:] for line in lines if line.startswith(("+ ", "~ "))]


@dataclass
class Element:
    uid: str
    role: str
    name: str
    context: str


def elements(extract_result: dict[str, Any]) -> list[Element]:
    """Parse the extract's element lines (`e4 button "View" (row: Jane Doe)`), and the links of left-out regions'
    lines (`navigation "Main": [Jobs](e1)` → link "Jobs" in context `in navigation "Main"`)."""
    raw = extract_result.get("elements", "")
    lines = raw.splitlines() if isinstance(raw, str) else [str(x) for x in raw]
    parsed = []
    for line in lines:
        match = ELEMENT_LINE.match(line)
        if match:
            uid, role, name, rest = match.groups()
            parsed.append(Element(uid, role, name.replace('\\"', '"'), line_context(rest)))
        elif region := REGION_LINE.match(line):
            for token in REGION_TOKEN.finditer(region.group(2)):
                name = re.sub(r"\\(.)", r"\1", token.group(1) or "")
                parsed.append(Element(token.group(2) or token.group(3), "link", name, f"in {region.group(1)}"))
    return parsed


def line_context(rest: str) -> str:
    """The context in parentheses after an element line's states (`value="a (b)" (row: Jane Doe)` → `row: Jane
    Doe`), or "": quoted state values are skipped, and a change list's `(was: …)` is neither context nor part of
    it (`~ e10 button "Renamed" (was: button "Rename me")` has none)."""
    i = 0
    while i < len(rest):
        if rest[i] == '"':
            quoted = QUOTED.match(rest, i)
            i = quoted.end() if quoted else len(rest)
        elif rest[i] == "(" and (i == 0 or rest[i - 1].isspace()):
            found = None if rest.startswith("(was: ", i) else CONTEXT.match(rest, i)
            return found.group(1) if found else ""
        else:
            i += 1
    return ""


def tool_use(name: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": f"toolu_{next(_ids):05d}", "name": name, "input": payload}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}
