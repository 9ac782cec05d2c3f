from __future__ import annotations

from typing import Annotated, Literal

from app.protocol.actions.fields import ActionModel, HttpUrlStr
from app.protocol.actions.shapes import TAB
from app.protocol.actions.spec import ActionSpec, Carries


class OpenTab(ActionModel):
    type: Literal["open_tab"]
    url: Annotated[HttpUrlStr, Carries.URL]
    focus: bool = False

    spec = ActionSpec(
        asks="Open a tab",
        rank=120,
        signature="{url, focus?}",
        guide="another tab for this task (background unless `focus`).",
        done=lambda raw, result: f"Opened a new tab: {result.get('url') or raw.get('url', '')}",
        failed="open a tab",
        may_navigate=True,
        opens_session=True,
        needs_tab=False,
        result=TAB,
    )
