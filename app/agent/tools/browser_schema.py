"""The model-facing input schema of `browser`: one flat object generated from the action union.

The Messages API wants an object schema at the top level, so the action
models are merged into one object whose `type` enum selects the action; a
property that only a few actions take says which (the prompt's action table
gives every action's fields, so a field most actions take says nothing). Validation still goes through the
discriminated union (`app.protocol.actions.parse_action`), which enforces
per-action fields and the uid/selector XOR with precise errors.
"""

from __future__ import annotations

import copy
from typing import Any

from app.protocol.actions import ACTION_MODELS, ACTION_TYPES, DISCRIMINATOR


def _simplify(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop pydantic's Optional wrapper (anyOf [X, null]), titles and defaults."""
    schema = copy.deepcopy(schema)
    if "anyOf" in schema:
        branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
        if len(branches) == 1:
            description = schema.get("description")
            schema = {**branches[0], **({"description": description} if description else {})}
    for key in ("title", "default"):
        schema.pop(key, None)
    return schema


def _inline(schema: Any, defs: dict[str, Any]) -> Any:
    """Replace `{"$ref": "#/$defs/X"}` by X itself: a nested field's model (fill's fields) keeps its shape once
    the action's `$defs` are left behind by the merge."""
    if isinstance(schema, list):
        return [_inline(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = _simplify(defs[ref.removeprefix("#/$defs/")])
        return _inline({**target, **{k: v for k, v in schema.items() if k != "$ref"}}, defs)
    out = {key: _inline(value, defs) for key, value in schema.items()}
    if isinstance(out.get("properties"), dict):
        out["properties"] = {name: _simplify(prop) for name, prop in out["properties"].items()}
    return out


USED_BY_LISTED_UP_TO = 4
"""A field taken by more actions than this (tab_id, uid, selector, dialog) is general: its description does not
list them."""


def flat_browser_schema() -> dict[str, Any]:
    properties: dict[str, dict[str, Any]] = {}
    used_by: dict[str, list[str]] = {}
    for model, action in zip(ACTION_MODELS, ACTION_TYPES, strict=True):
        schema = model.model_json_schema()
        for name, prop in schema["properties"].items():
            if name == DISCRIMINATOR:
                continue
            used_by.setdefault(name, []).append(action)
            properties.setdefault(name, _inline(_simplify(prop), schema.get("$defs", {})))
    for name, prop in properties.items():
        if len(used_by[name]) > USED_BY_LISTED_UP_TO:
            continue
        actions = ", ".join(used_by[name])
        base = prop.get("description", "").rstrip(".")
        prop["description"] = f"{base}. Used by: {actions}." if base else f"Used by: {actions}."
    return {
        "type": "object",
        "properties": {
            "type": {"type": "string", "enum": list(ACTION_TYPES), "description": "The action to perform."},
            **properties,
        },
        "required": [DISCRIMINATOR],
    }
