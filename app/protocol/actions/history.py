from __future__ import annotations

from typing import Literal

from app.protocol.actions.fields import OnTab, TimeoutMs
from app.protocol.actions.shapes import OWN, TAB
from app.protocol.actions.spec import ActionSpec

_DONE = {"back": "Went back to", "forward": "Went forward to", "reload": "Reloaded"}


class History(OnTab):
    type: Literal["history"]
    direction: Literal["back", "forward", "reload"]
    timeout_ms: TimeoutMs = 30_000

    spec = ActionSpec(
        rank=15,
        guide="back, forward or reload; extract again after.",
        done=lambda raw, result: f"{_DONE.get(str(raw.get('direction')), 'Went to')} "
                                 f"{result.get('title') or result.get('url') or 'the page'}",
        failed="go",
        failed_subject=lambda raw: str(raw.get("direction", "")),
        may_navigate=True,
        result={**TAB, "direction": OWN, "status": OWN},
    )
