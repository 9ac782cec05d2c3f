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
    changes: Annotated[bool, Field(description="Only what changed since this task's previous extract of the tab "
                                               "(or of the same selector).")] | None = None

    spec = ActionSpec(
        rank=20,
        guide="the page as markdown with inline uids, the interactive elements (`e4 button \"View\" (row: Jane "
              "Doe)`), and text. Do this first on a page. `changes: true` returns only what changed since your "
              "previous extract of the tab: `changes.markdown` lines `+` added, `-` removed, `~` changed (then "
              "`was:`), each hunk after `@ after: <the line before it>`; `changes.elements` the same for uids "
              "(uids stay stable); a full extract instead when the tab loaded a new document or the change is "
              "larger than the page (`changes.full`, `changes.summary` says why).",
        done=_done,
        failed="read the page",
        read_only=True,
        cut_when_superseded=True,
        result={**TAB, "markdown": PAGE, "elements": PAGE, "text": PAGE, "changes": CHANGES, "note": OWN,
                "hidden_chars": OWN, "truncated": OWN, "chars": OWN},
    )
