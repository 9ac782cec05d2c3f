"""The one-line milestone of a browser step, as the person reads it in the chat card and the popup
("Clicked the “View” button — the page changed"), not as a log line. The wording is each action's own
(its declaration's `done`, `failed` and `failed_subject`)."""

from __future__ import annotations

from typing import Any

from app.agent.tools.base import ToolOutput
from app.protocol.actions import ACTION_SPECS


def milestone_line(raw: dict[str, Any], output: ToolOutput) -> str:
    action = str(raw.get("type", "?"))
    spec = ACTION_SPECS.get(action)
    if output.data.get("ok"):
        return spec.done(raw, output.data.get("result") or {}) if spec else action
    error = output.data.get("error") or {}
    message = str(error.get("message", "")).split(";")[0][:120]
    if spec is None:
        return f"Could not {action}: {message}"
    what = spec.failed_subject(raw) if spec.failed_subject else ""
    return f"Could not {spec.failed}{' ' + what if what else ''}: {message}"
