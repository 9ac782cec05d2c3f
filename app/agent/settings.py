"""Agent settings: models per loop, base URL, tiers and the rollback flag."""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() not in ("0", "false", "no", "off", "")


DEFAULT_BROWSER_TOKEN_BUDGET = 600_000
"""The seed scenario at 30 candidates uses about 120k with change lists and 400k without (bench agent): room for a
slower page or a model that extracts more; about $0.60 at Haiku's input price."""


@dataclass(frozen=True)
class Tier:
    name: str
    allowed_tools: tuple[str, ...] | None = None
    """None means every tool except `browser`, which is never implied: it must be listed."""

    def allows(self, tool: str) -> bool:
        if tool == "browser":
            return self.allowed_tools is not None and "browser" in self.allowed_tools
        return self.allowed_tools is None or tool in self.allowed_tools


DEFAULT_TIERS = {
    "standard": Tier("standard", ("task", "browser")),
    "chat_only": Tier("chat_only", None),
}


def tier_from_settings(name: str, browser: bool) -> Tier:
    """The tier the person chose in Settings: standard allows `task`, plus `browser` only when ticked; chat only
    allows no tool (its all-tools default never implies `browser`, and with no subagent `task` has nothing)."""
    if name == "chat_only":
        return Tier("chat_only", ())
    return DEFAULT_TIERS["standard"] if browser else Tier("standard", ("task",))


@dataclass(frozen=True)
class AgentSettings:
    main_model: str = "claude-sonnet-4-6"
    subagent_model: str = "claude-haiku-4-5"
    base_url: str | None = None
    tier: Tier = field(default_factory=lambda: DEFAULT_TIERS["standard"])
    builtin_browser_subagent: bool = field(
        default_factory=lambda: _flag("ENABLE_BUILTIN_BROWSER_SUBAGENT", True))
    main_max_steps: int = 12
    """The main agent's step limit when it has no `browser` tool (with it, the browser budget below applies)."""
    subagent_max_steps: int = 400
    """A backstop: browser work stops at its token budget first."""
    subagent_token_budget: int = DEFAULT_BROWSER_TOKEN_BUDGET
    """Tokens one task's browser work may use (input as billed plus output, Usage.budget_tokens)."""
    change_lists: bool = True
    """Offer the model change lists (extract `changes`, the `changes` of input results); off only to measure."""
    max_tokens: int = 4096
    api_retries: int = 2
