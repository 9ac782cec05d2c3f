"""`task`: delegate to a builtin subagent that runs in its own, isolated context and returns one summary."""

from __future__ import annotations

import uuid
from typing import Any

from app.agent.context import Deps
from app.agent.subagents import available_subagents
from app.agent.tools.base import Tool, ToolConfig, ToolOutput


def _schema(names: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "subagent_type": {"type": "string", "enum": names, "description": "Which subagent does the work."},
            "description": {"type": "string", "description": "3-8 words shown to the person, e.g. 'Collect "
                            "candidate contacts'."},
            "prompt": {"type": "string", "description": "The whole task, self-contained: the subagent sees nothing "
                       "else of this conversation."},
        },
        "required": ["subagent_type", "description", "prompt"],
    }


async def execute(raw: dict[str, Any], deps: Deps) -> ToolOutput:
    subagents = available_subagents(deps) if deps.run_subagent is not None else {}
    spec = subagents.get(str(raw.get("subagent_type")))
    if spec is None or deps.run_subagent is None:
        return ToolOutput({"status": "failed", "summary": f"unknown subagent_type {raw.get('subagent_type')!r}; "
                           f"valid: {', '.join(subagents) or 'none'}", "artifacts": {}}, is_error=True)
    prompt = str(raw.get("prompt") or "").strip()
    if not prompt:
        return ToolOutput({"status": "failed", "summary": "`prompt` is empty: describe the task", "artifacts": {}},
                          is_error=True)
    note_words = getattr(deps.browser_bridge, "note_task_words", None)
    if note_words is not None:
        # The task's own words (from the person, through the main agent): typing them on any site is no data flow.
        note_words(deps.context.task_id, f"{raw.get('description') or ''}\n{prompt}")
    result = await deps.run_subagent(spec, str(raw.get("description") or ""), prompt, deps,
                                     call_id=uuid.uuid4().hex[:8])
    return ToolOutput(result, is_error=result["status"] == "failed")


def create_tools(deps: Deps) -> list[Tool]:
    names = list(available_subagents(deps))
    if not names or deps.run_subagent is None or not deps.settings.tier.allows("task"):
        return []
    description = ("Delegate work to a subagent with its own context. `browser`: anything in the person's web "
                   "browser. Returns {summary, status, artifacts}.")
    return [Tool("task", description, _schema(names), execute)]


def milestone_line(raw: dict[str, Any], output: ToolOutput) -> str:
    return f"task {raw.get('description', '')} → {output.data.get('status')}"


TASK = ToolConfig(name="task", instructions=lambda deps: None, create_tools=create_tools, milestone=milestone_line)
