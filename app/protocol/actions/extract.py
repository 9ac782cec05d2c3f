from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import OnTab, Selector
from app.protocol.actions.spec import ActionSpec


class Extract(OnTab):
    type: Literal["extract"]
    selector: Selector | None = None
    max_chars: Annotated[int, Field(ge=1_000, le=200_000)] | None = None

    spec = ActionSpec(
        rank=20,
        guide="the page as markdown with inline uids, the interactive elements (`e4 button \"View\" (row: Jane "
              "Doe)`), and text. Do this before acting and after anything changes.",
        done=lambda raw, result: f"Read {result.get('title') or 'the page'}",
        failed="read the page",
        read_only=True,
    )
