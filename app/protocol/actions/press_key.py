from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import OnTab, WithDialog
from app.protocol.actions.shapes import INPUT, OWN, Part
from app.protocol.actions.spec import ActionSpec, Carries
from app.protocol.actions.wording import outcome


class PressKey(OnTab, WithDialog):
    type: Literal["press_key"]
    key: Annotated[str, Field(min_length=1, max_length=64,
                              description="e.g. Enter, Tab, Escape, ArrowDown, PageDown, Control+A"),
                   Carries.KEYS]

    spec = ActionSpec(
        asks="Press a key",
        rank=50,
        signature="{key}",
        guide="one key or chord.",
        done=lambda raw, result: f"Pressed {raw.get('key', 'a key')}{outcome(result)}",
        failed="press",
        failed_subject=lambda raw: str(raw.get("key", "")),
        may_navigate=True,
        needs_input_focus=True,
        sensitive_by="key",
        change_list="on_dom_change",
        result={**INPUT, "pressed": OWN, "copied": Part.CLIPBOARD},
    )
