"""The browser actions: one declaration each (a module of this package), one discriminated union on `type`."""

from __future__ import annotations

from typing import Annotated, Any, Union, cast

from pydantic import Field, TypeAdapter, ValidationError

from app.protocol.actions.fields import MAX_TEXT_CHARS, MAX_TIMEOUT_MS, MAX_URL_CHARS, ActionModel
from app.protocol.actions.registry import ACTION_MODELS, ACTION_SPECS, ACTION_TYPES, MODEL_BY_TYPE
from app.protocol.actions.spec import ActionSpec
from app.protocol.errors import ActionFailed, ErrorCode

Action = ActionModel
"""Any validated action (the static type; the runtime union is ACTION_ADAPTER's)."""

ACTION_ADAPTER: TypeAdapter[ActionModel] = TypeAdapter(
    cast(Any, Annotated[Union[ACTION_MODELS], Field(discriminator="type")])  # the union is built at run time
)


def _describe(err: ValidationError) -> tuple[ErrorCode, str]:
    code = ErrorCode.INVALID_ACTION
    lines = []
    for e in err.errors(include_url=False):
        if e["type"] == "forbidden_url":
            code = ErrorCode.FORBIDDEN_URL
        loc = ".".join(str(p) for p in e["loc"][1:] if not isinstance(p, int)) or "action"
        if e["type"] in ("union_tag_invalid", "union_tag_not_found"):
            lines.append(f"'type' must be one of: {', '.join(ACTION_TYPES)}")
        elif e["type"] == "extra_forbidden":
            lines.append(f"unknown field '{loc}'")
        else:
            lines.append(f"{loc}: {e['msg']}")
    return code, "; ".join(lines)


def parse_action(data: Any) -> ActionModel:
    """Validate a raw action; raises ActionFailed(invalid_action | forbidden_url) with a usable message."""
    try:
        return ACTION_ADAPTER.validate_python(data)
    except ValidationError as err:
        code, message = _describe(err)
        raise ActionFailed(code, message) from None


def action_to_wire(action: ActionModel) -> dict[str, Any]:
    """Serialise for the extension: defaults included, None fields dropped."""
    return action.model_dump(mode="json", exclude_none=True)


__all__ = [
    "ACTION_ADAPTER", "ACTION_MODELS", "ACTION_SPECS", "ACTION_TYPES", "MAX_TEXT_CHARS", "MAX_TIMEOUT_MS",
    "MAX_URL_CHARS", "MODEL_BY_TYPE", "Action", "ActionModel", "ActionSpec", "action_to_wire", "parse_action",
]
