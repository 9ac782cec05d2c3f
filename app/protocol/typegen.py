"""Writes `extension/src/generated/protocol-types.d.ts`: TypeScript types of every action, every result and the
envelope, generated from the pydantic models and the result shapes (`make schema`, with codegen.py), so that the
extension's handlers are checked (`tsc --checkJs`) against the contract the app validates.

An action's type is its model's validation schema as it reaches the extension (app.protocol.actions.
action_to_wire): a field that defaults to None is left out of the frame, so it is optional and never null; a field
with another default is optional too (the app sends it, the extension's own callers may leave it out). A result's
type is its declared shape (app/protocol/actions/shapes.py): every key optional, each of the type its part says,
and no other key — so a handler that returns a key its declaration does not name fails the type check.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from pydantic import BaseModel

from app.protocol.actions import shapes
from app.protocol.actions.registry import ACTION_MODELS, action_type
from app.protocol.actions.shapes import Part, Shape
from app.protocol.envelope import Control, ErrorBody, Event, Request, Response

JsonSchema = dict[str, Any]

PART_TYPES: Mapping[Part, tuple[str, str, str]] = {
    Part.PAGE: ("PageText", "string | readonly string[]", "The page's text (or a list of its strings)."),
    Part.PAGE_JSON: ("PageJson", "unknown", "A value of any JSON shape that the page made."),
    Part.CLIPBOARD: ("ClipboardText", "string", "Page text that is now on the task's clipboard."),
    Part.URL: ("Url", "string | null", "A URL."),
    Part.OWN: ("Own", "unknown", "bua's own words or values (uids, states, counts, an image)."),
    Part.QUOTING: ("Quoting", "string", "bua's words that quote the page (the sibling `page_text` lists what)."),
    Part.FRAMED: ("FramedText", "readonly {url: string, text: string}[]",
                  "What frames of other origins show, by origin (page text the markdown says too)."),
}
"""Each part of a result as a TypeScript type: the alias name, its definition and its doc."""


def pascal(name: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in name.replace("-", "_").split("_"))


def _doc(text: str | None, pad: str) -> list[str]:
    if not text:
        return []
    body = " ".join(text.split()).replace("*/", "*\\/")
    return [f"{pad}/** {body} */"]


def _key(name: str) -> str:
    return name if name.isidentifier() else json.dumps(name)


class _Writer:
    """Turns JSON schemas into TypeScript declarations, collecting the named definitions they refer to."""

    def __init__(self) -> None:
        self.defs: dict[str, str] = {}
        self._def_schemas: dict[str, JsonSchema] = {}

    def define(self, name: str, schema: JsonSchema, defs: Mapping[str, JsonSchema]) -> None:
        known = self._def_schemas.get(name)
        if known is not None:
            if known != schema:
                raise ValueError(f"two different schemas are both named {name!r}; rename one model")
            return
        self._def_schemas[name] = schema
        self.defs[name] = self.declaration(name, schema, defs)

    def declaration(self, name: str, schema: JsonSchema, defs: Mapping[str, JsonSchema],
                    doc: str | None = None) -> str:
        lines = _doc(doc or schema.get("description"), "")
        if schema.get("type") == "object" and "properties" in schema:
            return "\n".join([*lines, f"export type {name} = {self.members(schema, defs, '  ')};"])
        return "\n".join([*lines, f"export type {name} = {self.type_of(schema, defs, '')};"])

    def members(self, schema: JsonSchema, defs: Mapping[str, JsonSchema], pad: str) -> str:
        required = set(schema.get("required", ()))
        out = ["{"]
        for prop, sub in schema["properties"].items():
            optional = prop not in required
            out += _doc(sub.get("description") or _branch_description(sub), pad)
            out.append(f"{pad}{_key(prop)}{'?' if optional else ''}: {self.type_of(_wire(sub), defs, pad)};")
        if schema.get("additionalProperties", True) is not False:
            out.append(f"{pad}[key: string]: unknown;")
        out.append(pad[:-2] + "}")
        return "\n".join(out)

    def type_of(self, schema: JsonSchema, defs: Mapping[str, JsonSchema], pad: str) -> str:
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            self.define(name, defs[name], defs)
            return name
        if "const" in schema:
            return json.dumps(schema["const"])
        if "enum" in schema:
            return " | ".join(json.dumps(v) for v in schema["enum"])
        if "anyOf" in schema:
            return " | ".join(dict.fromkeys(self.type_of(s, defs, pad) for s in schema["anyOf"]))
        kind = schema.get("type")
        if kind == "string":
            return "string"
        if kind in ("integer", "number"):
            return "number"
        if kind == "boolean":
            return "boolean"
        if kind == "null":
            return "null"
        if kind == "array":
            item = self.type_of(schema.get("items", {}), defs, pad)
            return f"({item})[]" if "|" in item else f"{item}[]"
        if kind == "object":
            if "properties" in schema:
                return self.members(schema, defs, pad + "  ")
            extra = schema.get("additionalProperties", True)
            value = "unknown" if extra in (True, {}) else self.type_of(extra, defs, pad)
            return f"Record<string, {value}>"
        return "unknown"


def _wire(schema: JsonSchema) -> JsonSchema:
    """A field as the frame carries it: a None default is left out of the frame, so null is not one of its types."""
    branches = schema.get("anyOf")
    if schema.get("default", ...) is None and branches:
        kept = [b for b in branches if b.get("type") != "null"]
        return kept[0] if len(kept) == 1 else {**schema, "anyOf": kept}
    return schema


def _branch_description(schema: JsonSchema) -> str | None:
    for branch in schema.get("anyOf", ()):
        if branch.get("description"):
            return str(branch["description"])
    return None


def _shape_names() -> dict[int, str]:
    """The shared shapes of shapes.py (TAB, EFFECTS, …), by identity: a result that reuses one names its type."""
    return {id(value): pascal(name.lower()) + "Shape" for name, value in vars(shapes).items()
            if name.isupper() and isinstance(value, dict) and name != "INPUT"}


class _ShapeWriter:
    def __init__(self) -> None:
        self.names = _shape_names()
        self.defs: dict[str, str] = {}

    def declare(self, name: str, shape: Shape, doc: str) -> str:
        return "\n".join([*_doc(doc, ""), f"export type {name} = {self.members(shape, '  ')};"])

    def members(self, shape: Shape, pad: str) -> str:
        if not shape:
            return "{}"
        out = ["{"]
        for key, part in shape.items():
            out.append(f"{pad}{_key(key)}?: {self.value(part, pad)};")
        out.append(pad[:-2] + "}")
        return "\n".join(out)

    def value(self, part: Part | Shape, pad: str) -> str:
        if isinstance(part, Part):
            return PART_TYPES[part][0]
        name = self.names.get(id(part))
        if name is None:
            return f"Nested<{self.members(part, pad + '  ')}>"
        if name not in self.defs:
            self.defs[name] = ""  # reserve first: a shape may name itself through another
            self.defs[name] = self.declare(name, part, f"The shared result part {name} (shapes.py).")
        return f"Nested<{name}>"


ENVELOPE_MODELS: tuple[type[BaseModel], ...] = (ErrorBody, Request, Response, Control, Event)


def render_types() -> str:
    """The whole `.d.ts`."""
    writer, shape_writer = _Writer(), _ShapeWriter()
    actions, results = [], []
    for model in ACTION_MODELS:
        name, schema = action_type(model), model.model_json_schema(mode="validation")
        actions.append(writer.declaration(f"{pascal(name)}Action", schema, schema.get("$defs", {}),
                                          doc=f"`{name}`: {model.spec.guide}"))
        results.append(shape_writer.declare(f"{pascal(name)}Result", model.spec.result,
                                              f"What `{name}` answers (its declared result shape)."))
    for frame in ENVELOPE_MODELS:
        schema = frame.model_json_schema(mode="validation")
        defs = schema.pop("$defs", {})
        writer.define("ErrorBody" if frame is ErrorBody else f"{frame.__name__}Frame", schema, defs)
    types = [action_type(m) for m in ACTION_MODELS]
    parts = [f"/** {doc} */\nexport type {alias} = {ts};" for alias, ts, doc in PART_TYPES.values()]
    lines = [
        "// Generated by `make schema` (app/protocol/typegen.py) from the pydantic models and result shapes. Do not edit.",
        "",
        "/** The declared action types, in the order of the tool's enum. */",
        "export type ActionType = " + " | ".join(json.dumps(t) for t in types) + ";",
        "",
        "/** A nested result part: one object, or a list of them (a list takes the shape of its items). */",
        "export type Nested<T> = T | readonly T[];",
        "",
        *parts,
        "",
        "// Actions, as the app sends them (app/protocol/actions/*.py).",
        "",
        *(a + "\n" for a in actions),
        "/** Each action type's fields . */",
        "export interface ActionsByType {",
        *(f"  {_key(t)}: {pascal(t)}Action;" for t in types),
        "}",
        "",
        "// Results, as the declarations' shapes say (app/protocol/actions/shapes.py).",
        "",
        *(r + "\n" for r in results),
        *(d + "\n" for d in shape_writer.defs.values()),
        "/** Each action type's result. */",
        "export interface ResultsByType {",
        *(f"  {_key(t)}: {pascal(t)}Result;" for t in types),
        "}",
        "",
        "// The envelope (app/protocol/envelope.py) and the definitions the models share.",
        "",
        *(d + "\n" for d in writer.defs.values()),
    ]
    return "\n".join(lines).rstrip("\n") + "\n"
