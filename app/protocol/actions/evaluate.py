from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import MAX_TEXT_CHARS, OnTab, WithDialog
from app.protocol.actions.shapes import DIALOG, OWN, URL, Part
from app.protocol.actions.spec import ActionSpec, Carries


class Evaluate(OnTab, WithDialog):
    type: Literal["evaluate"]
    expression: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS), Carries.SCRIPT]

    spec = ActionSpec(
        asks="Run a script",
        rank=100,
        signature="{expression}",
        guide="run JavaScript in the page, get JSON back. Last resort.",
        done=lambda raw, result: "Ran a script in the page",
        failed="run the script",
        may_navigate=True,
        reads_page=True,
        sensitive_by="script",
        result={"value": Part.PAGE_JSON, "type": OWN, "truncated": OWN, "total_chars": OWN, "note": OWN,
                "dialog": DIALOG, "navigated": OWN, "url": URL},
    )
