"""The confirmation broker: the core-level object that asks the person whether a held action may go on.

A `ConfirmationRequest` says what (the action), on which site, which element, why, and the task's own words.
`ask()` answers `allow_once`, `allow_task_site` or `deny`:
* while an app window is attached (`attach_ui`), the request is announced to the broker's listeners
  (`confirmation_asked`, then `confirmation_settled`) and waits for `answer()` from the task card, the popup or
  the tray notification, whichever the person uses first;
* with no app window (`bua serve`, an MCP client with no UI) it is denied at once, and the action answers
  `confirmation_required` (the model hands off with needs_user);
* no answer within the timeout (the `confirmation_timeout_s` setting, DEFAULT_TIMEOUT_S) is a deny;
* Stop (the request's abort) settles it as a deny at once.
`bua act` never asks a window: with `--confirm` the person approved on the command line, without it a sensitive
action is refused (`person_confirms`, set for that one command).
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any, Callable

from app.abort import AbortSignal

DEFAULT_TIMEOUT_S = 120.0
TIMEOUT_SETTING = "confirmation_timeout_s"
"""The setting that says how long a confirmation waits for the person before it is a deny."""

Listener = Callable[[str, dict[str, Any]], None]


class Decision(StrEnum):
    ALLOW_ONCE = "allow_once"
    ALLOW_TASK_SITE = "allow_task_site"
    DENY = "deny"


@dataclass(frozen=True)
class ConfirmationRequest:
    id: str
    task_id: str
    what: str
    """The action type (click, type, press_key, evaluate, navigate, …)."""
    site: str
    url: str
    element: str
    reason: str
    task_words: str
    """The task's own description, as the person gave it (or the agent summarised it)."""
    kind: str = "sensitive"
    """`sensitive` (the extension held it) or `data_flow` (one site's data about to reach another)."""
    quoted: str = ""
    """The page text `element` quotes (a data flow's piece), when it is not the whole of it."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


person_confirms: contextvars.ContextVar[bool | None] = contextvars.ContextVar("bua_person_confirms", default=None)
"""Set for the actions of one `bua act`: True with --confirm (approved on the command line), False without (refused);
None everywhere else (ask the window)."""


class ConfirmationBroker:
    _ids = itertools.count(1)

    def __init__(self, timeout_s: Callable[[], float] = lambda: DEFAULT_TIMEOUT_S) -> None:
        self._listeners: list[Listener] = []
        self._timeout_s = timeout_s
        self._uis = 0
        self._pending: dict[str, tuple[ConfirmationRequest, asyncio.Future[Decision]]] = {}

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _notify(self, kind: str, payload: dict[str, Any]) -> None:
        for listener in list(self._listeners):
            listener(kind, payload)

    def new_id(self) -> str:
        return f"q{next(self._ids)}"

    def attach_ui(self) -> Callable[[], None]:
        """An app window that shows confirmations is there; the returned function detaches it."""
        self._uis += 1
        detached = False

        def detach() -> None:
            nonlocal detached
            if not detached:
                detached = True
                self._uis -= 1
        return detach

    @property
    def has_ui(self) -> bool:
        return self._uis > 0

    def pending(self) -> list[ConfirmationRequest]:
        return [request for request, _ in self._pending.values()]

    async def ask(self, request: ConfirmationRequest, abort: AbortSignal | None = None) -> tuple[Decision, str]:
        """The person's decision and, for a deny, why (shown to the model)."""
        confirmed = person_confirms.get()
        if confirmed is not None:
            return (Decision.ALLOW_ONCE, "") if confirmed else (
                Decision.DENY, "`bua act` runs a sensitive action only when the person adds --confirm")
        if not self.has_ui:
            return Decision.DENY, ("no bua window is open to ask the person in (bua serve, or an MCP client "
                                   "without the app)")
        future: asyncio.Future[Decision] = asyncio.get_running_loop().create_future()
        self._pending[request.id] = (request, future)
        remove_abort = abort.add_callback(lambda reason: self.answer(request.id, Decision.DENY)) \
            if abort is not None else (lambda: None)
        self._notify("confirmation_asked", request.as_dict())
        timeout = self._timeout_s()
        outcome = ""
        try:
            decision = await asyncio.wait_for(asyncio.shield(future), timeout)
            why = "" if decision != Decision.DENY else "the person denied it"
        except TimeoutError:
            decision, why, outcome = Decision.DENY, f"the person did not answer within {timeout:g} s", "timeout"
        finally:
            remove_abort()
            self._pending.pop(request.id, None)
        if abort is not None and abort.aborted:
            why, outcome = abort.reason or "stopped", "stopped"
        # `decision` for the windows: the answer, or "timeout" / "stopped" when nobody answered.
        self._notify("confirmation_settled", {"id": request.id, "task_id": request.task_id,
                                              "decision": outcome or decision.value})
        return decision, why

    def answer(self, request_id: str, decision: Decision | str) -> bool:
        """The person's answer from any window; False when that request is no longer waiting."""
        entry = self._pending.get(request_id)
        if entry is None or entry[1].done():
            return False
        entry[1].set_result(Decision(decision))
        return True
