from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import OptionalTarget
from app.protocol.actions.shapes import OWN
from app.protocol.actions.spec import ActionSpec


class Screenshot(OptionalTarget):
    type: Literal["screenshot"]
    full_page: bool = False
    format: Literal["png", "jpeg"] = "png"
    quality: Annotated[int, Field(ge=1, le=100)] | None = None

    @model_validator(mode="after")
    def _element_or_page(self) -> "Screenshot":
        if self.full_page and (self.uid is not None or self.selector is not None):
            raise PydanticCustomError("screenshot_target", "give an element ('uid' or 'selector') or 'full_page', not both")
        return self

    spec = ActionSpec(
        rank=90,
        signature="{uid? | selector?, full_page?, format?}",
        guide="an image, when layout matters (extract reads cheaper); its `origin` and `scale` place a `point`.",
        done=lambda raw, result: "Took a screenshot",
        failed="take a screenshot",
        read_only=True,
        result={"data": OWN, "data_url": OWN, "image": OWN, "format": OWN, "width": OWN, "height": OWN,
                "scale": OWN, "origin": OWN, "viewport": OWN, "bytes": OWN, "full_page": OWN, "note": OWN},
    )
