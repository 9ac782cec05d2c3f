"""Small scripted-model policies for the UI tests (the seed scenario's policy is used by the e2e test)."""

from __future__ import annotations

from typing import Any

from app.demo.scripted_model.conversation import first_user_text, steps, text, tool_use
from app.demo.scripted_model.server import Reply

SUB_ACTIONS = [{"type": "navigate", "url": "http://127.0.0.1:9/"}, {"type": "screenshot"}, {"type": "extract"}]


def echo(body: dict[str, Any]) -> Reply:
    """No tools used: a Markdown answer long enough to arrive in several stream chunks."""
    prompt = first_user_text(body)
    return Reply([text(f"**Hello!** You asked: _{prompt}_.\n\n- first point\n- second point, streamed in pieces "
                       "so the window has to grow the answer as it arrives.")])


def one_task(body: dict[str, Any], needs_user: bool = False) -> Reply:
    """Main: one task call, then an answer quoting the summary. Subagent: SUB_ACTIONS, then complete."""
    names = {t["name"] for t in body.get("tools") or []}
    done = steps(body)
    if "complete" in names:
        if len(done) < len(SUB_ACTIONS):
            return Reply([text(f"step {len(done) + 1}"), tool_use("browser", SUB_ACTIONS[len(done)])], "tool_use")
        completion = {"status": "needs_user", "summary": "A login wall.", "needs": "Log in to the site",
                      "tab_id": 7} if needs_user else {"status": "completed", "summary": "Read the page."}
        return Reply([tool_use("complete", completion)], "tool_use")
    if not done:
        return Reply([text("Let me look."), tool_use("task", {"subagent_type": "browser",
                                                              "description": "Read the page",
                                                              "prompt": first_user_text(body)})], "tool_use")
    return Reply([text("Finished: " + str(done[-1].result.get("summary")))])


def needs_user(body: dict[str, Any]) -> Reply:
    return one_task(body, needs_user=True)
