"""The 13 browser actions as one pydantic discriminated union on `type`.

Element-targeting actions take exactly one of `uid` (from the last extract,
preferred) or `selector` (CSS, the fallback). Every field is bounded so that a
request can never exceed what the pipe to the extension accepts.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, Union
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from app.protocol.errors import ActionFailed, ErrorCode

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
TabId = Annotated[int, Field(ge=0, description="Tab id; defaults to the task's current tab.")]
TimeoutMs = Annotated[int, Field(ge=0, le=MAX_TIMEOUT_MS)]
DialogAnswer = Annotated[
    Literal["accept", "dismiss"],
    Field(description="How to answer a confirm/prompt this action opens. Default: alert and beforeunload "
                      "accepted, confirm and prompt dismissed."),
]
PromptText = Annotated[str, Field(max_length=10_000, description="Text for a prompt() this action opens (accepts it).")]


class _Action(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _OnTab(_Action):
    tab_id: TabId | None = None


class _Target(_OnTab):
    """Exactly one of uid or selector."""

    uid: Uid | None = None
    selector: Selector | None = None

    @model_validator(mode="after")
    def _uid_xor_selector(self) -> "_Target":
        if (self.uid is None) == (self.selector is None):
            raise PydanticCustomError(
                "target_xor",
                "give exactly one of 'uid' (preferred, from the last extract) or 'selector'",
            )
        return self


class _OptionalTarget(_OnTab):
    """At most one of uid or selector (none means the whole page)."""

    uid: Uid | None = None
    selector: Selector | None = None

    @model_validator(mode="after")
    def _not_both(self) -> "_OptionalTarget":
        if self.uid is not None and self.selector is not None:
            raise PydanticCustomError("target_xor", "give 'uid' or 'selector', not both")
        return self


class Navigate(_OnTab):
    type: Literal["navigate"]
    url: HttpUrlStr
    timeout_ms: TimeoutMs = 30_000


class Click(_Target):
    type: Literal["click"]
    button: Literal["left", "right", "middle"] = "left"
    click_count: Annotated[int, Field(ge=1, le=3)] = 1
    dialog: DialogAnswer | None = None
    prompt_text: PromptText | None = None


class TypeText(_Target):
    type: Literal["type"]
    text: Annotated[str, Field(max_length=MAX_TEXT_CHARS)]
    clear: bool = False
    submit: bool = False
    dialog: DialogAnswer | None = None
    prompt_text: PromptText | None = None


class PressKey(_OnTab):
    type: Literal["press_key"]
    key: Annotated[str, Field(min_length=1, max_length=64, description="e.g. Enter, Tab, Escape, ArrowDown, PageDown, Control+A")]
    dialog: DialogAnswer | None = None
    prompt_text: PromptText | None = None


class Scroll(_OptionalTarget):
    type: Literal["scroll"]
    direction: Literal["up", "down", "left", "right"] | None = None
    amount: Annotated[int, Field(ge=1, le=100_000, description="Pixels; default one viewport.")] | None = None

    @model_validator(mode="after")
    def _direction_or_target(self) -> "Scroll":
        has_target = self.uid is not None or self.selector is not None
        if has_target == (self.direction is not None):
            raise PydanticCustomError(
                "scroll_target",
                "give either 'direction' (with optional 'amount') or an element ('uid' or 'selector') to scroll into view",
            )
        return self


class Screenshot(_OptionalTarget):
    type: Literal["screenshot"]
    full_page: bool = False
    format: Literal["png", "jpeg"] = "png"
    quality: Annotated[int, Field(ge=1, le=100)] | None = None


class Extract(_OnTab):
    type: Literal["extract"]
    selector: Selector | None = None
    max_chars: Annotated[int, Field(ge=1_000, le=200_000)] | None = None


class WaitFor(_OnTab):
    type: Literal["wait_for"]
    uid: Uid | None = None
    selector: Selector | None = None
    text: Annotated[str, Field(min_length=1, max_length=1_000)] | None = None
    state: Literal["visible", "hidden", "attached", "detached"] = "visible"
    timeout_ms: TimeoutMs = 10_000

    @model_validator(mode="after")
    def _one_target(self) -> "WaitFor":
        given = [n for n in ("uid", "selector", "text") if getattr(self, n) is not None]
        if len(given) != 1:
            raise PydanticCustomError("target_xor", "give exactly one of 'uid', 'selector' or 'text'")
        return self


class Hover(_Target):
    type: Literal["hover"]


class Evaluate(_OnTab):
    type: Literal["evaluate"]
    expression: Annotated[str, Field(min_length=1, max_length=MAX_TEXT_CHARS)]
    dialog: DialogAnswer | None = None
    prompt_text: PromptText | None = None


class GetTabs(_Action):
    type: Literal["get_tabs"]


class OpenTab(_Action):
    type: Literal["open_tab"]
    url: HttpUrlStr
    focus: bool = False


class CloseTab(_Action):
    type: Literal["close_tab"]
    tab_id: TabId


Action = Annotated[
    Union[
        Navigate, Click, TypeText, PressKey, Scroll, Screenshot, Extract,
        WaitFor, Hover, Evaluate, GetTabs, OpenTab, CloseTab,
    ],
    Field(discriminator="type"),
]

ACTION_MODELS: tuple[type[_Action], ...] = (
    Navigate, Click, TypeText, PressKey, Scroll, Screenshot, Extract,
    WaitFor, Hover, Evaluate, GetTabs, OpenTab, CloseTab,
)
ACTION_TYPES: tuple[str, ...] = tuple(m.model_fields["type"].annotation.__args__[0] for m in ACTION_MODELS)

ACTION_ADAPTER: TypeAdapter[Any] = TypeAdapter(Action)


def _describe(err: ValidationError) -> tuple[ErrorCode, str]:
    code = ErrorCode.INVALID_ACTION
    lines = []
    for e in err.errors(include_url=False):
        if e["type"] == "forbidden_url":
            code = ErrorCode.FORBIDDEN_URL
        loc = ".".join(str(p) for p in e["loc"][1:] if not isinstance(p, int)) or "action"
        if e["type"] == "union_tag_invalid" or e["type"] == "union_tag_not_found":
            lines.append(f"'type' must be one of: {', '.join(ACTION_TYPES)}")
        elif e["type"] == "extra_forbidden":
            lines.append(f"unknown field '{loc}'")
        else:
            lines.append(f"{loc}: {e['msg']}")
    return code, "; ".join(lines)


def parse_action(data: Any) -> _Action:
    """Validate a raw action; raises ActionFailed(invalid_action | forbidden_url) with a usable message."""
    try:
        return ACTION_ADAPTER.validate_python(data)
    except ValidationError as err:
        code, message = _describe(err)
        raise ActionFailed(code, message) from None


def action_to_wire(action: _Action) -> dict[str, Any]:
    """Serialise for the extension: defaults included, None fields dropped."""
    return action.model_dump(mode="json", exclude_none=True)
