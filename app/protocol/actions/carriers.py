"""What a raw action carries, read from its declaration (`Carries` metadata on its fields, spec.py), never from
its name: the safety checks and the file hooks ask "which strings does this action type?", "which URLs does it
open?", and an action added tomorrow with a declared field is checked with no other edit.

A carrier is found on a field of the action or of a model nested in it (fill's `fields[].value`); its path is
written `fields[].value` (`[]`: each item of a list).
"""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Mapping, Union, get_args, get_origin

from pydantic import BaseModel

from app.protocol.actions.fields import ActionModel
from app.protocol.actions.registry import MODEL_BY_TYPE
from app.protocol.actions.spec import Carries


def _nested_models(annotation: Any) -> list[tuple[type[BaseModel], bool]]:
    """The models an annotation holds (through Optional, unions and Annotated), each with whether it sits in a list."""
    found: list[tuple[type[BaseModel], bool]] = []
    origin = get_origin(annotation)
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [(annotation, False)]
    if origin in (list, tuple):
        return [(model, True) for arg in get_args(annotation) for model, _ in _nested_models(arg)]
    if origin in (Union, types.UnionType) or origin is Annotated:
        for arg in get_args(annotation):
            found += _nested_models(arg)
    return found


def _inner_carriers(annotation: Any) -> list[Carries]:
    """Carriers declared inside an annotation (`PromptText | None`: on the Annotated member of the union)."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return [m for m in annotation.__metadata__ if isinstance(m, Carries)] + _inner_carriers(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        return [c for arg in get_args(annotation) for c in _inner_carriers(arg)]
    return []


@cache
def carrier_paths(model: type[BaseModel]) -> tuple[tuple[str, Carries], ...]:
    """Every declared carrier of a model: (path, what it carries)."""
    paths: list[tuple[str, Carries]] = []
    for name, info in model.model_fields.items():
        kinds = [meta for meta in info.metadata if isinstance(meta, Carries)] + _inner_carriers(info.annotation)
        paths += [(name, kind) for kind in dict.fromkeys(kinds)]
        for nested, in_list in _nested_models(info.annotation):
            prefix = f"{name}[]." if in_list else f"{name}."
            paths += [(prefix + path, kind) for path, kind in carrier_paths(nested)]
    return tuple(paths)


def declared_carriers(action_type: str) -> dict[str, str]:
    """An action type's carriers by path, as the extension gets them (`carries` in generated/protocol.js)."""
    model = MODEL_BY_TYPE.get(action_type)
    return {path: kind.value for path, kind in carrier_paths(model)} if model is not None else {}


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
