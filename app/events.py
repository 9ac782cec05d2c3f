"""The kinds of notification the app's parts send their listeners, in one place so the type checker holds every
sender and every reader (the UI, `bua run`'s stream, the demo's printer) to the same words.

- `AgentEvent`: what an agent loop reports while it runs (`AgentRuntime.on_event`); a subagent's events reach
  the main agent's sink with the `subagent_` prefix (`SUBAGENT_EVENTS`).
- `BoardEvent`: the task board (`TaskBoard.subscribe`): a task started, posted a milestone, finished.
- `SessionsEvent`: the sessions table (`SessionsTable.subscribe`), fed by the extension's session events.
- `CoreEvent`: the core's verbs and its browsers (`Core.subscribe`): each verb that changes something sends one.
"""

from __future__ import annotations

from typing import Any, Callable, Generic, Literal, TypeVar

LoopEvent = Literal["text", "usage", "tool_call", "tool_result", "milestone"]
SubagentEvent = Literal["subagent_text", "subagent_usage", "subagent_tool_call", "subagent_tool_result",
                        "subagent_milestone"]
AgentEvent = LoopEvent | SubagentEvent
SUBAGENT_EVENTS: dict[LoopEvent, SubagentEvent] = {
    "text": "subagent_text", "usage": "subagent_usage", "tool_call": "subagent_tool_call",
    "tool_result": "subagent_tool_result", "milestone": "subagent_milestone",
}

BoardEvent = Literal["task_started", "task_milestone", "task_finished"]
SessionsEvent = Literal["session_started", "session_updated", "session_ended", "sessions_synced"]
CoreEvent = Literal[
    "blocklist_changed",  # {patterns, browsers}: the stored list changed and was sent to every browser
    "stopped",  # {task_id (None for Stop all), cancelled_tasks, settled_requests}
    "acted",  # {task_id, action, ok}: one browser action asked through the core (`bua act`)
    "browser_connected",  # {profile_id, browser}: a browser said hello
    "host_error",  # {message}: a native host reported an error
]

LoopSink = Callable[[LoopEvent, dict[str, Any]], None]
EventSink = Callable[[AgentEvent, dict[str, Any]], None]
BoardListener = Callable[[BoardEvent, Any], None]
SessionsListener = Callable[[SessionsEvent, dict[str, Any]], None]
CoreListener = Callable[[CoreEvent, dict[str, Any]], None]

K = TypeVar("K", bound=str)
P = TypeVar("P")


class Listeners(Generic[K, P]):
    """The listeners of one notifier: `subscribe` returns the way to unsubscribe; `notify` calls each in turn
    (a listener may unsubscribe while it is called)."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[K, P], None]] = []

    def subscribe(self, listener: Callable[[K, P], None]) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def notify(self, kind: K, payload: P) -> None:
        for listener in list(self._listeners):
            listener(kind, payload)

    def __len__(self) -> int:
        return len(self._listeners)
