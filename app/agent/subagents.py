"""Builtin subagents. Today: `browser`, registered only when the tier allows "browser" and a bridge exists."""

from __future__ import annotations

from app.agent.context import Deps
from app.agent.prompts.browser import BROWSER_SUBAGENT_INSTRUCTIONS
from app.agent.subagent_spec import SubagentSpec

BROWSER_SUBAGENT = SubagentSpec(
    name="browser",
    description="Works in the person's browser (navigate, read, click, type) and returns one summary with data.",
    tool_keys=("browser", "complete"),
    instructions=BROWSER_SUBAGENT_INSTRUCTIONS,
)


def available_subagents(deps: Deps) -> dict[str, SubagentSpec]:
    settings = deps.settings
    found: dict[str, SubagentSpec] = {}
    if settings.builtin_browser_subagent and settings.tier.allows("browser") and deps.browser_bridge is not None:
        found[BROWSER_SUBAGENT.name] = BROWSER_SUBAGENT
    return found
