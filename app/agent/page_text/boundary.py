"""The boundary around page-derived text: a random token per task that the page cannot predict (it is made here,
in the app, and never sent to the browser), so a page cannot end the data early or open a fake tool result.

Page text that imitates the boundary or a tool result / chat turn is neutralised before it is wrapped: the
boundary brackets become plain brackets, markup of tool results and chat templates loses its angle brackets.
"""

from __future__ import annotations

import re
import secrets

OPEN, CLOSE = "⟦", "⟧"
_TOKENS: dict[str, str] = {}
_BRACKETS = str.maketrans({OPEN: "[", CLOSE: "]", "⟪": "[", "⟫": "]"})
_FORGED = re.compile(
    r"</?\s*(?:antml:)?(?:function_results|function_calls|tool_result|tool_use|invoke|parameter|result|output|"
    r"system|assistant|human|user|instructions?|page-data|untrusted[-_ ]?data)\b[^<>]{0,200}>"
    r"|<\|[a-z_]{2,20}\|>|\[/?INST\]|<</?SYS>>|\{\s*\"ok\"\s*:\s*(?:true|false)",
    re.IGNORECASE)


def token_for(task_id: str) -> str:
    """The task's boundary token: random, made once per task and app run."""
    token = _TOKENS.get(task_id)
    if token is None:
        token = _TOKENS[task_id] = secrets.token_hex(6)
    return token


def neutralise(text: str) -> tuple[str, int]:
    """Page text with boundary look-alikes and tool-result / chat-turn markup defused; how many were defused."""
    count = sum(text.count(c) for c in (OPEN, CLOSE, "⟪", "⟫"))
    if count:
        text = text.translate(_BRACKETS)
    found = 0

    def defuse(match: re.Match[str]) -> str:
        nonlocal found
        found += 1
        return match.group(0).replace("<", "‹").replace(">", "›").replace('"', "'")

    text = _FORGED.sub(defuse, text)
    return text, count + found


def wrap(text: str, token: str) -> str:
    return f"{OPEN}page-data {token}{CLOSE}{text}{OPEN}/page-data {token}{CLOSE}"


def unwrap(text: str, token: str) -> str | None:
    """The inside of a wrapped string, or None when it is not wrapped with this token."""
    head, tail = f"{OPEN}page-data {token}{CLOSE}", f"{OPEN}/page-data {token}{CLOSE}"
    if text.startswith(head) and text.endswith(tail):
        return text[len(head):-len(tail)]
    return None
