"""Agent runtime: the main agent, the `task` tool and the builtin browser subagent (DESIGN §6)."""
