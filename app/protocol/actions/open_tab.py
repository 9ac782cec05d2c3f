from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import ActionModel, HttpUrlStr
from app.protocol.actions.spec import ActionSpec


class OpenTab(ActionModel):
    type: Literal["open_tab"]
    url: HttpUrlStr
    focus: bool = False

    spec = ActionSpec(
        asks="Open a tab",
        rank=120,
        signature="{url, focus?}",
        guide="open another tab for this task (in the background unless focus).",
        done=lambda raw, result: f"Opened a new tab: {result.get('url') or raw.get('url', '')}",
        failed="open a tab",
        may_navigate=True,
        opens_session=True,
        needs_tab=False,
    )
