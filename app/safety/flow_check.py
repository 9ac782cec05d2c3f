"""The data-flow check of an action before it goes out, and what the task saw after it answered
(docs/architecture.md, "Safety"). What an action carries is read from its declaration
(app.protocol.actions.spec.Carries: typed text, keys, a URL, a script), never its name:

- typed text and the characters keys type are checked against the site the typing lands on, joined to what the
  task typed there just before (app.safety.flows.typing_flow); a paste chord types what the task last copied;
- a URL is checked wherever it points; a script for the data it holds and the other sites it can send to.

After an action, every page-derived string of its result or error, as its declaration says (app.protocol.
page_data), joins the task's data-flow memory (app.safety.dataflow) under the site that showed it (a frame of
another origin's text under the frame's site, `own_text`), and a copy's
declared clipboard result is what a later paste types. Asking the person is not done here: app.safety.held_actions.
"""

from __future__ import annotations

from collections import Counter

from app.protocol.actions import ActionModel
from app.protocol.actions.carriers import carried_strings
from app.protocol.actions.spec import Carries
from app.protocol.envelope import ErrorBody
from app.protocol.page_data import PageData, page_data
from app.safety.dataflow import DataFlow, Flow
from app.safety.flows import KeyChord, TypedTails, key_chord, key_text, script_flow, typing_flow
from app.safety.sites import site_of


def own_text(texts: list[str], framed: list[tuple[str, str]]) -> str:
    """The page's own text: its strings without the lines that frames of other origins show (those are their
    sites', `Part.FRAMED`), so a request to a frame's site carrying what the frame showed is that site's own data,
    and what a frame showed is never the page's. Each frame line takes out one line that says it, no more: the
    page's own line that reads the same as a frame's (a bare "Pay", a reference both show) stays the page's."""
    left = Counter(line.strip() for _, text in framed for line in text.splitlines() if line.strip())
    joined = "\n".join(texts)
    if not left:
        return joined
    kept: list[str] = []
    for line in joined.splitlines():
        if left[line.strip()] > 0:
            left[line.strip()] -= 1
        else:
            kept.append(line)
    return "\n".join(kept)


class FlowCheck:
    def __init__(self) -> None:
        self.memory = DataFlow()
        """What each task saw, by site (the network hold checks the page's own requests against it too)."""
        self._tails = TypedTails()
        self._clipboard: dict[str, str] = {}
        """Per task: what its last copy put on the clipboard (a paste types it)."""

    def note_task_words(self, task_id: str, text: str) -> None:
        self.memory.note_task_words(task_id, text)

    def flow(self, task_id: str, action: ActionModel, dest: str | None) -> Flow | None:
        """The data this action's declared carriers would take to another site; `dest`: where typing lands."""
        typed = self._typed_texts(task_id, action)
        if typed and dest and (flow := typing_flow(self.memory, self._tails, task_id, typed, dest)) is not None:
            return flow
        for url in carried_strings(action, Carries.URL):
            if (flow := self.memory.check_url(task_id, url)) is not None:
                return flow
        for script in carried_strings(action, Carries.SCRIPT):
            if (flow := script_flow(self.memory, task_id, script, dest or "")) is not None:
                return flow
        return None

    def clipboard_of(self, task_id: str) -> str:
        """What the task's last copy chord put on the clipboard (the page may have written it since: a paste is
        judged again by what the clipboard holds then, app.safety.guard)."""
        return self._clipboard.get(task_id, "")

    def pasted_flow(self, task_id: str, pasted: str, dest: str) -> Flow | None:
        """The data a paste of `pasted` (what the clipboard holds at paste time, read by the extension) would
        take to `dest`'s site, as typed text there."""
        return typing_flow(self.memory, self._tails, task_id, [pasted], dest)

    def _typed_texts(self, task_id: str, action: ActionModel) -> list[str]:
        """What the action types into the page: its typed-text fields, the characters its keys type, and for a
        paste chord what the task last copied."""
        texts = carried_strings(action, Carries.TYPED_TEXT)
        for key in carried_strings(action, Carries.KEYS):
            pasted = self._clipboard.get(task_id, "") if key_chord(key) == KeyChord.PASTE else ""
            texts += [t for t in (key_text(key), pasted) if t]
        return texts

    def typed(self, task_id: str, action: ActionModel, dests: list[str]) -> None:
        """What a successful action typed joins the tail of each site the tab may be showing (a later piece is
        checked joined to it). Every candidate, not the first: when the sessions table still shows the previous
        page, a tail kept only under that site let a secret typed in pieces on the new one pass (seen once in a
        full CI run)."""
        typed = "".join(carried_strings(action, Carries.TYPED_TEXT))
        keys = carried_strings(action, Carries.KEYS)
        for site in dict.fromkeys(site_of(d) for d in dests):
            if typed:
                self._tails.add(task_id, site, typed)
            for key in keys:
                if key_chord(key) == KeyChord.PASTE:
                    self._tails.add(task_id, site, self._clipboard.get(task_id, ""))
                else:
                    self._tails.key(task_id, site, key)

    def saw_result(self, task_id: str, action: ActionModel, result: dict[str, object], source: str) -> None:
        """The page text of a result, shown by `source`'s site; a copy's clipboard text is what a paste types."""
        seen = page_data({"action": action.type_name, "result": result})
        self._remember(task_id, seen, source)
        if seen.copied:
            self._clipboard[task_id] = seen.copied[-1]

    def saw_error(self, task_id: str, action: ActionModel, error: ErrorBody, source: str | None) -> None:
        """An error can quote the page too (an element's text, candidates' names, a thrown exception)."""
        self._remember(task_id, page_data({"action": action.type_name,
                                           "error": error.model_dump(mode="json", exclude_none=True)}), source)

    def _remember(self, task_id: str, seen: PageData, source: str | None) -> None:
        """The page's own text under `source`'s site, and what frames of other origins showed under theirs."""
        if seen.texts and source:
            self.memory.observe(task_id, source, own_text(seen.texts, seen.framed))
        for frame_url, text in seen.framed:
            self.memory.observe(task_id, frame_url, text)

    def forget(self, task_id: str) -> None:
        self.memory.forget(task_id)
        self._tails.forget(task_id)
        self._clipboard.pop(task_id, None)
