"""The result builder for MCP: what the client's model sees of a lane's answer, in MCP's own types.

Screenshots are image content (never base64 inside text); failures are `isError` results whose text carries
the error code, the message and the next step (the same guidance the built-in subagent is taught).
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types

from app.agent.tools.browser_result import model_view, with_next_step


def _text(value: Any) -> types.TextContent:
    return types.TextContent(text=value if isinstance(value, str) else
                             json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def failure(code: str, message: str) -> types.CallToolResult:
    """An isError result: `code: message` and, when bua knows one, the next step."""
    return types.CallToolResult(content=[_text(with_next_step({"code": code, "message": message}))], is_error=True)


def lane_failure(reply: dict[str, Any]) -> types.CallToolResult:
    error = reply.get("error") or {}
    return failure(str(error.get("code", "internal_error")), str(error.get("message", "no message")))


def browser_result(reply: dict[str, Any]) -> types.CallToolResult:
    """`act`'s output: `{ok, action, result}` as text, its images as image content; a failed action is isError
    with its error code and next step."""
    if not reply.get("ok"):
        return lane_failure(reply)
    output = reply["output"]
    view = model_view(output["data"], output.get("boundary"))
    content: list[types.ContentBlock] = [_text(view.text())]
    content += [types.ImageContent(data=i["data"], mime_type=i["media_type"]) for i in output.get("images", [])]
    return types.CallToolResult(content=content, is_error=bool(output.get("is_error")))


def task_result(reply: dict[str, Any]) -> types.CallToolResult:
    """The subagent's `{summary, status, artifacts}`: the summary as text first (what a model reads), the whole
    record as structured content and as JSON text (for clients that show only text)."""
    if not reply.get("ok"):
        return lane_failure(reply)
    result = reply["result"]
    return types.CallToolResult(content=[_text(str(result.get("summary", ""))), _text(result)],
                                structured_content=result, is_error=result.get("status") == "failed")


def status_result(reply: dict[str, Any]) -> types.CallToolResult:
    if not reply.get("ok"):
        return lane_failure(reply)
    return types.CallToolResult(content=[_text(reply["result"])], structured_content=reply["result"])
