"""What the model sees of a browser result: every page-derived string inside the task's boundary.

Which strings are the page's is declared, never recognised: each action declares its result's shape
(`ActionSpec.result`, app/protocol/actions/shapes.py), every error shares one (shapes.ERROR: an error that quotes
the page lists the quoted text in `page_text`), and a key no declaration names counts as page text. The walk is
app.protocol.page_data's, the same one the data-flow memory reads. Each page string is neutralised (boundary and
tool-result look-alikes defused), its lines that address the agent are flagged, and it is wrapped in
⟦page-data TOKEN⟧…⟦/page-data TOKEN⟧ with the task's random token; a quote inside an error's message is wrapped
where it stands. URLs are neutralised but not wrapped (the model copies them into actions). The result says how
many lines were flagged and how many forgeries defused.

The data itself stays raw (the person's task card, milestones and the UI read it); marking happens when the model's
view is rendered (app.agent.results, app.mcp.results), the same for the built-in subagent and MCP clients.
"""

from __future__ import annotations

from typing import Any

from app.agent.page_text.boundary import neutralise, wrap
from app.agent.page_text.flagger import flag
from app.protocol.errors import STOPPED_DOWNLOAD_STEP, next_step_for
from app.protocol.page_data import PageDataVisitor


class _Marker(PageDataVisitor):
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


def mark_output(data: dict[str, Any], token: str) -> dict[str, Any]:
    """A copy of a browser tool output `{ok, action, result | error}` with its page-derived strings marked."""
    marker = _Marker(token)
    marked = marker.output(data)
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
    """An error with the next step bua knows for its code (app.protocol.errors.next_step_for): a model reads what to do
    at the moment it fails, instead of carrying a table of every error in each call's prompt."""
    guidance = next_step_for(str(error.get("code")))
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
