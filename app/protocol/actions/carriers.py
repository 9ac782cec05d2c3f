"""What a raw action carries, read from its declaration (`Carries` metadata on its fields, spec.py), never from
its name: the safety checks and the file hooks ask "which strings does this action type?", "which URLs does it
open?", and an action added tomorrow with a declared field is checked with no other edit.

Where a carrier is declared: app.protocol.actions.carrier_paths.
"""

from __future__ import annotations

from typing import Any, Mapping

from app.protocol.actions.carrier_paths import carrier_paths
from app.protocol.actions.fields import ActionModel
from app.protocol.actions.registry import MODEL_BY_TYPE
from app.protocol.actions.spec import Carries


def _values_at(value: Any, steps: list[str]) -> list[Any]:
    if not steps:
        return [value]
    step, rest = steps[0], steps[1:]
    if step.endswith("[]"):
        items = value.get(step[:-2]) if isinstance(value, Mapping) else None
        return [v for item in items for v in _values_at(item, rest)] if isinstance(items, list) else []
    return _values_at(value[step], rest) if isinstance(value, Mapping) and step in value else []


def model_of(action: object) -> type[ActionModel] | None:
    """The declaration of a raw action (None: not an action of a declared type)."""
    kind = action.get("type") if isinstance(action, Mapping) else None
    return MODEL_BY_TYPE.get(kind) if isinstance(kind, str) else None


def carried(action: Mapping[str, Any], kind: Carries) -> list[Any]:
    """The values of a raw action's fields that carry `kind` (none for an unknown action type)."""
    model = model_of(action)
    if model is None:
        return []
    return [v for path, k in carrier_paths(model) if k == kind
            for v in _values_at(action, path.split("."))]


def carried_strings(action: Mapping[str, Any], kind: Carries) -> list[str]:
    """Like `carried`, its string values only (a list field's strings included)."""
    out: list[str] = []
    for value in carried(action, kind):
        items = value if isinstance(value, list) else [value]
        out += [v for v in items if isinstance(v, str)]
    return out


def carries_any(action: Mapping[str, Any], kind: Carries) -> bool:
    """The action's declaration has a field that carries `kind` (whatever the action gave)."""
    model = model_of(action)
    return model is not None and any(k == kind for _, k in carrier_paths(model))
