"""What the model sees of a browser result: bua's own facts, then every page-derived string in one region inside
the task's boundary (app/agent/page_text/region.py has the layout).

Which strings are the page's is declared, never recognised: each action declares its result's shape
(`ActionSpec.result`, app/protocol/actions/shapes.py), every error shares one (shapes.ERROR: an error that quotes
the page lists the quoted text in `page_text`), and a key no declaration names counts as page text. The walk is
app.protocol.page_data's, the same one the data-flow memory reads. Each page string is neutralised (boundary and
tool-result look-alikes defused) and moves into the region under its key, and the lines that address the agent
are flagged across all of them, read as one text (a phrase spread over a find's matches is one phrase); a quote
inside an error's message leaves `{key}` where it stood. URLs are neutralised but stay with the facts (the model
copies them into actions). The facts say how many lines were flagged and forgeries defused.

The data itself stays raw (the person's task card, milestones and the UI read it); marking happens when the model's
view is rendered (app.agent.results, app.mcp.results), the same for the built-in subagent and MCP clients.
"""

from __future__ import annotations

import re
from typing import Any

from app.agent.page_text.boundary import neutralise
from app.agent.page_text.flagger import flag_together
from app.agent.page_text.invisible import drop_invisible
from app.agent.page_text.region import MOVED, MarkedView, facts_without, key_of, path_of
from app.protocol.actions.shapes import ERROR
from app.protocol.errors import STOPPED_DOWNLOAD_STEP, next_step_for
from app.protocol.page_data import QUOTES_KEY, PageDataVisitor, result_shape, without_framed


class _Marker(PageDataVisitor):
    def __init__(self) -> None:
        self.page: dict[str, str] = {}
        self.flagged = 0
        self.neutralised = 0

    def marked(self, value: str) -> str:
        """A page string neutralised; flagged later, with the output's other page strings (`flag_page`)."""
        clean, defused = neutralise(drop_invisible(value))
        self.neutralised += defused
        return clean

    def flag_page(self) -> None:
        """Every page string of the output flagged as one text, so a phrase spread over several is read as one:
        the strings of one field of a list's items next to each other (every match's `name`, then every
        `context`), fields in the order the walk met them."""
        columns: dict[tuple[str | int, ...], list[str]] = {}
        for key in self.page:
            column = tuple("*" if isinstance(step, int) else step for step in path_of(key))
            columns.setdefault(column, []).append(key)
        keys = [key for column in columns.values() for key in column]
        flagged, self.flagged = flag_together([self.page[key] for key in keys])
        by_key = dict(zip(keys, flagged, strict=True))
        self.page = {key: by_key[key] for key in self.page}

    def text(self, value: str) -> str:
        self.page[key_of(self.path)] = self.marked(value)
        return MOVED  # type: ignore[no-any-return]  # taken out of the facts by facts_without

    def url(self, value: str) -> str:
        clean, defused = neutralise(value)
        self.neutralised += defused
        return clean

    def quoting(self, message: str, quotes: list[str]) -> str:
        """bua's words with `{key}` where each quote stood, the quotes in the region under the error's
        `page_text.N`; a message that does not hold each quote verbatim is page text as a whole."""
        if not quotes:
            return message
        if any(q not in message for q in quotes):
            return self.text(message)
        keys: dict[str, str] = {}
        for index, quote in enumerate(dict.fromkeys(quotes)):
            keys[quote] = key = key_of((*self.path[:-1], QUOTES_KEY, index))
            self.page[key] = self.marked(quote)
        pattern = re.compile("|".join(re.escape(q) for q in sorted(keys, key=len, reverse=True)))
        return pattern.sub(lambda m: "{" + keys[m.group(0)] + "}", message)


def mark_output(data: dict[str, Any], token: str) -> MarkedView:
    """A browser tool output `{ok, action, result | error}` as the model reads it: its facts and its page strings."""
    marker = _Marker()
    facts = facts_without(marker.output(data))
    facts = {} if facts is MOVED else facts
    marker.flag_page()
    if marker.flagged or marker.neutralised:
        summary = {"flagged_lines": marker.flagged, "neutralised_forgeries": marker.neutralised}
        target = facts.setdefault("result", {}) if isinstance(data.get("result"), dict) else facts
        target["page_safety"] = {k: v for k, v in summary.items() if v}
    return MarkedView(facts, token, marker.page)


_DEFAULT_EFFECTS: dict[str, Any] = {"navigated": False, "new_tabs": [], "nothing_changed": False, "dom_mutations": 0}
"""Effects that say nothing happened: left out of the model's view (absent means false, none or 0), which saves
~90 characters on every click, type, key and fill result the model reads."""

_EMPTY_OMITTED = frozenset({"elements", "text"})
"""An extract's parts that are often empty (a page with no controls, no text outside the markdown): left out of the
model's view when empty, as absent says the same."""

_HEADING = re.compile(r"#{1,6} (.+)")


def _title_said(result: dict[str, Any]) -> bool:
    """Whether a read page's title is one of its markdown's headings, word for word (most pages title themselves
    by their main heading): then the markdown says it, and the view says it once."""
    title, markdown = result.get("title"), result.get("markdown")
    if not isinstance(title, str) or not isinstance(markdown, str) or not title.strip():
        return False
    said = " ".join(title.split())
    return any((m := _HEADING.fullmatch(line.strip())) and " ".join(m.group(1).split()) == said
               for line in markdown.splitlines())


CANDIDATES_STEP = "Or use the uid of the `candidates` entry that is the element you meant (no extract needed)."
"""Added to the next step of an error that carries candidates (a stale or missing uid's current look-alikes)."""


def with_next_step(error: dict[str, Any]) -> dict[str, Any]:
    """An error with the next step bua knows for its code (app.protocol.errors.next_step_for): a model reads what to do
    at the moment it fails, instead of carrying a table of every error in each call's prompt."""
    guidance = next_step_for(str(error.get("code")))
    if not guidance or "next_step" in error:
        return error
    if error.get("candidates") and "candidate" not in guidance:  # each fact once: not when the step says it
        guidance = f"{guidance} {CANDIDATES_STEP}"
    return {**error, "next_step": guidance}


def with_download_step(effects: dict[str, Any]) -> dict[str, Any]:
    """Effects whose download bua stopped (an executable the person did not approve) carry the next step: a
    hand-off, since the model cannot fetch it any other way."""
    download = effects.get("download")
    if isinstance(download, dict) and download.get("stopped"):
        return {**effects, "download": {**download, "next_step": STOPPED_DOWNLOAD_STEP}}
    return effects


def model_view(data: dict[str, Any], token: str | None) -> MarkedView:
    """What a model (the subagent's or an MCP client's) sees of a browser output: an error's next step, effects
    that say nothing happened left out, and page-derived strings in the region (when the output has a boundary)."""
    view = trimmed(data)
    return mark_output(view, token) if token else MarkedView(view)


def trimmed(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of an output with its error's next step, and without what absent says as well or the markdown says
    already (a title that is one of its headings)."""
    view = dict(data)
    if isinstance(view.get("error"), dict):
        view["error"] = with_next_step(without_framed(view["error"], ERROR))
    result = view.get("result")
    if isinstance(result, dict):
        said_title = _title_said(result)
        result = {k: v for k, v in without_framed(result, result_shape(view.get("action"))).items()
                  if not (k in _EMPTY_OMITTED and v == "") and not (k == "title" and said_title)}
        if isinstance(result.get("effects"), dict):
            result["effects"] = with_download_step(
                {k: v for k, v in result["effects"].items() if _DEFAULT_EFFECTS.get(k, ...) != v})
        view["result"] = result
    return view
