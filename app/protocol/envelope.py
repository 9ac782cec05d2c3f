"""Envelopes (v: 1) on every hop: app ⇄ native host ⇄ extension.

Frames are JSON objects with `v` and `kind`:

* `request  {id, task_id, action}`                  app → extension
* `response {id, ok, result | error{code,message}}` extension → app
* `control  {id, op, args}`                          app → extension (answered by a response)
* `event    {type, data}`                            extension/host → app, host → extension
* `auth / auth_ok / auth_error`                      first frames on the local socket

Unknown fields are ignored; unknown `kind`, `op` or event `type` are answered
or reported as an error, never a crash.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from app.protocol.actions import ActionModel, action_to_wire
from app.protocol.errors import ErrorCode

PROTOCOL_VERSION: Literal[1] = 1

ControlOp = Literal["ping", "stop_all", "end_session", "set_blocklist", "configure", "show_tab", "reopen_task",
                    "cancel", "answer_hold", "set_strict_mode"]
"""What the app may ask of the extension besides actions (answered by a response). `reopen_task {task_id}` lifts a
task's stop when the person gives it a new instruction. `cancel {request_ids, reason?}` stops the work of
requests the app already settled because their callers gave up on them (aborted requests: Stop, an MCP client's
cancellation). `answer_hold {hold_id, decision: allow|deny, asked, why}` answers a `request_held` event;
`set_strict_mode {all, sites}` is the person's strict-mode setting (app/safety/network_holds.py)."""
ExtensionEventType = Literal["hello", "session_started", "session_ended", "navigated", "tab_closed", "action_done",
                             "request_held", "request_released", "tab_state"]
"""What the extension reports on its own. `tab_state {seq, full, order?, tabs?, unnamed?, current?, stopped?}`:
the tab state get_tabs reads, which the app mirrors to answer it (extension/src/tabs/tab-feed.js,
app/bridge/tab_mirror.py). `request_held {hold_id, task_id, request_id, tab_id, action, method, url,
resource_type, form_submission, redirect, can_change, body, why, between_actions}`: a request a session tab's page
made is paused until `answer_hold` (during an action, or between actions with `action` empty); `request_released
{hold_id, reason}`: the extension failed it first (Stop, a closed tab, the action cancelled, the session ended), so
the question is void (extension/src/safety/network-hold.js)."""
HostEventType = Literal["host_error", "host_ready"]
"""What the native host reports (host_error to the app, host_ready to the extension)."""
EventType = Literal[ExtensionEventType, HostEventType]

CONTROL_OPS: tuple[str, ...] = get_args(ControlOp)
EXTENSION_EVENTS: tuple[str, ...] = get_args(ExtensionEventType)
HOST_EVENTS: tuple[str, ...] = get_args(HostEventType)


class _Envelope(BaseModel):
    model_config = ConfigDict(extra="ignore")
    v: Literal[1] = PROTOCOL_VERSION


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="ignore")
    code: ErrorCode
    message: str
    # element_stale / element_not_found: up to 5 current elements with the same role and name
    # ({uid, role, name, context}), so the model can often go on without a full re-extract.
    candidates: list[dict[str, Any]] | None = None
    # confirmation_required: {what, site, url, element, reason, category, token}; the token (which only the app
    # may send back, as a request's `approval`) is removed before the model sees the error (app/safety/held_actions.py).
    confirmation: dict[str, Any] | None = None
    next_step: str | None = None
    """Set where the code's own guidance (GUIDANCE) would mislead: e.g. extension_disconnected when no browser ever
    connected is a setup step, not a dropped connection to retry."""
    page_text: list[str] | None = None
    """The page's text that `message` quotes verbatim (an element described by its text, a thrown exception, a
    field's value): marked where the message says it, and remembered by the data-flow memory
    (app/protocol/page_data.py). A message that quotes the page without listing it here would reach the model
    unmarked: every error that interpolates page text lists it."""
    frames: list[dict[str, Any]] | None = None
    """Which of the page text it quotes a frame of another origin shows, as `{url, text}` (`Part.FRAMED`): the
    data-flow memory remembers it under the frame's site; the model does not see it."""


class Request(_Envelope):
    kind: Literal["request"] = "request"
    id: str
    task_id: str
    task_label: str | None = None
    """Shown on the task's tab group ("bua · <label>"); the extension falls back to task_id."""
    action: dict[str, Any]
    approval: str | None = None
    """The person approved this held sensitive action: the token the extension issued for exactly it
    (app/safety/held_actions.py). Only the app writes it; it is never an action field."""

    @classmethod
    def of_action(cls, id: str, task_id: str, action: ActionModel, *, task_label: str | None = None,
                  approval: str | None = None) -> "Request":
        """The one place a parsed action becomes wire data: the app passes the model from the edge that parsed it
        (app.protocol.actions.parse_action) to here, and the extension gets it with its defaults filled in."""
        return cls(id=id, task_id=task_id, task_label=task_label, action=action_to_wire(action), approval=approval)


class Response(_Envelope):
    kind: Literal["response"] = "response"
    id: str
    ok: bool
    result: Any = None
    error: ErrorBody | None = None

    @classmethod
    def failure(cls, id: str, code: ErrorCode, message: str) -> "Response":
        return cls(id=id, ok=False, error=ErrorBody(code=code, message=message))


class Control(_Envelope):
    kind: Literal["control"] = "control"
    id: str
    op: ControlOp
    args: dict[str, Any] = Field(default_factory=dict)


class Event(_Envelope):
    kind: Literal["event"] = "event"
    type: EventType
    data: dict[str, Any] = Field(default_factory=dict)
