"""Field types and base models shared by the action declarations.

Element-targeting actions take exactly one of `uid` (from the last extract, preferred) or `selector` (CSS, the
fallback). Every field is bounded so that a request can never exceed what the pipe to the extension accepts.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.spec import ActionSpec

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


class ActionModel(BaseModel):
    """The base of every action; a concrete action adds `type: Literal[...]` and `spec`."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    spec: ClassVar[ActionSpec]


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
