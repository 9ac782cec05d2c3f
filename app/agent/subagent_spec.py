"""What a builtin subagent is: a name, a description, its tool keys and its instructions.

Kept apart from `app.agent.subagents` (which decides, from the `Deps`, which subagents exist) so that
`app.agent.context` can name the subagent runner's signature without importing back what imports it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SubagentSpec:
    name: str
    description: str
    tool_keys: tuple[str, ...]
    instructions: str
