"""The boundary before a result's page-derived text: a line `⟦T⟧`, T a random token per task that the page cannot
predict (it is made here, in the app, and never sent to the browser), so a page cannot open a fake one.

Two locks, of which the token is the second: the first is the layout. Page text stands only inside JSON strings on
keyed lines after the boundary (app/agent/page_text/region.py), so a page cannot start a line of its own, and every
`⟦`/`⟧` of page text, or anything that folds to them, is made plain `[`/`]` before (forgeries.py). The token tells
the model which line is bua's, in 7 characters with its line break: at most 5 % of a 150-character answer (issue
21; `⟦page-data 1a2b3c4d⟧` was 21).

The page text after it runs to the end of the result, one JSON string per keyed line (app/agent/page_text/
region.py), so nothing the page writes leaves its quotes: no closing marker is needed. Page text that imitates the
boundary or a tool result / chat turn is neutralised before (app/agent/page_text/forgeries.py: found in the folded
text, whatever brackets or look-alike letters it uses).
"""

from __future__ import annotations

import secrets

from app.agent.page_text.forgeries import neutralise

__all__ = ["CLOSE", "OPEN", "TOKEN_ALPHABET", "marker", "neutralise", "token_for"]

OPEN, CLOSE = "⟦", "⟧"
TOKEN_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"
"""32 letters and digits, none that reads as another (no l, o, 0, 1)."""
TOKEN_LENGTH = 5
_TOKENS: dict[str, str] = {}


def token_for(task_id: str) -> str:
    """The task's boundary token: random, made once per task and app run. 25 bits: a page would have to guess it,
    and also write a bracket that no fold turns into `⟦` (forgeries.py makes every look-alike plain), and also
    start a line (it cannot: region.py)."""
    token = _TOKENS.get(task_id)
    if token is None:
        token = _TOKENS[task_id] = "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))
    return token


def marker(token: str) -> str:
    """The line that opens a result's page text."""
    return f"{OPEN}{token}{CLOSE}"
