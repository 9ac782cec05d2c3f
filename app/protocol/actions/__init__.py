"""The browser actions: one declaration each (a module of this package), one discriminated union on `type`."""

from __future__ import annotations

from typing import Annotated, Any, Mapping, Union, cast

from pydantic import Field, TypeAdapter, ValidationError

from app.protocol.actions.fields import DISCRIMINATOR, MAX_TEXT_CHARS, MAX_TIMEOUT_MS, MAX_URL_CHARS, ActionModel
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
        loc = ".".join(str(p) for p in e["loc"] if not isinstance(p, int)) or "action"
        if e["type"] == "extra_forbidden":
            lines.append(f"unknown field '{loc}'")
        else:
            lines.append(f"{loc}: {e['msg']}")
    return code, "; ".join(lines)


def parse_action(data: Any) -> ActionModel:
    """Validate a raw action against its type's declaration; raises ActionFailed(invalid_action | forbidden_url)
    naming the field and what it takes. The edges that take an action from outside (the browser tool, the MCP
    lane through it, `bua act`) call this once; everything after them passes the model.

    The model is looked up by `type` in the registry (as the discriminated union ACTION_ADAPTER does), so every
    declared action, a test's throwaway one too (registry.throwaway_action), parses the same way."""
    kind = data.get(DISCRIMINATOR) if isinstance(data, Mapping) else None
    model = MODEL_BY_TYPE.get(kind) if isinstance(kind, str) else None
    if model is None:
        given = "an action is a JSON object with a `type`" if not isinstance(data, Mapping) else (
            "the action has no 'type'" if kind is None else f"unknown action type {kind!r}")
        raise ActionFailed(ErrorCode.INVALID_ACTION, f"{given}; 'type' must be one of: {', '.join(MODEL_BY_TYPE)}")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        code, message = _describe(err)
        raise ActionFailed(code, message) from None


def action_to_wire(action: ActionModel) -> dict[str, Any]:
    """Serialise for the extension (app.protocol.envelope.Request.of_action): defaults included, None fields
    dropped."""
    return action.model_dump(mode="json", exclude_none=True)


__all__ = [
    "ACTION_ADAPTER", "ACTION_MODELS", "ACTION_SPECS", "ACTION_TYPES", "DISCRIMINATOR", "MAX_TEXT_CHARS", "MAX_TIMEOUT_MS",
    "MAX_URL_CHARS", "MODEL_BY_TYPE", "Action", "ActionModel", "ActionSpec", "action_to_wire", "parse_action",
]
