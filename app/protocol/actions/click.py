from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import PointTarget, WithDialog
from app.protocol.actions.shapes import FRAMES, INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec
from app.protocol.actions.wording import outcome, target


class Click(PointTarget, WithDialog):
    type: Literal["click"]
    button: Literal["left", "right", "middle"] = "left"
    click_count: Annotated[int, Field(ge=1, le=3)] = 1

    spec = ActionSpec(
        asks="Click",
        rank=30,
        signature="{uid | selector | point, dialog?, prompt_text?}",
        guide="click an element, or a `point` from a screenshot for what has no uid.",
        done=lambda raw, result: f"Clicked {target(raw, result, 'clicked')}{outcome(result)}",
        failed="click",
        failed_subject=target,
        may_navigate=True,
        needs_input_focus=True,
        presses=True,
        sensitive_by="pointer",
        change_list="on_dom_change",
        result={**INPUT, "clicked": PAGE, "x": OWN, "y": OWN, **FRAMES},
    )
