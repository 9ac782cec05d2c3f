"""`complete`: how a subagent ends its loop with a summary, a status and structured data."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from app.agent.context import Deps
from app.agent.tools.base import Tool, ToolConfig, ToolOutput
from app.agent.tools.browser_schema import plain_schema
from app.protocol.errors import ErrorCode, error_body


class CompleteInput(BaseModel):
    model_config = ConfigDict(extra="ignore")
    status: Literal["completed", "failed", "needs_user"]
    summary: str = Field(min_length=1, max_length=20_000, description="A few sentences on what you did and found.")
    data: Any = Field(default=None, description="The structured results the task asked for (e.g. a list of records).")
    needs: str | None = Field(default=None, description="For needs_user: what the person must do.")
    tab_id: int | None = Field(default=None, description="For needs_user: the tab concerned.")


async def execute(raw: dict[str, Any], deps: Deps) -> ToolOutput:
    try:
        parsed = CompleteInput.model_validate(raw)
    except ValidationError as err:
        return ToolOutput({"ok": False, "error": error_body(ErrorCode.INVALID_ACTION, str(err))}, is_error=True)
    return ToolOutput({"ok": True, **parsed.model_dump(mode="json")}, terminal=True)


def create_tools(deps: Deps) -> list[Tool]:
    return [Tool("complete", "Finish the task: status, summary and structured data. Call exactly once.",
                 plain_schema(CompleteInput.model_json_schema()), execute)]


COMPLETE = ToolConfig(name="complete", instructions=lambda deps: None, create_tools=create_tools)
