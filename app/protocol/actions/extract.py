from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import OnTab, Selector
from app.protocol.actions.shapes import CHANGES, FRAMES, OWN, PAGE, TAB
from app.protocol.actions.spec import ActionSpec, Raw, Result


def _done(raw: Raw, result: Result) -> str:
    changes = result.get("changes")
    if isinstance(changes, dict) and not changes.get("full"):
        return f"Read what changed on {result.get('title') or 'the page'}: {changes.get('summary', '')}"
    return f"Read {result.get('title') or 'the page'}"


DEFAULT_MAX_CHARS = 24_000
"""What an extract (and a read_download) answers in when `max_chars` is left out; the extension gets it through the
generated protocol.js (EXTRACT_BUDGET), so neither side keeps a copy."""
MAX_MAX_CHARS = 200_000
"""The largest `max_chars` allowed, which the truncation note names."""


class Extract(OnTab):
    type: Literal["extract"]
    selector: Selector | None = None
    max_chars: Annotated[int, Field(ge=1_000, le=MAX_MAX_CHARS)] | None = None
    changes: Annotated[bool, Field(description="Only what changed since your last extract of the tab (or selector).")] \
        | None = None

    spec = ActionSpec(
        rank=20,
        guide="the page as markdown with inline uids, then `elements` and `text`. First thing on a page. `changes: "
              "true`: only what changed since your last extract (`+` added, `-` removed, `~` changed, then `was:`).",
        done=_done,
        failed="read the page",
        read_only=True,
        cut_when_superseded=True,
        result={**TAB, "markdown": PAGE, "elements": PAGE, "text": PAGE, "changes": CHANGES, "note": OWN,
                "hidden_chars": OWN, "not_judged": OWN, "truncated": OWN, "chars": OWN, **FRAMES},
    )
