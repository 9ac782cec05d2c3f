"""What every action declares besides its fields: how the model is taught it, how a person reads it, and the
facts the rest of bua derives its behaviour from (docs/architecture.md, "Adding an action").

An action is one module in this package: a pydantic model with a `type` literal and a `spec` class variable.
The union, the registry, the tool schema and description, the prompt's action table, the milestone lines and
the extension's generated lists (`extension/src/generated/protocol.js`) are all derived from these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Literal

from app.protocol.actions.shapes import Shape

Raw = dict[str, Any]
"""The action as the model sent it."""
Result = dict[str, Any]
"""The extension's result for it."""
SensitiveBy = Literal["pointer", "typing", "fields", "key", "script"]
"""How the safety checks read an action's real effect before it runs (extension/src/safety/confirmations.js):
`pointer` — the control under its targets (uid, selector or point; a drag's drop target too), as a click;
`typing` — a field it types into: choosing a <select> option, or submitting when `submit` is set;
`fields` — a fill's fields: submitting through the first field's form when `submit` is set;
`key` — the focused control a key reaches (Enter submits, Space presses);
`script` — the page as a whole: every sensitive control a script could reach."""

ChangeList = Literal["on_dom_change", "on_success"]
"""When an action's result carries the page's change list (extension/src/extract/action-changes.js), computed only
when the task has extracted the tab before: `on_dom_change` — when its effects saw the DOM change in the same
document (an input action); `on_success` — whenever it succeeded (a wait: what it waited for is what changed)."""


class Carries(StrEnum):
    """What an action's field carries into the page or the person's machine, as field metadata:
    `text: Annotated[str, Field(...), Carries.TYPED_TEXT]`. The safety checks (app/safety/flow_check.py, flows.py)
    and the app's file hooks (app/bridge/file_hooks.py) read these, never an action's name
    (app.protocol.actions.carriers reads them out of a raw action)."""

    TYPED_TEXT = "typed_text"
    """Text typed into the page where the action lands: data-flow checked against that page's site."""
    KEYS = "keys"
    """A key or chord: a printable key types its character, a paste chord types what the task copied."""
    URL = "url"
    """A URL the action opens: data-flow checked against the URL's site, wherever it is."""
    SCRIPT = "script"
    """JavaScript run in the page: checked for data it carries and for URLs of other sites it can send to."""
    FILE_PATHS = "file_paths"
    """Paths on the person's disk: only under the folders they allowed, resolved before the request goes out."""
    FORM_FIELDS = "form_fields"
    """The fields of one form ({target, value} each; the values declare their own carrier): the form they are in is
    the form the action submits."""
    SUBMITS = "submits"
    """A flag: when true the action submits the form it types into (the last of its form fields' form): the
    confirmation reads that form as a submit (extension/src/safety/declared-effect.js)."""


@dataclass(frozen=True)
class ActionSpec:
    guide: str
    """The prompt line after the action's signature: what it does and when to use it."""
    done: Callable[[Raw, Result], str]
    """The milestone a person reads when it succeeded ("Clicked “View” — went to …")."""
    failed: str
    """The verb phrase of a failure's milestone: "Could not <failed> <subject>: <message>"."""
    failed_subject: Callable[[Raw], str] | None = None
    """What the failure names after the verb (a URL, a key); none by default."""
    asks: str | None = None
    """How a confirmation card names it when it waits for the person ("Type and submit"); else from `failed`."""
    signature: str | None = None
    """The input as the prompt shows it (`{url, tab_id?}`); derived from the fields when not given."""
    rank: int = 100
    """Order in the prompt's action table and the tool's enum (lower first)."""
    may_navigate: bool = False
    """It can move its tab to another URL: the extension re-checks the blocklist after it."""
    needs_input_focus: bool = False
    """It sends input as a person would: its tab is brought to the front of the bua window first."""
    presses: bool = False
    """It presses a button where its pointer arrives (a click, a drag's grab): when hover changed what is under the
    pointer on the way, it is refused rather than pressing something else; a pointer action that does not press
    has happened anyway and only says what changed (extension/src/input/aim.js `arrive`)."""
    opens_session: bool = False
    """It opens (or takes) a tab for the task and starts a session on it; its `url` is checked first."""
    needs_tab: bool = True
    """It works on one of the task's tabs (false: it works on the browser as a whole)."""
    read_only: bool = False
    """It changes nothing a person could notice (MCP's readOnlyHint)."""
    reads_page: bool = False
    """Its result carries what it read from its page though it may change it (a script's value): the session gate
    checks where its tab is when it read, as for a read-only action (extension/src/sessions/session-gate.js)."""
    closes_tab: bool = False
    """It closes its tab: the tab's session ends (closed by the agent) before it runs, and none is checked after."""
    cut_when_superseded: bool = False
    """Its result is a read that a later one of the same action replaces: once a newer one is in the conversation,
    each page-text string of the older result (by `result`) is cut to its first characters
    (app/agent/tools/browser_compact.py). Screenshots are dropped when superseded, whatever the action."""
    sensitive_by: SensitiveBy | None = None
    """It can pay, send, delete or change an account, depending on what it reaches: how the safety checks read
    that (None: it cannot, and is never checked)."""

    result: Shape = field(default_factory=dict)
    """What each key of its result is (app/protocol/actions/shapes.py); a key left out is page text."""
    change_list: ChangeList | None = None
    """When its result carries the page's change list (ChangeList; None: never). Its `result` shape then declares
    `changes` (shapes.INPUT does); the extension wraps its handler from this flag (extension/src/actions/index.js)."""
    answers_from_disk: bool = False
    """The extension answers where a file of the task is on disk (`path`, `mime`); the app answers with the file's
    text instead (app/bridge/file_hooks.py), since the extension cannot read the disk."""
    answer_budget: str | None = None
    """The field that caps how many characters its answer holds (an int, or None for the default), for a part of
    bua that builds the answer itself (the file hooks): declared here so that no hook knows a field's name."""

    @property
    def may_be_sensitive(self) -> bool:
        return self.sensitive_by is not None

    def asking(self) -> str:
        """The confirmation card's name for the action."""
        return self.asks or self.failed[:1].upper() + self.failed[1:]

    def flags(self) -> dict[str, bool | str | None]:
        """The facts the extension needs, as generated into `extension/src/generated/protocol.js`."""
        return {
            "may_navigate": self.may_navigate,
            "needs_input_focus": self.needs_input_focus,
            "presses": self.presses,
            "opens_session": self.opens_session,
            "needs_tab": self.needs_tab,
            "read_only": self.read_only,
            "reads_page": self.read_only or self.reads_page,
            "closes_tab": self.closes_tab,
            "says_navigated": "navigated" in self.result,
            "may_be_sensitive": self.may_be_sensitive,
            "sensitive_by": self.sensitive_by,
            "change_list": self.change_list,
        }
