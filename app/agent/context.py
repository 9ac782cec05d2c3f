"""What a loop and its tools run with.

`RuntimeContext` is deliberately small: the `task` tool hands a subagent a
fresh one with only these five fields (the isolation invariant of DESIGN §6),
and services arrive separately in `ToolServices`, captured from the parent.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

from app.bridge.abort import AbortSignal

if TYPE_CHECKING:
    from app.agent.runtime import AgentRuntime
    from app.agent.settings import AgentSettings
    from app.agent.task_board import TaskBoard
    from app.protocol.envelope import Response


class BrowserBridgeLike(Protocol):
    async def request(self, action: Any, task_id: str, abort: AbortSignal | None = None,
                      timeout: float | None = None, browser: str | None = None,
                      label: str | None = None) -> "Response": ...


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
    """Everything a tool may use. Only `context`, `services`, `runtime` and a child `abort` cross into a subagent."""

    context: RuntimeContext
    services: ToolServices
    runtime: "AgentRuntime"
    abort: AbortSignal = field(default_factory=AbortSignal)
    messages: list[dict[str, Any]] = field(default_factory=list)
    todos: list[Any] = field(default_factory=list)
    reminders: list[str] = field(default_factory=list)
    writer: Any = None

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
        )
