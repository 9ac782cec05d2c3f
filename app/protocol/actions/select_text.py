from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import Target
from app.protocol.actions.shapes import FRAMES, OWN, PAGE
from app.protocol.actions.spec import ActionSpec
from app.protocol.actions.wording import target


class SelectText(Target):
    type: Literal["select_text"]
    text: Annotated[str, Field(min_length=1, max_length=10_000,
                               description="The first occurrence of this text in the element; all of its "
                                           "text when left out.")] | None = None

    spec = ActionSpec(
        rank=75,
        signature="{uid | selector, text?}",
        guide="select an element's text, or the first `text` in it (before a copy or a formatting button).",
        done=lambda raw, result: f"Selected “{_short(str(result.get('selected', '')))}” in {target(raw)}",
        failed="select text in",
        failed_subject=target,
        result={"selected": PAGE, "length": OWN, "element": PAGE, "in_field": OWN, **FRAMES},
    )


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:39] + "…"
