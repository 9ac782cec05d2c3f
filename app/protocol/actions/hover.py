from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import Target
from app.protocol.actions.spec import ActionSpec
from app.protocol.actions.wording import outcome, target


class Hover(Target):
    type: Literal["hover"]

    spec = ActionSpec(
        rank=70,
        signature="{uid | selector}",
        guide="move the pointer over an element (menus, tooltips).",
        done=lambda raw, result: f"Pointed at {target(raw, result, 'hovered')}{outcome(result)}",
        failed="point at",
        failed_subject=target,
        needs_input_focus=True,
    )
