from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import Offset, Point, PointTarget, Selector, Uid
from app.protocol.actions.shapes import FRAMES, INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec, Raw, Result
from app.protocol.actions.wording import outcome, target, thing


def _destination(raw: Raw, result: Result) -> str:
    """Where a drag ended, as a person reads it: the element it was dropped on, or the offset."""
    if result.get("dropped_on"):
        return f" onto {thing(str(result['dropped_on']))}"
    by = raw.get("by")
    if isinstance(by, dict):
        return f" by ({round(float(by.get('dx', 0)))}, {round(float(by.get('dy', 0)))}) px"
    return ""


class Drag(PointTarget):
    type: Literal["drag"]
    to_uid: Uid | None = None
    to_selector: Selector | None = None
    to_point: Point | None = None
    by: Offset | None = None
    steps: Annotated[int, Field(ge=1, le=50, description="Pointer moves between press and release.")] = 10

    @model_validator(mode="after")
    def _one_destination(self) -> "Drag":
        if sum(v is not None for v in (self.to_uid, self.to_selector, self.to_point, self.by)) != 1:
            raise PydanticCustomError(
                "destination_xor",
                "give exactly one destination: 'to_uid' (from the last extract), 'to_selector', 'to_point' "
                "({x, y} in the viewport) or 'by' ({dx, dy} from the start)",
            )
        return self

    spec = ActionSpec(
        asks="Drag and drop",
        rank=72,
        signature="{uid | selector | point, to_uid | to_selector | to_point | by, steps?}",
        guide="press, move and release on another element, a point or `by` {dx, dy} (lists, sliders, resize grips).",
        done=lambda raw, result: f"Dragged {target(raw, result, 'dragged')}{_destination(raw, result)}"
                                 f"{outcome(result)}",
        failed="drag",
        failed_subject=target,
        may_navigate=True,
        needs_input_focus=True,
        presses=True,
        sensitive_by="pointer",
        result={**INPUT, "dragged": PAGE, "dropped_on": PAGE, "how": OWN, "html5": OWN, "kind": OWN, "from": OWN,
                "to": OWN, "note": PAGE, **FRAMES},
    )
