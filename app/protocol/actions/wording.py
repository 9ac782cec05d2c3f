"""Pieces of milestone wording shared by the declarations: how a person names an element, a wait's subject and
what an input action changed ("Clicked “View” — went to …")."""

from __future__ import annotations

import re

from app.protocol.actions.spec import Raw, Result

QUOTED = re.compile(r'"([^"]+)"')


def thing(handle: str) -> str:
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


def target(raw: Raw, result: Result | None = None, key: str = "") -> str:
    """The element an action named, preferring how the result described it (`result[key]`); a point whose
    element has no name is named by its coordinates."""
    named = thing(str((result or {}).get(key) or raw.get("uid") or raw.get("selector") or ""))
    point = raw.get("point")
    if named == "an element" and isinstance(point, dict):
        return f"the point ({round(float(point.get('x', 0)))}, {round(float(point.get('y', 0)))})"
    return named


def awaited(raw: Raw) -> str:
    """What a wait_for waited for: `the text “Saved”`, or the element it names."""
    return f"the text “{raw['text']}”" if raw.get("text") else target(raw)


def outcome(result: Result) -> str:
    """What an input action changed, as a milestone's tail (" — opened a new tab"); empty when unremarkable."""
    effects = result.get("effects") or {}
    download = effects.get("download") or {}
    if download.get("stopped"):
        return f" — bua stopped the download of {download.get('filename') or 'a file'}: an executable the person " \
               "did not approve"
    if download.get("state") == "complete":
        return f" — downloaded {download.get('filename') or 'a file'}"
    if effects.get("navigated") and not effects.get("same_document"):
        return f" — went to {effects.get('url', 'a new page')}"
    if effects.get("new_tabs"):
        return " — opened a new tab"
    if effects.get("dialog"):
        return f" — a {effects['dialog'].get('type', 'dialog')} dialog was answered"
    if effects.get("nothing_changed"):
        return " — nothing changed"
    return ""
