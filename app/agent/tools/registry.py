"""The tool registry, generated from the declarations: one list, one rule for each loadout."""

from __future__ import annotations

from app.agent.context import Deps
from app.agent.tools.base import Loadout, Tool, ToolConfig
from app.agent.tools.browser import BROWSER
from app.agent.tools.complete import COMPLETE
from app.agent.tools.task import TASK

DECLARATIONS: tuple[ToolConfig, ...] = (TASK, BROWSER, COMPLETE)
BY_NAME: dict[str, ToolConfig] = {config.name: config for config in DECLARATIONS}
INTERNAL_ONLY_TOOLS: frozenset[str] = frozenset(c.name for c in DECLARATIONS if c.internal_only)
SUBAGENT_ONLY_TOOLS: frozenset[str] = frozenset({"complete"})


def _build(keys: list[str], deps: Deps) -> Loadout:
    tools: list[Tool] = []
    instructions: list[str] = []
    configs: dict[str, ToolConfig] = {}
    for key in keys:
        config = BY_NAME[key]
        created = config.create_tools(deps)
        if not created:
            continue
        tools.extend(created)
        text = config.instructions(deps)
        if text:
            instructions.append(text)
        for tool in created:
            configs[tool.name] = config
    return Loadout(tools, instructions, configs)


def main_loadout(deps: Deps) -> Loadout:
    """The main agent's tools: tier-allowed, minus subagent-only ones, minus INTERNAL_ONLY_TOOLS unless the
    builtin browser subagent is disabled (the rollback flag gives the main agent `browser` directly)."""
    keys = []
    for config in DECLARATIONS:
        if config.name in SUBAGENT_ONLY_TOOLS or not deps.settings.tier.allows(config.name):
            continue
        if config.name in INTERNAL_ONLY_TOOLS and deps.settings.builtin_browser_subagent:
            continue
        keys.append(config.name)
    return _build(keys, deps)


def subagent_loadout(tool_keys: tuple[str, ...], deps: Deps) -> Loadout:
    return _build([k for k in tool_keys if k in BY_NAME], deps)
