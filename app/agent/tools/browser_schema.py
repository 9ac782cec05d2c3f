"""The model-facing input schema of `browser`: one flat object generated from the action union.

The Messages API wants an object schema at the top level, so the action
models are merged into one object whose `type` enum selects the action. Which
action takes which field is the prompt's action table (each action's signature), so
the schema does not say it again; nor does it carry bounds, titles or defaults
(NOISE). Validation still goes through the discriminated union
(`app.protocol.actions.parse_action`), which enforces per-action fields, bounds and
the uid/selector XOR with precise errors that name the valid values.
"""

from __future__ import annotations

import copy
from typing import Any

from app.protocol.actions import ACTION_MODELS, ACTION_TYPES, DISCRIMINATOR

NOISE = ("title", "default", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "pattern",
         "additionalProperties")
"""What the model reads nothing from: pydantic's titles and defaults, and the bounds the validation enforces
anyway (`parse_action` answers a value out of bounds with an error naming the field and the valid values)."""


def _simplify(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop pydantic's Optional wrapper (anyOf [X, null]) and the NOISE."""
    schema = copy.deepcopy(schema)
    if "anyOf" in schema:
        branches = [b for b in schema["anyOf"] if b.get("type") != "null"]
        if len(branches) == 1:
            description = schema.get("description")
            schema = {**branches[0], **({"description": description} if description else {})}
    for key in NOISE:
        schema.pop(key, None)
    return schema


def _quiet(schema: Any) -> Any:
    """The NOISE left out at every depth (nested models and list items too)."""
    if isinstance(schema, list):
        return [_quiet(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {key: (_quiet_props(value) if key == "properties" else _quiet(value))
            for key, value in schema.items() if key not in NOISE}


def _quiet_props(properties: dict[str, Any]) -> dict[str, Any]:
    return {name: _quiet(prop) for name, prop in properties.items()}  # a field may be named like a keyword


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


def plain_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A pydantic model's JSON schema as a model reads it: references inlined, Optional unwrapped, NOISE out."""
    body = {k: v for k, v in schema.items() if k != "$defs"}
    plain: dict[str, Any] = _quiet(_inline(_simplify(body), schema.get("$defs", {})))
    return plain


def _merged(first: dict[str, Any], other: dict[str, Any]) -> dict[str, Any]:
    """A field two actions declare differently (history's and scroll's `direction`): every value either takes."""
    if "enum" in first and "enum" in other:
        return {**first, "enum": list(dict.fromkeys([*first["enum"], *other["enum"]]))}
    return first


def _said_once(node: Any, seen: set[str]) -> Any:
    """Descriptions said once: a field described exactly like an earlier one (`to_uid` like `uid`, a fill field's
    `uid`) is not described again."""
    if isinstance(node, list):
        return [_said_once(item, seen) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "description" and isinstance(value, str):
            if value in seen:
                continue
            seen.add(value)
        out[key] = value if key == "description" else _said_once(value, seen)
    return out


def flat_browser_schema() -> dict[str, Any]:
    properties: dict[str, dict[str, Any]] = {}
    for model in ACTION_MODELS:
        schema = model.model_json_schema()
        for name, prop in schema["properties"].items():
            if name == DISCRIMINATOR:
                continue
            field = _quiet(_inline(_simplify(prop), schema.get("$defs", {})))
            properties[name] = _merged(properties[name], field) if name in properties else field
    return {
        "type": "object",
        "properties": {DISCRIMINATOR: {"type": "string", "enum": list(ACTION_TYPES)}, **_said_once(properties, set())},
        "required": [DISCRIMINATOR],
    }
