"""What a parsed action carries, read from its declaration (`Carries` metadata on its fields, spec.py), never from
its name: the safety checks and the file hooks ask "which strings does this action type?", "which URLs does it
open?", and an action added tomorrow with a declared field is checked with no other edit.

Where a carrier is declared: app.protocol.actions.carrier_paths.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from app.protocol.actions.carrier_paths import carrier_paths
from app.protocol.actions.fields import ActionModel
from app.protocol.actions.spec import Carries


def _values_at(value: Any, steps: list[str]) -> list[Any]:
    """The values at a carrier path (`fields[].value`) of a model: `[]` steps into each item of a list."""
    if not steps:
        return [value]
    step, rest = steps[0], steps[1:]
    name = step.removesuffix("[]")
    inner = getattr(value, name, None) if isinstance(value, BaseModel) else None
    if inner is None:
        return []
    if step.endswith("[]"):
        return [v for item in inner for v in _values_at(item, rest)] if isinstance(inner, list) else []
    return _values_at(inner, rest)


def carried(action: ActionModel, kind: Carries) -> list[Any]:
    """The values of the action's fields that carry `kind` (none when its declaration has no such field, or the
    action left them out)."""
    return [v for path, k in carrier_paths(type(action)) if k == kind for v in _values_at(action, path.split("."))]


def carried_strings(action: ActionModel, kind: Carries) -> list[str]:
    """Like `carried`, its string values only (a list field's strings included)."""
    out: list[str] = []
    for value in carried(action, kind):
        items = value if isinstance(value, list) else [value]
        out += [v for v in items if isinstance(v, str)]
    return out
