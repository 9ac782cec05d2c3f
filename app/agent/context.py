"""What a loop and its tools run with.

`RuntimeContext` is deliberately small: the `task` tool hands a subagent a
fresh one with only these five fields (the isolation invariant, docs/architecture.md "The agent"),
and services arrive separately in `ToolServices`, captured from the parent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Awaitable, Protocol

from app.abort import AbortSignal

if TYPE_CHECKING:
    from app.agent.runtime import AgentRuntime
    from app.agent.settings import AgentSettings
    from app.agent.subagent_spec import SubagentSpec
    from app.agent.task_board import TaskBoard
    from app.protocol.actions import ActionModel
    from app.protocol.envelope import Response


class BrowserBridgeLike(Protocol):
    async def request(self, action: "ActionModel", task_id: str, abort: AbortSignal | None = None,
                      timeout: float | None = None, browser: str | None = None,
                      label: str | None = None) -> "Response": ...


class SubagentRunner(Protocol):
    """Runs one subagent to its end and returns {summary, status, artifacts} (app.agent.subagent_run).

    Handed to the `task` tool through `Deps` so the tool does not import the loop that runs it."""

    def __call__(self, spec: "SubagentSpec", description: str, prompt: str, parent: "Deps",
                 call_id: str) -> Awaitable[dict[str, Any]]: ...


@dataclass(frozen=True)
class RuntimeContext:
    task_id: str
    user_id: str = "local"
    sandbox: str | None = None
    workspace: str | None = None
    timezone: str = "UTC"

    @classmethod
    def isolated_from(cls, parent: "RuntimeContext") -> "RuntimeContext":
        """A fresh context carrying only the five allowed fields; task_id kept for milestones."""
        return cls(**{f.name: getattr(parent, f.name) for f in fields(cls)})


@dataclass(frozen=True)
class ToolServices:
    browser_bridge: BrowserBridgeLike | None = None
    task_board: "TaskBoard | None" = None


@dataclass
class Deps:
    """Everything a tool may use. Only `context`, `services`, `runtime`, `run_subagent` and a child `abort` cross
    into a subagent."""

    context: RuntimeContext
    services: ToolServices
    runtime: "AgentRuntime"
    abort: AbortSignal = field(default_factory=AbortSignal)
    messages: list[dict[str, Any]] = field(default_factory=list)
    todos: list[Any] = field(default_factory=list)
    reminders: list[str] = field(default_factory=list)
    writer: Any = None
    run_subagent: SubagentRunner | None = None
    """None where no subagent may be started (then the `task` tool is not offered)."""

    @property
    def settings(self) -> "AgentSettings":
        return self.runtime.settings

    @property
    def browser_bridge(self) -> BrowserBridgeLike | None:
        return self.services.browser_bridge

    def for_subagent(self) -> "Deps":
        """The isolation invariant: fresh context, captured services, child abort, nothing else."""
        return Deps(
            context=RuntimeContext.isolated_from(self.context),
            services=ToolServices(browser_bridge=self.services.browser_bridge, task_board=self.services.task_board),
            runtime=self.runtime,
            abort=self.abort.child(),
            run_subagent=self.run_subagent,
        )
