from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from app.protocol.actions.fields import OnTab
from app.protocol.actions.shapes import CANDIDATE, OWN, PAGE, TAB
from app.protocol.actions.spec import ActionSpec, Raw, Result

MAX_FIND_LIMIT = 100


def _asked(raw: Raw) -> str:
    parts = [f"“{raw['text']}”" if raw.get("text") else "",
             " ".join(str(raw[k]) for k in ("role", "name") if raw.get(k))]
    return " ".join(p for p in parts if p) or "the page"


def _found(raw: Raw, result: Result) -> str:
    total = result.get("total", len(result.get("matches") or []))
    return f"Found {total} match{'' if total == 1 else 'es'} for {_asked(raw)}"


class Find(OnTab):
    type: Literal["find"]
    text: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    role: Annotated[str, Field(pattern=r"^[a-z]{2,30}$", description="A role as extract shows it (button, "
                                                                      "link, row…).")] | None = None
    name: Annotated[str, Field(min_length=1, max_length=500)] | None = None
    limit: Annotated[int, Field(ge=1, le=MAX_FIND_LIMIT)] = 20

    @model_validator(mode="after")
    def _something(self) -> "Find":
        if self.text is None and self.role is None and self.name is None:
            raise PydanticCustomError("find_query", "give 'text', or 'role' and/or 'name', to search for")
        return self

    spec = ActionSpec(
        rank=22,
        signature="{text? | role? | name?, limit?}",
        guide="search the page without an extract: `text` (visible text and names) or `role`/`name` (a substring); "
              "matches carry uids and context.",
        done=_found,
        failed="search the page for",
        failed_subject=_asked,
        read_only=True,
        result={**TAB, "matches": {**CANDIDATE, "text": PAGE}, "total": OWN, "note": OWN},
    )
