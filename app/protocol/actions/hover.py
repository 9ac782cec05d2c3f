from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import PointTarget
from app.protocol.actions.shapes import FRAMES, INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec
from app.protocol.actions.wording import outcome, target


class Hover(PointTarget):
    type: Literal["hover"]

    spec = ActionSpec(
        rank=70,
        signature="{uid | selector | point}",
        guide="the pointer over an element or a `point` (menus, tooltips).",
        done=lambda raw, result: f"Pointed at {target(raw, result, 'hovered')}{outcome(result)}",
        failed="point at",
        failed_subject=target,
        needs_input_focus=True,
        result={**INPUT, "hovered": PAGE, "x": OWN, "y": OWN, **FRAMES},
    )
