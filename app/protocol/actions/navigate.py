from __future__ import annotations

from typing import Annotated, Literal

from app.protocol.actions.fields import HttpUrlStr, OnTab, TimeoutMs
from app.protocol.actions.shapes import OWN, TAB
from app.protocol.actions.spec import ActionSpec, Carries


class Navigate(OnTab):
    type: Literal["navigate"]
    url: Annotated[HttpUrlStr, Carries.URL]
    timeout_ms: TimeoutMs = 30_000

    spec = ActionSpec(
        asks="Open a page",
        rank=10,
        signature="{url, tab_id?}",
        guide="load a URL in the task's tab (opens one the first time).",
        done=lambda raw, result: f"Opened {result.get('title') or result.get('url') or raw.get('url', 'the page')}",
        failed="open",
        failed_subject=lambda raw: str(raw.get("url", "")),
        may_navigate=True,
        opens_session=True,
        result={**TAB, "status": OWN, "note": OWN},
    )
