from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import ActionModel
from app.protocol.actions.shapes import OWN, TAB
from app.protocol.actions.spec import ActionSpec


class GetTabs(ActionModel):
    type: Literal["get_tabs"]

    spec = ActionSpec(
        rank=110,
        signature="{}",
        guide="this task's tabs (url, title, `current`); others are only counted.",
        done=lambda raw, result: f"Listed {len(result.get('tabs') or [])} tabs",
        failed="list the tabs",
        needs_tab=False,
        read_only=True,
        result={"tabs": {**TAB, "active": OWN, "in_task": OWN, "current": OWN}, "other_tabs": OWN},
    )
