from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import ActionModel, TabId
from app.protocol.actions.shapes import OWN
from app.protocol.actions.spec import ActionSpec


class CloseTab(ActionModel):
    type: Literal["close_tab"]
    tab_id: TabId

    spec = ActionSpec(
        rank=130,
        signature="{tab_id}",
        guide="close a tab this task opened.",
        done=lambda raw, result: "Closed a tab",
        failed="close the tab",
        closes_tab=True,
        result={"closed": OWN, "current_tab_id": OWN},
    )
