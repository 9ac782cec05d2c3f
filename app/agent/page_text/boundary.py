"""The boundary around page-derived text: a random token per task that the page cannot predict (it is made here,
in the app, and never sent to the browser), so a page cannot end the data early or open a fake tool result.

Page text that imitates the boundary or a tool result / chat turn is neutralised before it is wrapped
(app/agent/page_text/forgeries.py: found in the folded text, whatever brackets or look-alike letters it uses).
"""

from __future__ import annotations

import secrets

from app.agent.page_text.forgeries import neutralise

__all__ = ["CLOSE", "OPEN", "neutralise", "token_for", "unwrap", "wrap"]

OPEN, CLOSE = "⟦", "⟧"
_TOKENS: dict[str, str] = {}


def token_for(task_id: str) -> str:
    """The task's boundary token: random, made once per task and app run."""
    token = _TOKENS.get(task_id)
    if token is None:
        token = _TOKENS[task_id] = secrets.token_hex(6)
    return token


def wrap(text: str, token: str) -> str:
    return f"{OPEN}page-data {token}{CLOSE}{text}{OPEN}/page-data {token}{CLOSE}"


def unwrap(text: str, token: str) -> str | None:
    """The inside of a wrapped string, or None when it is not wrapped with this token."""
    head, tail = f"{OPEN}page-data {token}{CLOSE}", f"{OPEN}/page-data {token}{CLOSE}"
    if text.startswith(head) and text.endswith(tail):
        return text[len(head):-len(tail)]
    return None
