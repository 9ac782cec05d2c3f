"""The boundary before a result's page-derived text: `⟦page-data T⟧`, with a random token per task that the page
cannot predict (it is made here, in the app, and never sent to the browser), so a page cannot open a fake one.

The page text after it runs to the end of the result, one JSON string per keyed line (app/agent/page_text/
region.py), so nothing the page writes leaves its quotes: no closing marker is needed. Page text that imitates the
boundary or a tool result / chat turn is neutralised before (app/agent/page_text/forgeries.py: found in the folded
text, whatever brackets or look-alike letters it uses).
"""

from __future__ import annotations

import secrets

from app.agent.page_text.forgeries import neutralise

__all__ = ["CLOSE", "OPEN", "marker", "neutralise", "token_for"]

OPEN, CLOSE = "⟦", "⟧"
_TOKENS: dict[str, str] = {}


def token_for(task_id: str) -> str:
    """The task's boundary token: random, made once per task and app run. 32 bits: a page would have to guess it
    and also write a bracket that no fold turns into `⟦` (forgeries.py makes every look-alike plain)."""
    token = _TOKENS.get(task_id)
    if token is None:
        token = _TOKENS[task_id] = secrets.token_hex(4)
    return token


def marker(token: str) -> str:
    """The line that opens a result's page text."""
    return f"{OPEN}page-data {token}{CLOSE}"
