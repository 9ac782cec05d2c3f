"""Routes a request to the main-agent policy or the browser policy, by the tools the caller offers."""

from __future__ import annotations

from typing import Any

from app.demo.scripted_model.conversation import first_user_text, steps, text, tool_use
from app.demo.scripted_model.recruiting import Seen, next_browser_action, subagent_policy
from app.demo.scripted_model.server import Reply


def _format_contacts(data: Any) -> str:
    if not isinstance(data, list) or not data:
        return "No contacts were collected."
    lines = [f"{i}. **{c.get('name')}** — {c.get('email')}, {c.get('phone')}" for i, c in enumerate(data, 1)]
    return "\n".join(lines)


def main_policy(body: dict[str, Any]) -> Reply:
    prompt = first_user_text(body)
    tools = {t.get("name") for t in body.get("tools") or []}
    history = steps(body)
    if "task" in tools:
        done = [s for s in history if s.name == "task"]
        if not done:
            return Reply([text("I'll hand this to the browser subagent."),
                          tool_use("task", {"subagent_type": "browser", "description": "Collect candidate contacts",
                                            "prompt": prompt})], "tool_use")
        result = done[-1].result
        artifacts = result.get("artifacts") or {}
        if result.get("status") == "completed":
            return Reply([text("Here are the contact details:\n\n" + _format_contacts(artifacts.get("data")))])
        return Reply([text(f"The browser task ended as **{result.get('status')}**.\n\n{result.get('summary', '')}")])
    if "browser" in tools:
        blocks, completion = next_browser_action(Seen.of(body, prompt))
        if completion is not None:
            return Reply([text("Here are the contact details:\n\n" + _format_contacts(completion.get("data")))])
        return Reply(blocks, "tool_use")
    return Reply([text(f"(offline model) You said: {prompt[:200]}")])


def route(body: dict[str, Any]) -> Reply:
    names = {t.get("name") for t in body.get("tools") or []}
    if "complete" in names:
        return subagent_policy(body, first_user_text(body))
    return main_policy(body)
