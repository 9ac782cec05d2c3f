from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import OnTab, Selector, TimeoutMs, Uid
from app.protocol.actions.shapes import FRAMES, INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec
from app.protocol.actions.wording import awaited


class WaitFor(OnTab):
    type: Literal["wait_for"]
    uid: Uid | None = None
    selector: Selector | None = None
    text: Annotated[str, Field(min_length=1, max_length=1_000)] | None = None
    state: Literal["visible", "hidden", "attached", "detached"] = "visible"
    timeout_ms: TimeoutMs = 10_000

    @model_validator(mode="after")
    def _one_target(self) -> "WaitFor":
        given = [n for n in ("uid", "selector", "text") if getattr(self, n) is not None]
        if len(given) != 1:
            raise PydanticCustomError("target_xor", "give exactly one of 'uid', 'selector' or 'text'")
        return self

    spec = ActionSpec(
        rank=80,
        signature="{uid | selector | text, state, timeout_ms?}",
        guide="until visible/hidden/attached/detached; carries `changes` like a click.",
        done=lambda raw, result: f"Waited for {awaited(raw)} to be {raw.get('state', 'visible')}",
        failed="see",
        failed_subject=awaited,
        read_only=True,
        change_list="on_success",
        result={**INPUT, "state": OWN, "seen": PAGE, "elapsed_ms": OWN, **FRAMES},
    )
