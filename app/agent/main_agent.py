"""The main agent: one conversation, one turn at a time, tools from the main loadout."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.abort import AbortSignal
from app.agent.context import Deps, RuntimeContext, ToolServices
from app.agent.loop import AgentLoop, LoopOutcome
from app.agent.model import ModelError
from app.agent.prompts.main import main_instructions
from app.agent.runtime import AgentRuntime
from app.agent.subagent_run import run_subagent
from app.agent.tools.base import Loadout
from app.agent.tools.registry import main_loadout


@dataclass
class MainAgent:
    runtime: AgentRuntime
    services: ToolServices
    context: RuntimeContext
    history: list[dict[str, Any]] = field(default_factory=list)

    def deps(self, abort: AbortSignal) -> Deps:
        return Deps(context=self.context, services=self.services, runtime=self.runtime, abort=abort,
                    messages=self.history, run_subagent=run_subagent)

    def loadout(self, abort: AbortSignal | None = None) -> Loadout:
        return main_loadout(self.deps(abort or AbortSignal()))

    async def run_turn(self, text: str, abort: AbortSignal | None = None) -> LoopOutcome:
        abort = abort or AbortSignal()
        deps = self.deps(abort)
        loadout = main_loadout(deps)
        system = "\n\n".join([main_instructions({t.name for t in loadout.tools}), *loadout.instructions])
        try:
            client = self.runtime.client()
        except ModelError as err:
            return LoopOutcome(status="failed", error=err.message)
        settings = self.runtime.settings
        # With the browser tool itself (no subagent), the main agent does the browser work: it gets its budget.
        browser = "browser" in loadout.names
        loop = AgentLoop(client, settings.main_model, system, loadout, deps,
                         settings.subagent_max_steps if browser else settings.main_max_steps, settings.max_tokens,
                         self.runtime.on_event, settings.subagent_token_budget if browser else None)
        loop.history = list(self.history)
        outcome = await loop.run(text)
        self.history = loop.plain_messages()
        return outcome
