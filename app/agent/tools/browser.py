"""`browser`: one tool for every declared action. Execute is action-agnostic: it parses the input and forwards the
action to the bridge."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from app.agent.context import Deps
from app.agent.page_text.boundary import token_for
from app.agent.prompts.browser import BROWSER_TOOL_INSTRUCTIONS
from app.agent.tools.base import Image, Tool, ToolConfig, ToolOutput
from app.agent.tools.browser_compact import compact
from app.agent.tools.browser_milestone import milestone_line
from app.agent.tools.browser_schema import flat_browser_schema
from app.protocol.actions import parse_action
from app.protocol.envelope import Response
from app.protocol.errors import ActionFailed, error_body


def _split_image(result: dict[str, Any]) -> tuple[dict[str, Any], list[Image]]:
    """Screenshots reach the model as image blocks, never as base64 inside JSON text."""
    data_url = result.get("data_url")
    if isinstance(data_url, str) and data_url.startswith("data:") and ";base64," in data_url:
        head, b64 = data_url.split(";base64,", 1)
        media_type = head[5:]
    elif isinstance(result.get("data"), str) and result.get("format") in ("png", "jpeg"):
        b64, media_type = result["data"], f"image/{result['format']}"
    else:
        return result, []
    stripped = {k: v for k, v in result.items() if k not in ("data", "data_url")}
    stripped["image"] = "attached below"
    return stripped, [Image(media_type, b64)]


async def execute(raw: dict[str, Any], deps: Deps) -> ToolOutput:
    """The edge where the model's (or an MCP client's) input becomes an action: parsed once here, passed on as the
    model (the pool, its hooks, the guard and the bridge take it as it is)."""
    action_type = raw.get("type") if isinstance(raw, dict) else None
    try:
        action = parse_action(raw)
    except ActionFailed as err:
        return ToolOutput({"ok": False, "action": action_type,
                           "error": error_body(err.code, err.message)}, is_error=True)
    bridge = deps.browser_bridge
    assert bridge is not None, "the browser tool exists only with a bridge"
    board = deps.services.task_board
    record = board.tasks.get(deps.context.task_id) if board is not None else None
    label = record.description if record is not None and record.description else None
    response = await bridge.request(action, deps.context.task_id, deps.abort, label=label)
    return output_of(action_type, response, deps.context.task_id, change_lists=deps.settings.change_lists)


def output_of(action_type: Any, response: Response, task_id: str, *, change_lists: bool = True) -> ToolOutput:
    """A browser response as the tool's output (also what an MCP lane pushes ahead for get_tabs:
    app/core/lane_tabs.py)."""
    boundary = token_for(task_id)
    if not response.ok:
        error = response.error.model_dump(mode="json", exclude_none=True) if response.error else {}
        return ToolOutput({"ok": False, "action": action_type, "error": error}, is_error=True, boundary=boundary)
    result = response.result if isinstance(response.result, dict) else {"value": response.result}
    if not change_lists:
        result = {k: v for k, v in result.items() if k != "changes"}
    result, images = _split_image(result)
    return ToolOutput({"ok": True, "action": action_type, "result": result}, images, boundary=boundary)


def summarize(raw: dict[str, Any], output: ToolOutput) -> ToolOutput:
    """An old result as one line: what the person's milestone says of it (page words stay inside the boundary:
    the line is the result's `text`), whether it worked and its error code."""
    data: dict[str, Any] = {"ok": bool(output.data.get("ok")), "action": output.data.get("action", raw.get("type")),
                            "summary_only": "an older result, shrunk to one line",
                            "result": {"text": milestone_line(raw, output)}}
    if not data["ok"]:
        data["error"] = {"code": (output.data.get("error") or {}).get("code", "internal_error")}
    return replace(output, data=data, images=[])


def to_client_output(output: ToolOutput) -> dict[str, Any]:
    data = copy.deepcopy(output.data)
    if output.images:
        data["screenshot"] = output.images[0].data_url
    return data


def create_tools(deps: Deps) -> list[Tool]:
    if deps.browser_bridge is None:
        return []
    schema = flat_browser_schema()
    if not deps.settings.change_lists:  # not offered: no `changes` to ask for, none in results (execute)
        schema["properties"].pop("changes", None)
    return [Tool("browser", tool_description(), schema, execute)]


def tool_description() -> str:
    """The tool's one line (the system prompt's action table explains each action; the `type` enum names them)."""
    return "Act in the person's browser; `type` picks the action."


BROWSER = ToolConfig(
    name="browser",
    instructions=lambda deps: BROWSER_TOOL_INSTRUCTIONS if deps.browser_bridge is not None else None,
    create_tools=create_tools,
    compact=compact,
    summarize=summarize,
    to_client_output=to_client_output,
    milestone=milestone_line,
    internal_only=True,
)
