from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from app.protocol.actions.fields import MAX_TEXT_CHARS, Target, WithDialog
from app.protocol.actions.shapes import INPUT, OWN, PAGE
from app.protocol.actions.spec import ActionSpec, Carries
from app.protocol.actions.wording import outcome, target


class TypeText(Target, WithDialog):
    type: Literal["type"]
    text: Annotated[str, Field(max_length=MAX_TEXT_CHARS), Carries.TYPED_TEXT]
    clear: bool = False
    submit: Annotated[bool, Carries.SUBMITS] = False

    spec = ActionSpec(
        asks="Type and submit",
        rank=40,
        signature="{uid | selector, text, clear?, submit?}",
        guide="type into a field or contenteditable, or pick a <select> option by its label; `submit` presses Enter.",
        done=lambda raw, result: f"Typed into {target(raw, result, 'typed_into')}"
                                 f"{' (its value did not change)' if result.get('value_unchanged') else ''}{outcome(result)}",
        failed="type into",
        failed_subject=target,
        may_navigate=True,
        needs_input_focus=True,
        sensitive_by="typing",
        change_list="on_dom_change",
        result={**INPUT, "typed_into": PAGE, "selected": PAGE, "value_length": OWN, "submitted": PAGE,
                "typed_with": OWN, "value_unchanged": OWN, "next_step": OWN, "value": PAGE, "note": OWN},
    )
