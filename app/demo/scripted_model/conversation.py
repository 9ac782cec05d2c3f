"""Reading a Messages-API request the way a model would: the prompt, and each tool call with its real result."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from app.agent.page_text.region import read_view

_ids = itertools.count(1)
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


def tool_use(name: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_use", "id": f"toolu_{next(_ids):05d}", "name": name, "input": payload}


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}
