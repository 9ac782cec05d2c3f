"""The three MCP tools bua offers, derived from the same declarations the built-in subagent uses.

* `browser`: the subagent's own tool: the flat action schema and the browser guidance, word for word.
* `browser_task`: the whole job to bua's browser subagent (the person's model and key); one summary back.
* `browser_status`: this lane's tabs, the connected browsers, the blocklist.

Annotations. MCP hints are per tool, and `browser` is one tool over every action, so its hints are what holds
for the tool as a whole, folded from the per-action declarations (`ACTION_SPECS`): `readOnlyHint` only if every
action is read-only (extract and screenshot are; click is not, so: false), `destructiveHint` if any action may
be sensitive (a click can pay, send or delete: true), `openWorldHint` if any action may navigate (it reaches
the open web: true), never idempotent. A client that asks before each non-read-only call asks for `browser`;
that is the honest answer for a tool that can click "Buy". `browser_task` can do anything `browser` can.
"""

from __future__ import annotations

from typing import Any

import mcp_types as types

from app.agent.prompts.browser import BROWSER_TOOL_INSTRUCTIONS
from app.agent.tools.browser_schema import flat_browser_schema
from app.protocol.actions import ACTION_SPECS, ACTION_TYPES

BROWSER = "browser"
BROWSER_TASK = "browser_task"
BROWSER_STATUS = "browser_status"


def browser_annotations() -> types.ToolAnnotations:
    specs = [ACTION_SPECS[t] for t in ACTION_TYPES]
    read_only = all(s.read_only for s in specs)
    return types.ToolAnnotations(
        title="Act in the person's browser",
        read_only_hint=read_only,
        destructive_hint=False if read_only else any(s.may_be_sensitive for s in specs),
        idempotent_hint=read_only,
        open_world_hint=any(s.may_navigate for s in specs),
    )


def _browser_tool() -> types.Tool:
    lead = (f"Act in the person's own, logged-in browser, in tabs of this client's own lane: "
            f"{', '.join(ACTION_TYPES)}. Choose with `type`.")
    return types.Tool(name=BROWSER, description=f"{lead}\n\n{BROWSER_TOOL_INSTRUCTIONS}",
                      input_schema=flat_browser_schema(), annotations=browser_annotations())


TASK_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "prompt": {"type": "string", "description": "The whole job, self-contained: the subagent sees nothing "
                   "else of your conversation. Say what to collect and in what shape."},
        "description": {"type": "string", "description": "3-8 words shown to the person, e.g. 'Collect "
                        "candidate contacts'."},
    },
    "required": ["prompt"],
}


def _task_tool() -> types.Tool:
    annotations = browser_annotations().model_copy(update={"title": "Hand a browser job to bua's subagent"})
    return types.Tool(
        name=BROWSER_TASK,
        description=("Hand a whole browser job to bua's own browser subagent (it runs with the person's model and "
                     "key, in this lane's tabs) and get one summary back: {summary, status, artifacts}. Cheaper "
                     "for your context than many `browser` calls. Its milestones arrive as progress "
                     "notifications. status is completed, failed, needs_user (the person must act: artifacts.needs "
                     "says what, artifacts.tab_id where), cancelled, max_steps or token_budget."),
        input_schema=TASK_SCHEMA, annotations=annotations)


def _status_tool() -> types.Tool:
    return types.Tool(
        name=BROWSER_STATUS,
        description=("This lane's live tabs (tab_id, url, title), the connected browsers, how many sessions other "
                     "clients hold (never their tabs) and the person's blocklist. Call it to find your tabs again."),
        input_schema={"type": "object", "properties": {}},
        annotations=types.ToolAnnotations(title="bua status", read_only_hint=True, destructive_hint=False,
                                          idempotent_hint=True, open_world_hint=False))


def mcp_tools() -> list[types.Tool]:
    return [_browser_tool(), _task_tool(), _status_tool()]
