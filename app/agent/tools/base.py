"""The shape of a tool declaration.

A `ToolConfig` is one object per tool family: its name, the instructions it
adds to the system prompt, the tools it creates for a given `Deps` (none when
its service is missing), how it compacts older outputs, and what the UI gets.
Handlers return a `ToolOutput` (data + images); `app.agent.results` renders it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Awaitable, Callable

if TYPE_CHECKING:
    from app.agent.context import Deps


@dataclass
class Image:
    media_type: str
    data_b64: str

    @property
    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{self.data_b64}"


@dataclass
class ToolOutput:
    data: dict[str, Any]
    images: list[Image] = field(default_factory=list)
    terminal: bool = False
    """A terminal output (e.g. `complete`) ends the loop that called it."""
    is_error: bool = False
    boundary: str | None = None
    """The task's page-data token when the data holds page content: the model's view marks it
    (app.agent.tools.browser_result); the data itself stays raw for the person's views."""


Handler = Callable[[dict[str, Any], "Deps"], Awaitable[ToolOutput]]


@dataclass
class Tool:
    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Handler

    def api_schema(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


@dataclass
class ToolConfig:
    name: str
    instructions: Callable[["Deps"], str | None]
    create_tools: Callable[["Deps"], list[Tool]]
    compact: Callable[[dict[str, Any], ToolOutput], ToolOutput] = lambda _input, output: output
    summarize: Callable[[dict[str, Any], ToolOutput], ToolOutput] | None = None
    """An old output shrunk to one line, once it has left the loop's window of whole results; None keeps it."""
    to_client_output: Callable[[ToolOutput], dict[str, Any]] = lambda output: output.data
    milestone: Callable[[dict[str, Any], ToolOutput], str] | None = None
    """One summary line per call for the task board; None posts no milestone."""
    internal_only: bool = False
    """Stripped from the main agent's loadout when the builtin subagent handles it."""


@dataclass
class Loadout:
    """The tools one loop runs with, the instructions they add, and the declaration each tool came from."""

    tools: list[Tool]
    instructions: list[str]
    configs: dict[str, ToolConfig]

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.tools]
