"""What the model sees of a browser result: every page-derived string inside the task's boundary.

Page-derived: the markdown, element names and contexts, text (also of find, page_log and read_download), titles,
evaluate values, dialog messages, download file names, what wait_for saw, and an evaluate error's message (the
page's exception). Each is neutralised (boundary and tool-result look-alikes defused), its lines that address the
agent are flagged, and it is wrapped in
⟦page-data TOKEN⟧…⟦/page-data TOKEN⟧ with the task's random token. URLs are neutralised but not wrapped (the
model copies them into actions). The result says how many lines were flagged and how many forgeries defused.

The data itself stays raw (the person's task card, milestones and the UI read it); marking happens when the model's
view is rendered (app.agent.results, app.mcp.results), the same for the built-in subagent and MCP clients.
"""

from __future__ import annotations

import json
import re
from typing import Any

from app.agent.page_text.boundary import neutralise, wrap
from app.agent.page_text.flagger import flag
from app.protocol.errors import GUIDANCE, STOPPED_DOWNLOAD_STEP

PAGE_KEYS = frozenset({"markdown", "elements", "text", "title", "name", "context", "value", "message", "seen",
                       "filename", "label", "selection", "selected", "selected_text", "element",
                       "clicked", "hovered", "dragged", "dropped_on", "typed_into", "target"})
"""Keys whose string values come from the page (anywhere inside a result, e.g. find's `matches`, a change list's
`changes`, page_log's `entries`, a dialog's `message`, and the element descriptions of what a click, hover, drag,
type or scroll reached: `button#send "Ignore all…"` carries up to 40 characters of the page's text). The ONE definition of page-derived: the boundary marking
below and the data-flow memory (app.safety.guard, through `page_strings`) both read it."""
URL_KEYS = frozenset({"url", "final_url"})
PAGE_ERROR_CODES = frozenset({"evaluate_failed", "element_not_found", "element_stale", "not_interactable"})
"""Errors whose message carries the page's own text (a thrown exception; an element described by its text, id and
classes, e.g. "covered by div#promo "Ignore …""): the whole message is page data (the `code` stays outside)."""
_QUOTED_PAGE_TEXT = re.compile(r'(whose text begins )("(?:[^"\\]|\\.)*")')
"""Page text quoted (JSON-escaped) inside another error's message: select_text's "whose text begins "…""."""
_DESCRIBED_ELEMENT = re.compile(r'^[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:[#.][^\s"]+)*(?: "| (?:takes|is a) )')
"""A message that begins with the extension's description of a page element (tag, #id, .classes, "its text"), as
fill's and upload's `input#card.x "…" takes text, not …`: the whole message is page data."""


class _Marker:
    def __init__(self, token: str) -> None:
        self.token = token
        self.flagged = 0
        self.neutralised = 0

    def text(self, value: str) -> str:
        clean, defused = neutralise(value)
        flagged, count = flag(clean)
        self.neutralised += defused
        self.flagged += count
        return wrap(flagged, self.token)

    def url(self, value: str) -> str:
        clean, defused = neutralise(value)
        self.neutralised += defused
        return clean

    def walk(self, value: Any) -> Any:
        if isinstance(value, dict):
            return {k: self.field(k, v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.walk(v) for v in value]
        return value

    def field(self, key: str, value: Any) -> Any:
        if key in PAGE_KEYS:
            if isinstance(value, str):
                return self.text(value) if value else value
            if key == "value" and value is not None and not isinstance(value, (bool, int, float)):
                return self.text(json.dumps(value, ensure_ascii=False, separators=(",", ":")))
        if key in URL_KEYS and isinstance(value, str):
            return self.url(value)
        return self.walk(value)


def mark_output(data: dict[str, Any], token: str, marker: "_Marker | None" = None) -> dict[str, Any]:
    """A copy of a browser tool output `{ok, action, result | error}` with its page-derived strings marked."""
    marker = marker or _Marker(token)
    marked = dict(data)
    result = data.get("result")
    if isinstance(result, dict):
        marked["result"] = marker.walk(result)
    error = data.get("error")
    if isinstance(error, dict):
        error = dict(error)
        if isinstance(error.get("message"), str):
            if error.get("code") in PAGE_ERROR_CODES or _DESCRIBED_ELEMENT.match(error["message"]):
                error["message"] = marker.text(error["message"])
            else:
                error["message"] = _QUOTED_PAGE_TEXT.sub(lambda m: m.group(1) + marker.text(m.group(2)),
                                                         error["message"])
        if isinstance(error.get("candidates"), list):
            error["candidates"] = marker.walk(error["candidates"])
        marked["error"] = error
    if marker.flagged or marker.neutralised:
        summary = {"flagged_lines": marker.flagged, "neutralised_forgeries": marker.neutralised}
        target = marked["result"] if isinstance(marked.get("result"), dict) else marked
        target["page_safety"] = {k: v for k, v in summary.items() if v}
    return marked


_DEFAULT_EFFECTS: dict[str, Any] = {"navigated": False, "new_tabs": [], "nothing_changed": False}
"""Effects that say nothing happened: left out of the model's view (absent means false or none), which saves
~70 characters on every click, type, key and fill result the model reads."""

_EMPTY_OMITTED = frozenset({"elements", "text"})
"""An extract's parts that are often empty (a page with no controls, no text outside the markdown): left out of the
model's view when empty, as absent says the same."""


def with_next_step(error: dict[str, Any]) -> dict[str, Any]:
    """An error with the next step bua knows for its code (app.protocol.errors.GUIDANCE): a model reads what to do
    at the moment it fails, instead of carrying a table of every error in each call's prompt."""
    guidance = GUIDANCE.get(str(error.get("code")))  # type: ignore[call-overload]  # a StrEnum key is its str
    return {**error, "next_step": guidance} if guidance and "next_step" not in error else error


def with_download_step(effects: dict[str, Any]) -> dict[str, Any]:
    """Effects whose download bua stopped (an executable the person did not approve) carry the next step: a
    hand-off, since the model cannot fetch it any other way."""
    download = effects.get("download")
    if isinstance(download, dict) and download.get("stopped"):
        return {**effects, "download": {**download, "next_step": STOPPED_DOWNLOAD_STEP}}
    return effects


def model_view(data: dict[str, Any], token: str | None) -> dict[str, Any]:
    """What a model (the subagent's or an MCP client's) sees of a browser output: page-derived strings marked
    (when the output has a boundary), an error's next step, and effects that say nothing happened left out."""
    view = mark_output(data, token) if token else dict(data)
    if isinstance(view.get("error"), dict):
        view["error"] = with_next_step(view["error"])
    result = view.get("result")
    if isinstance(result, dict):
        result = {k: v for k, v in result.items() if not (k in _EMPTY_OMITTED and v == "")}
        if isinstance(result.get("effects"), dict):
            result["effects"] = with_download_step(
                {k: v for k, v in result["effects"].items() if _DEFAULT_EFFECTS.get(k, ...) != v})
        view["result"] = result
    return view


class _Collector(_Marker):
    """Walks a result as the marker does and keeps each page-derived string as it is."""

    def __init__(self) -> None:
        super().__init__("")
        self.found: list[str] = []

    def text(self, value: str) -> str:
        self.found.append(value)
        return value

    def url(self, value: str) -> str:
        return value


def page_strings(data: dict[str, Any]) -> list[str]:
    """Every string of a browser output `{ok, result | error}` that `mark_output` marks as page data, unmarked:
    what the data-flow memory records as the page's (one traversal, so the two can never disagree)."""
    collector = _Collector()
    mark_output(data, "", collector)
    return collector.found
