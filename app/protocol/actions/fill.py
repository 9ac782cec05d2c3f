from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import MAX_TEXT_CHARS, OnTab, Selector, Uid, WithDialog
from app.protocol.actions.shapes import ERROR, INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec, Carries, Raw, Result

MAX_FIELDS = 50


class FillField(BaseModel):
    """One field of a fill: exactly one of uid or selector, and its value."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    uid: Uid | None = None
    selector: Selector | None = None
    value: Annotated[Annotated[str, Field(max_length=MAX_TEXT_CHARS)] | bool, Carries.TYPED_TEXT] = Field(
        description="Text, an option's label, or true/false for a checkbox or radio.")

    @model_validator(mode="after")
    def _uid_xor_selector(self) -> "FillField":
        if (self.uid is None) == (self.selector is None):
            raise PydanticCustomError("target_xor", "give each field exactly one of 'uid' or 'selector'")
        return self


def _filled(raw: Raw, result: Result) -> str:
    listed = [f for f in result.get("fields") or [] if isinstance(f, dict)]
    failed = sum(1 for f in listed if f.get("error"))
    filled = int(result.get("as_asked") or 0) + len(listed) - failed
    done = f"Filled {filled} field{'' if filled == 1 else 's'}"
    if failed:
        done += f" ({failed} could not be filled)"
    if result.get("submitted"):
        done += " and submitted the form"
    return done


class Fill(OnTab, WithDialog):
    type: Literal["fill"]
    fields: Annotated[list[FillField], Field(min_length=1, max_length=MAX_FIELDS), Carries.FORM_FIELDS]
    submit: Annotated[bool, Carries.SUBMITS] = False

    spec = ActionSpec(
        asks="Fill and submit a form",
        rank=42,
        signature="{fields: [{uid | selector, value}], submit?}",
        guide="several fields at once; `submit` only when all were filled. `fields` lists only the fields not "
              "as asked (what differs, or the error); the rest are counted in `as_asked`.",
        done=_filled,
        failed="fill the form",
        may_navigate=True,
        needs_input_focus=True,
        sensitive_by="fields",
        change_list="on_dom_change",
        result={**INPUT, "as_asked": OWN,
                "fields": {"field": OWN, "error": ERROR, "typed_into": PAGE, "selected": PAGE, "value": PAGE,
                           "value_length": OWN, "note": OWN, "typed_with": OWN, "value_unchanged": OWN,
                           "next_step": OWN},
                "submitted": OWN, "submit_button": PAGE, "submit_error": PAGE},
    )
