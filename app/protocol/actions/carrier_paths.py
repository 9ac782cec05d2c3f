"""Which fields of an action model carry what (`Carries` metadata, spec.py), found on the model's own fields and
on models nested in them (fill's `fields[].value`); a path is written `fields[].value` (`[]`: each item of a
list). Read from the model alone, so the registry can generate them (app.protocol.actions.carriers reads them out
of a raw action)."""

from __future__ import annotations

import types
from functools import cache
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel

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
