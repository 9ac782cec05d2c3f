from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import OptionalTarget
from app.protocol.actions.shapes import OWN, PAGE
from app.protocol.actions.spec import ActionSpec


class Scroll(OptionalTarget):
    type: Literal["scroll"]
    direction: Literal["up", "down", "left", "right"] | None = None
    amount: Annotated[int, Field(ge=1, le=100_000, description="Pixels; default one viewport.")] | None = None

    @model_validator(mode="after")
    def _direction_or_target(self) -> "Scroll":
        has_target = self.uid is not None or self.selector is not None
        if has_target == (self.direction is not None):
            raise PydanticCustomError(
                "scroll_target",
                "give either 'direction' (with optional 'amount') or an element ('uid' or 'selector') to scroll "
                "into view",
            )
        return self

    spec = ActionSpec(
        rank=60,
        signature="{direction, amount?} or {uid | selector}",
        guide="scroll the page, or bring an element into view.",
        done=lambda raw, result: f"Scrolled {raw['direction']}" if raw.get("direction")
        else "Scrolled an element into view",
        failed="scroll",
        result={"container": PAGE, "target": PAGE, "note": PAGE, "scrolled_to": OWN, "in_view": OWN, "top": OWN,
                "x": OWN, "y": OWN, "max_x": OWN, "max_y": OWN, "moved": OWN, "moved_by": OWN, "at_start": OWN,
                "at_end": OWN},
    )
