from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import OnTab, Selector
from app.protocol.actions.shapes import CHANGES, OWN, PAGE, TAB
from app.protocol.actions.spec import ActionSpec, Raw, Result


def _done(raw: Raw, result: Result) -> str:
    changes = result.get("changes")
    if isinstance(changes, dict) and not changes.get("full"):
        return f"Read what changed on {result.get('title') or 'the page'}: {changes.get('summary', '')}"
    return f"Read {result.get('title') or 'the page'}"


class Extract(OnTab):
    type: Literal["extract"]
    selector: Selector | None = None
    max_chars: Annotated[int, Field(ge=1_000, le=200_000)] | None = None
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
                "hidden_chars": OWN, "truncated": OWN, "chars": OWN},
    )
