"""The one-line milestone of a browser step, as the person reads it in the chat card and the popup
("Clicked the “View” button — the page changed"), not as a log line."""

from __future__ import annotations

import re
from typing import Any

from app.agent.tools.base import ToolOutput

QUOTED = re.compile(r'"([^"]+)"')


def _thing(handle: str) -> str:
    """`button#view "View"` → `“View”`; `#candidate-panel[…]` → `the candidate panel`; other uids and
    selectors → `an element`."""
    quoted = QUOTED.search(handle or "")
    if quoted:
        return f"“{quoted.group(1)}”"
    named = re.match(r"#([A-Za-z][\w-]*)", handle or "")
    if named:
        return "the " + re.sub(r"[-_]+", " ", named.group(1))
    if not handle or re.fullmatch(r"e\d+", handle) or any(c in handle for c in "#.[:>="):
        return "an element"
    return handle


def _target(raw: dict[str, Any], result: dict[str, Any], key: str) -> str:
    return _thing(str(result.get(key) or raw.get("uid") or raw.get("selector") or ""))


def _awaited(raw: dict[str, Any]) -> str:
    """What a wait_for waited for: `the text “Saved”`, or the element it names."""
    return f"the text “{raw['text']}”" if raw.get("text") else _target(raw, {}, "")


def _outcome(result: dict[str, Any]) -> str:
    effects = result.get("effects") or {}
    if effects.get("navigated") and not effects.get("same_document"):
        return f" — went to {effects.get('url', 'a new page')}"
    if effects.get("new_tabs"):
        return " — opened a new tab"
    if effects.get("dialog"):
        return f" — a {effects['dialog'].get('type', 'dialog')} dialog was answered"
    if effects.get("nothing_changed"):
        return " — nothing changed"
    return ""


ON_ELEMENT = {"click": ("Clicked", "clicked"), "hover": ("Pointed at", "hovered"), "type": ("Typed into", "typed_into")}
"""Actions on an element: the verb of their milestone, and the result field that names the element."""


def _done(action: str, raw: dict[str, Any], result: dict[str, Any]) -> str:
    if action == "navigate":
        return f"Opened {result.get('title') or result.get('url') or raw.get('url', 'the page')}"
    if action == "extract":
        return f"Read {result.get('title') or 'the page'}"
    if action in ON_ELEMENT:
        verb, key = ON_ELEMENT[action]
        return f"{verb} {_target(raw, result, key)}{_outcome(result)}"
    if action == "press_key":
        return f"Pressed {raw.get('key', 'a key')}{_outcome(result)}"
    if action == "scroll":
        return f"Scrolled {raw['direction']}" if raw.get("direction") else "Scrolled an element into view"
    if action == "screenshot":
        return "Took a screenshot"
    if action == "wait_for":
        return f"Waited for {_awaited(raw)} to be {raw.get('state', 'visible')}"
    if action == "evaluate":
        return "Ran a script in the page"
    if action == "get_tabs":
        return f"Listed {len(result.get('tabs') or [])} tabs"
    if action == "open_tab":
        return f"Opened a new tab: {result.get('url') or raw.get('url', '')}"
    if action == "close_tab":
        return "Closed a tab"
    return action


FAILED_VERB = {"navigate": "open", "extract": "read the page", "click": "click", "hover": "point at",
               "type": "type into", "press_key": "press", "scroll": "scroll", "screenshot": "take a screenshot",
               "wait_for": "see", "evaluate": "run the script", "get_tabs": "list the tabs",
               "open_tab": "open a tab", "close_tab": "close the tab"}


def milestone_line(raw: dict[str, Any], output: ToolOutput) -> str:
    action = str(raw.get("type", "?"))
    if output.data.get("ok"):
        return _done(action, raw, output.data.get("result") or {})
    error = output.data.get("error") or {}
    message = str(error.get("message", "")).split(";")[0][:120]
    if action in ON_ELEMENT:
        what = _target(raw, {}, "")
    else:
        what = {"navigate": raw.get("url", ""), "press_key": raw.get("key", ""), "wait_for": _awaited(raw)}.get(action)
    verb = FAILED_VERB.get(action, action)
    return f"Could not {verb}{' ' + what if what else ''}: {message}"
