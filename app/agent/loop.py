"""One agent loop: model call → tool calls → model call … until end of turn, `complete`, a step limit or abort.

The history keeps tool outputs as structured records and renders them at each
call, so older outputs are compacted by their tool's `compact` (an output is
"older" when a later call of the same tool and action type exists), and
outputs that have left the window of whole results are shrunk to one line by
their tool's `summarize`, so long jobs stay inside the context window. The
window moves in strides (between KEEP_WHOLE and KEEP_WHOLE + STRIDE - 1 whole
results), so the rendered prefix changes once per stride and the prompt cache
keeps serving it in between. The model's own text (its notes) is never
shrunk. System, tools and the rolling conversation prefix carry cache
breakpoints.

A loop stops at its step limit or, when it has one, at its token budget
(input as billed plus output, Usage.budget_tokens), checked before each model
call.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from app.agent.context import Deps
from app.agent.model import Aborted, ModelClient, ModelError
from app.agent.results import render_tool_result, with_cache_breakpoint
from app.agent.task_board import Milestone
from app.agent.tools.base import Loadout, ToolOutput
from app.agent.usage import Usage
from app.events import LoopSink
from app.protocol.errors import ErrorCode, error_body

LoopStatus = Literal["end_turn", "completed", "max_steps", "token_budget", "cancelled", "failed"]

KEEP_WHOLE = 6
"""The latest tool results always kept whole."""
STRIDE = 6
"""How many results leave the window at once."""


def whole_from(total: int) -> int:
    """The index of the first tool result kept whole, of `total` so far."""
    return max(0, (total - KEEP_WHOLE) // STRIDE * STRIDE)


@dataclass
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    output: ToolOutput | None = None


@dataclass
class LoopOutcome:
    status: LoopStatus
    text: str = ""
    completion: dict[str, Any] | None = None
    notes: list[str] = field(default_factory=list)
    steps: int = 0
    usage: Usage = field(default_factory=Usage)
    error: str | None = None


def _mark_result(messages: list[dict[str, Any]], tool_use_id: str) -> None:
    """Put a cache breakpoint on the tool_result block of `tool_use_id` (copies; the history stays unmarked)."""
    for i, message in enumerate(messages):
        content = message["content"]
        if isinstance(content, list) and any(b.get("tool_use_id") == tool_use_id for b in content):
            blocks = [dict(b, cache_control={"type": "ephemeral"}) if b.get("tool_use_id") == tool_use_id else b
                      for b in content]
            messages[i] = {**message, "content": blocks}
            return


def _stopped(output: ToolOutput) -> bool:
    """A tool answered `stopped`: the person ended this task (Stop, End, idle, a blocklist entry)."""
    error = output.data.get("error")
    return output.is_error and isinstance(error, dict) and error.get("code") == "stopped"


class AgentLoop:
    def __init__(self, client: ModelClient, model: str, system: str, loadout: Loadout, deps: Deps,
                 max_steps: int, max_tokens: int = 4096, on_event: LoopSink = lambda _k, _p: None,
                 token_budget: int | None = None) -> None:
        self.token_budget = token_budget
        self.client = client
        self.model = model
        self.system = system
        self.loadout = loadout
        self.deps = deps
        self.max_steps = max_steps
        self.max_tokens = max_tokens
        self.on_event = on_event
        self.history: list[dict[str, Any] | list[ToolCall]] = []
        self.tool_steps = 0

    # -- rendering --------------------------------------------------------
    def plain_messages(self) -> list[dict[str, Any]]:
        """The history as API messages, older outputs compacted, no cache breakpoints."""
        calls = [c for entry in self.history if isinstance(entry, list) for c in entry]
        latest: dict[tuple[str, Any], str] = {}
        for call in calls:
            latest[(call.name, call.input.get("type"))] = call.id
        old = {call.id for call in calls[:whole_from(len(calls))]}
        messages: list[dict[str, Any]] = []
        for entry in self.history:
            if isinstance(entry, dict):
                messages.append(entry)
                continue
            blocks = []
            for call in entry:
                output = call.output or ToolOutput({"ok": False, "error": error_body(ErrorCode.INTERNAL_ERROR, "no output")},
                                                    is_error=True)
                config = self.loadout.configs.get(call.name)
                if config is not None and call.id in old and config.summarize is not None:
                    output = config.summarize(call.input, output)
                elif config is not None and latest[(call.name, call.input.get("type"))] != call.id:
                    output = config.compact(call.input, output)
                blocks.append(render_tool_result(call.id, output))
            messages.append({"role": "user", "content": blocks})
        return messages

    def _render_messages(self) -> list[dict[str, Any]]:
        messages = self.plain_messages()
        calls = [c for entry in self.history if isinstance(entry, list) for c in entry]
        boundary = whole_from(len(calls))
        if boundary:  # a breakpoint where the shrunk results end: that prefix stays cached when the window moves
            _mark_result(messages, calls[boundary - 1].id)
        if messages:
            last = messages[-1]
            content = last["content"]
            blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
            messages[-1] = {**last, "content": with_cache_breakpoint(blocks)}
        return messages

    def _render_tools(self) -> list[dict[str, Any]]:
        return with_cache_breakpoint([t.api_schema() for t in self.loadout.tools])

    # -- running ----------------------------------------------------------
    async def run(self, user_content: str | list[dict[str, Any]]) -> LoopOutcome:
        self.history.append({"role": "user", "content": user_content})
        outcome = LoopOutcome(status="end_turn")
        system = with_cache_breakpoint([{"type": "text", "text": self.system}])
        tools = self._render_tools()
        by_name = {t.name: t for t in self.loadout.tools}
        for _ in range(self.max_steps):
            spent = outcome.usage.budget_tokens
            if self.token_budget is not None and spent >= self.token_budget:
                return self._finish(outcome, "token_budget",
                                    error=f"used {spent:,} of its {self.token_budget:,}-token budget")
            streamed: list[str] = []

            def on_text(text: str, streamed: list[str] = streamed) -> None:
                streamed.append(text)
                self.on_event("text", {"text": text})

            try:
                message = await self.client.stream(
                    model=self.model, system=system, tools=tools, messages=self._render_messages(),
                    max_tokens=self.max_tokens, abort=self.deps.abort, on_text=on_text)
            except Aborted as err:
                # What the model already said in the stopped turn is a result too (the person saw it stream).
                said = "".join(streamed).strip()
                if said:
                    outcome.notes.append(said)
                return self._finish(outcome, "cancelled", error=err.reason)
            except ModelError as err:
                return self._finish(outcome, "failed", error=err.message)
            usage = Usage.from_api(message.usage)
            outcome.usage.add(usage)
            if self.deps.services.task_board is not None:
                self.deps.services.task_board.add_usage(self.deps.context.task_id, usage)
            self.on_event("usage", usage.as_dict())
            content = [block.model_dump(mode="json", exclude_none=True) for block in message.content]
            self.history.append({"role": "assistant", "content": content})
            text = "".join(b.get("text", "") for b in content if b["type"] == "text").strip()
            if text:
                outcome.notes.append(text)
                outcome.text = text
            calls = [ToolCall(b["id"], b["name"], b.get("input") or {}) for b in content if b["type"] == "tool_use"]
            if not calls:
                return self._finish(outcome, "end_turn")
            self.history.append(calls)
            for call in calls:
                if self.deps.abort.aborted:
                    call.output = ToolOutput({"ok": False, "error": error_body(ErrorCode.STOPPED, "stopped by the person")},
                                             is_error=True)
                    continue
                call.output = await self._execute(call, by_name)
                if call.output.terminal and not call.output.is_error:
                    outcome.completion = call.output.data
            if self.deps.abort.aborted:
                return self._finish(outcome, "cancelled", error=self.deps.abort.reason)
            ended = next((c.output for c in calls if c.output is not None and _stopped(c.output)), None)
            if ended is not None:  # the person ended the task's browser work: stop here and report what we have
                return self._finish(outcome, "cancelled", error=str(ended.data["error"].get("message", "stopped")))
            if outcome.completion is not None:
                return self._finish(outcome, "completed")
        return self._finish(outcome, "max_steps")

    async def _execute(self, call: ToolCall, by_name: dict[str, Any]) -> ToolOutput:
        tool = by_name.get(call.name)
        self.on_event("tool_call", {"id": call.id, "name": call.name, "input": call.input})
        if tool is None:
            output = ToolOutput({"ok": False, "error": error_body(
                ErrorCode.INVALID_ACTION, f"unknown tool {call.name!r}; available: {', '.join(by_name)}")}, is_error=True)
        else:
            try:
                output = await tool.handler(call.input, self.deps)
            except asyncio.CancelledError:
                raise
            except Exception as err:  # a tool bug is reported to the model, not a crashed loop
                output = ToolOutput({"ok": False, "error": error_body(ErrorCode.INTERNAL_ERROR, f"{type(err).__name__}: {err}")},
                                    is_error=True)
        self.tool_steps += 1
        config = self.loadout.configs.get(call.name)
        client_output = config.to_client_output(output) if config else output.data
        self.on_event("tool_result", {"id": call.id, "name": call.name, "output": client_output})
        board = self.deps.services.task_board
        if config is not None and config.milestone is not None and board is not None:
            milestone = Milestone(self.deps.context.task_id, self.tool_steps, call.input.get("type", call.name),
                                  config.milestone(call.input, output),
                                  output.images[0].data_url if output.images else None,
                                  ok=not output.is_error and output.data.get("ok", True) is not False)
            board.post_milestone(milestone)
            self.on_event("milestone", milestone.as_dict())
        return output

    def _finish(self, outcome: LoopOutcome, status: LoopStatus, error: str | None = None) -> LoopOutcome:
        outcome.status = status
        outcome.error = error
        outcome.steps = self.tool_steps
        return outcome
