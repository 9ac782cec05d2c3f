"""Collects the action declarations of this package: every module's model with a `spec` is an action.

Adding an action is one new module here (its model and spec) plus its handler in the extension; everything else
is derived (docs/architecture.md, "Adding an action").
"""

from __future__ import annotations

import importlib
import pkgutil
from contextlib import contextmanager
from types import MappingProxyType
from typing import Any, Iterator, Mapping

from app.protocol.actions.carrier_paths import carrier_paths
from app.protocol.actions.fields import ActionModel
from app.protocol.actions.spec import ActionSpec

_SUPPORT_MODULES = frozenset({"fields", "spec", "wording", "registry", "shapes", "carriers", "carrier_paths"})


def action_type(model: type[ActionModel]) -> str:
    """The `type` literal of an action model."""
    return str(model.model_fields["type"].annotation.__args__[0])  # type: ignore[union-attr]


def _discover() -> tuple[type[ActionModel], ...]:
    package = importlib.import_module(__package__ or "app.protocol.actions")
    found: dict[str, type[ActionModel]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        if info.name in _SUPPORT_MODULES or info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package.__name__}.{info.name}")
        for value in vars(module).values():
            if (isinstance(value, type) and issubclass(value, ActionModel) and value.__module__ == module.__name__
                    and isinstance(value.__dict__.get("spec"), ActionSpec)):
                name = action_type(value)
                if name in found:
                    raise RuntimeError(f"action type {name!r} is declared twice")
                found[name] = value
    return tuple(sorted(found.values(), key=lambda m: (m.spec.rank, action_type(m))))


ACTION_MODELS: tuple[type[ActionModel], ...] = _discover()
ACTION_TYPES: tuple[str, ...] = tuple(action_type(m) for m in ACTION_MODELS)
_SPECS: dict[str, ActionSpec] = {action_type(m): m.spec for m in ACTION_MODELS}
_MODELS: dict[str, type[ActionModel]] = {action_type(m): m for m in ACTION_MODELS}
ACTION_SPECS: Mapping[str, ActionSpec] = MappingProxyType(_SPECS)
MODEL_BY_TYPE: Mapping[str, type[ActionModel]] = MappingProxyType(_MODELS)


@contextmanager
def throwaway_action(model: type[ActionModel]) -> Iterator[str]:
    """For tests only: `model` is a declared action (ACTION_SPECS, MODEL_BY_TYPE) while the block runs, so a test
    can show that a new action's declaration alone is read by every check. The union, the tool's schema and the
    generated extension files are not rebuilt (they are built from ACTION_MODELS at import)."""
    name = action_type(model)
    if name in _MODELS:
        raise ValueError(f"action type {name!r} is already declared; give the throwaway another name")
    _MODELS[name], _SPECS[name] = model, model.spec
    try:
        yield name
    finally:
        del _MODELS[name], _SPECS[name]

_UNSIGNED = frozenset({"type", "tab_id", "dialog", "prompt_text"})


def signature(model: type[ActionModel]) -> str:
    """The input as the prompt shows it: the spec's own, else `{required, optional?}` from the fields."""
    if model.spec.signature is not None:
        return model.spec.signature
    parts = [name if field.is_required() else f"{name}?"
             for name, field in model.model_fields.items() if name not in _UNSIGNED]
    return "{" + ", ".join(parts) + "}"


def required_fields(model: type[ActionModel]) -> list[str]:
    """Fields the extension checks for itself before running the handler."""
    return [name for name, field in model.model_fields.items() if field.is_required() and name != "type"]


def field_defaults(model: type[ActionModel]) -> dict[str, Any]:
    """The declared default of each optional field that has one (None defaults are left out of the frame). The app
    fills them in before sending; the extension reads them from here when its own code calls a handler with a
    partial action, so no default is copied into the JS."""
    return {name: field.default for name, field in model.model_fields.items()
            if name != "type" and not field.is_required() and isinstance(field.default, (bool, int, float, str))}


def wire_actions() -> dict[str, dict[str, Any]]:
    """Per action type: its required fields, flags, field defaults and what its fields carry (`{path: carrier}`,
    app.protocol.actions.carriers), as the extension gets them."""
    models = sorted(_MODELS.values(), key=lambda m: (m.spec.rank, action_type(m)))
    return {action_type(m): {"required": required_fields(m), **m.spec.flags(), "defaults": field_defaults(m),
                             "carries": {path: kind.value for path, kind in carrier_paths(m)}} for m in models}
