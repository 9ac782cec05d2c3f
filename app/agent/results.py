"""The result builder: what the model sees of a tool call. Handlers return data; this renders it."""

from __future__ import annotations

from typing import Any

from app.agent.tools.base import ToolOutput
from app.agent.tools.browser_result import model_view


def render_tool_result(tool_use_id: str, output: ToolOutput) -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": model_view(output.data, output.boundary).text()}]
    for image in output.images:
        content.append({"type": "image", "source": {"type": "base64", "media_type": image.media_type,
                                                    "data": image.data_b64}})
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tool_use_id, "content": content}
    if output.is_error:
        block["is_error"] = True
    return block


def with_cache_breakpoint(blocks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Mark the last block of a list for prompt caching (a copy; the history stays unmarked)."""
    if not blocks:
        return blocks
    marked = [dict(b) for b in blocks]
    marked[-1]["cache_control"] = {"type": "ephemeral"}
    return marked
