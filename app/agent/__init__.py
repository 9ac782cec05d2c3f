"""Agent runtime: the main agent, the `task` tool and the builtin browser subagent (docs/architecture.md, "The agent")."""
