"""Field types and base models shared by the action declarations.

Element-targeting actions take exactly one of `uid` (from the last extract, preferred) or `selector` (CSS, the
fallback); pointer actions also take a `point` in the viewport. Every field is bounded so that a request can
never exceed what the pipe to the extension accepts.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, WithJsonSchema, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.spec import ActionSpec, Carries

DISCRIMINATOR = "type"
"""The field every action names its kind in (`type: Literal["click"]`): the union's discriminator. An action is
also called `type`; code that means the field uses this name, so a check for action names can tell them apart."""
MAX_TEXT_CHARS = 100_000
MAX_TIMEOUT_MS = 30_000
MAX_URL_CHARS = 8_192
ALLOWED_SCHEMES = ("http", "https")


def _check_url(url: str) -> str:
    """http(s) only (plus about:blank); anything else is `forbidden_url`."""
    if url == "about:blank":
        return url
    parts = urlsplit(url)
    if parts.scheme.lower() not in ALLOWED_SCHEMES:
        raise PydanticCustomError(
            "forbidden_url",
            "only http(s) URLs may be opened, got scheme '{scheme}'",
            {"scheme": parts.scheme or "(none)"},
        )
    if not parts.hostname:
        raise PydanticCustomError("url_parsing", "URL has no host: {url}", {"url": url})
    return url


HttpUrlStr = Annotated[str, Field(min_length=1, max_length=MAX_URL_CHARS), AfterValidator(_check_url)]
Uid = Annotated[str, Field(pattern=r"^e\d{1,9}$", description="Element uid from the last extract, e.g. 'e4'.")]
Selector = Annotated[str, Field(min_length=1, max_length=4_096, description="CSS selector (fallback to uid).")]
TabId = Annotated[int, Field(ge=0, description="Default: the task's current tab.")]
TimeoutMs = Annotated[int, Field(ge=0, le=MAX_TIMEOUT_MS)]
DialogAnswer = Annotated[
    Literal["accept", "dismiss"],
    Field(description="The answer to a confirm/prompt it opens (default: dismiss; alerts are accepted)."),
]
PromptText = Annotated[str, Field(max_length=10_000, description="Text for a prompt() this action opens (accepts it)."),
                       Carries.TYPED_TEXT]
"""The page's script gets it as prompt()'s answer: typed text, as far as the data-flow check goes."""


class ActionModel(BaseModel):
    """The base of every action; a concrete action adds `type: Literal[...]` and `spec`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    spec: ClassVar[ActionSpec]

    @property
    def type_name(self) -> str:
        """The action's `type` literal, for messages and for looking its declaration up (never to branch on)."""
        return str(self.__dict__[DISCRIMINATOR])


class OnTab(ActionModel):
    tab_id: TabId | None = None


class Target(OnTab):
    """Exactly one of uid or selector."""

    uid: Uid | None = None
    selector: Selector | None = None

    @model_validator(mode="after")
    def _uid_xor_selector(self) -> "Target":
        if (self.uid is None) == (self.selector is None):
            raise PydanticCustomError(
                "target_xor",
                "give exactly one of 'uid' (preferred, from the last extract) or 'selector'",
            )
        return self


MAX_COORDINATE = 100_000.0
"""Bound of a point's coordinates and an offset's components, in CSS pixels (far beyond any viewport)."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _PointModel(_Frozen):
    x: Annotated[float, Field(ge=0, le=MAX_COORDINATE)]
    y: Annotated[float, Field(ge=0, le=MAX_COORDINATE)]


class _OffsetModel(_Frozen):
    dx: Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]
    dy: Annotated[float, Field(ge=-MAX_COORDINATE, le=MAX_COORDINATE)]


def _inline(properties: dict[str, Any], description: str) -> WithJsonSchema:
    """The model's JSON schema written out in place: the flat tool schema keeps properties, not `$defs`."""
    return WithJsonSchema({"type": "object", "properties": properties, "required": list(properties),
                           "additionalProperties": False, "description": description})


_NUMBER = {"type": "number"}
Point = Annotated[_PointModel, _inline(
    {"x": _NUMBER, "y": _NUMBER},
    "CSS pixels in the viewport (from a screenshot: origin + pixel / scale).")]
Offset = Annotated[_OffsetModel, _inline(
    {"dx": _NUMBER, "dy": _NUMBER}, "CSS pixels from where the drag starts.")]


class PointTarget(OnTab):
    """Exactly one of uid, selector or point (pointer actions can aim at a spot that has no element)."""

    uid: Uid | None = None
    selector: Selector | None = None
    point: Point | None = None

    @model_validator(mode="after")
    def _one_target(self) -> "PointTarget":
        if sum(v is not None for v in (self.uid, self.selector, self.point)) != 1:
            raise PydanticCustomError(
                "target_xor",
                "give exactly one of 'uid' (preferred, from the last extract), 'selector' or 'point' ({x, y} in "
                "CSS pixels of the viewport, from a screenshot)",
            )
        return self


class OptionalTarget(OnTab):
    """At most one of uid or selector (none means the whole page)."""

    uid: Uid | None = None
    selector: Selector | None = None

    @model_validator(mode="after")
    def _not_both(self) -> "OptionalTarget":
        if self.uid is not None and self.selector is not None:
            raise PydanticCustomError("target_xor", "give 'uid' or 'selector', not both")
        return self


class WithDialog(ActionModel):
    """Input that may open a JavaScript dialog, and how to answer it."""

    dialog: DialogAnswer | None = None
    prompt_text: PromptText | None = None
