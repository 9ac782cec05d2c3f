"""Runs a builtin subagent for the `task` tool and turns its loop outcome into {summary, status, artifacts}."""

from __future__ import annotations

from typing import Any

from app.agent.context import Deps
from app.agent.loop import AgentLoop, LoopOutcome
from app.agent.model import ModelError
from app.agent.subagent_spec import SubagentSpec
from app.agent.tools.registry import subagent_loadout
from app.events import SUBAGENT_EVENTS, LoopEvent


def _summarise(outcome: LoopOutcome) -> dict[str, Any]:
    notes = outcome.notes[-12:]
    artifacts: dict[str, Any] = {"steps": outcome.steps, "usage": outcome.usage.as_dict()}
    if outcome.status == "completed" and outcome.completion is not None:
        completion = outcome.completion
        for key in ("data", "needs", "tab_id"):
            if completion.get(key) is not None:
                artifacts[key] = completion[key]
        return {"summary": completion.get("summary", ""), "status": completion.get("status", "completed"),
                "artifacts": artifacts}
    artifacts["notes"] = notes
    partial = ("\n".join(notes)) or "no results yet"
    if outcome.status == "cancelled":
        summary = f"Stopped by the user after {outcome.steps} browser steps. Partial results:\n{partial}"
    elif outcome.status == "max_steps":
        summary = f"Hit the step limit after {outcome.steps} steps. Partial results:\n{partial}"
    elif outcome.status == "token_budget":
        summary = (f"Stopped at the task's token budget ({outcome.error}) after {outcome.steps} steps. "
                   f"Partial results:\n{partial}")
    elif outcome.status == "end_turn":
        return {"summary": outcome.text or partial, "status": "completed" if outcome.text else "failed",
                "artifacts": artifacts}
    else:
        summary = f"Failed: {outcome.error}. Partial results:\n{partial}"
    return {"summary": summary, "status": outcome.status, "artifacts": artifacts}


async def run_subagent(spec: SubagentSpec, description: str, prompt: str, parent: Deps, call_id: str) -> dict[str, Any]:
    deps = parent.for_subagent()
    runtime = parent.runtime
    board = deps.services.task_board
    task_id = deps.context.task_id
    if board is not None:
        board.start(task_id, description)
    loadout = subagent_loadout(spec.tool_keys, deps)
    system = "\n\n".join([spec.instructions, *loadout.instructions])

    def forward(kind: LoopEvent, payload: dict[str, Any]) -> None:
        runtime.on_event(SUBAGENT_EVENTS[kind], {**payload, "task_id": task_id, "call_id": call_id})

    try:
        client = runtime.client()
    except ModelError as err:
        return {"summary": err.message, "status": "failed", "artifacts": {}}
    loop = AgentLoop(client, runtime.settings.subagent_model, system, loadout, deps,
                     runtime.settings.subagent_max_steps, runtime.settings.max_tokens, forward,
                     runtime.settings.subagent_token_budget)
    outcome = await loop.run(prompt)
    result = _summarise(outcome)
    if board is not None:
        board.finish(task_id, result["status"])
    return result
