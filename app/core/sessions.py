"""The app's live sessions table, fed by the extension's session events (the extension enforces; we show)."""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable
from urllib.parse import urlsplit

from app.bridge.bridge import BrowserBridge
from app.events import Listeners, SessionsEvent, SessionsListener
from app.protocol.envelope import Event

DEFAULT_IDLE_S = 300
"""Sessions end when the person has been idle this long (Settings → End sessions when idle), unless changed: the
extension gets it at every connect, so what Settings shows is what is in force before anyone saves it."""


@dataclass
class SessionRow:
    task_id: str
    domain: str
    tab_id: int
    profile_id: str | None
    title: str = ""
    url: str = ""
    started: float = field(default_factory=time.time)
    last_action: float = field(default_factory=time.time)
    last_action_type: str = ""
    """The type of the last action on the tab ("click"), with " (failed)" when it did not succeed."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _row_from(data: dict[str, Any], profile: str | None) -> SessionRow:
    """A row from the extension's session data (a session_started event, or hello's list)."""
    url = str(data.get("url", ""))
    return SessionRow(str(data.get("task_id", "")), str(data.get("domain") or urlsplit(url).hostname or ""),
                      data["tab_id"], profile, str(data.get("title", "")), url)


class SessionsTable:
    def __init__(self) -> None:
        self._rows: dict[tuple[str | None, int], SessionRow] = {}
        self._listeners: Listeners[SessionsEvent, dict[str, Any]] = Listeners()
        self.ended: list[dict[str, Any]] = []

    def subscribe(self, listener: SessionsListener) -> Callable[[], None]:
        return self._listeners.subscribe(listener)

    def rows(self) -> list[dict[str, Any]]:
        return [r.as_dict() for r in sorted(self._rows.values(), key=lambda r: r.started)]

    def for_task(self, task_id: str) -> list[SessionRow]:
        return [r for r in self._rows.values() if r.task_id == task_id]

    def _emit(self, kind: SessionsEvent, payload: dict[str, Any]) -> None:
        self._listeners.notify(kind, payload)

    def on_event(self, bridge: BrowserBridge, event: Event) -> None:
        data = event.data
        profile = bridge.info.profile_id
        tab_id = data.get("tab_id")
        if event.type == "hello":
            self._replace_profile(profile, data.get("sessions") or [])
            return
        if not isinstance(tab_id, int):
            return
        key = (profile, tab_id)
        if event.type == "session_started":
            row = _row_from(data, profile)
            self._rows[key] = row
            self._emit("session_started", row.as_dict())
        elif event.type == "navigated" and key in self._rows:
            row = self._rows[key]
            row.url = str(data.get("url", row.url))
            row.title = str(data.get("title", row.title))
            row.domain = str(data.get("domain") or urlsplit(row.url).hostname or row.domain)
            row.last_action = time.time()
            self._emit("session_updated", row.as_dict())
        elif event.type == "action_done" and key in self._rows:
            row = self._rows[key]
            row.last_action = time.time()
            row.last_action_type = str(data.get("action", "")) + ("" if data.get("ok", True) else " (failed)")
            self._emit("session_updated", row.as_dict())
        elif event.type in ("session_ended", "tab_closed"):
            gone = self._rows.pop(key, None)
            if gone is None and any(e.get("tab_id") == tab_id and e.get("task_id") == data.get("task_id")
                                    for e in self.ended[-10:]):
                return  # a closed tab sends both tab_closed and session_ended: the first one ended it
            ended = {**(gone.as_dict() if gone else {"task_id": data.get("task_id"), "tab_id": tab_id}),
                     "reason": data.get("reason", "tab_closed"), "ended": time.time()}
            self.ended = (self.ended + [ended])[-100:]
            self._emit("session_ended", ended)

    def _replace_profile(self, profile: str | None, live: list[dict[str, Any]]) -> None:
        """On hello the extension lists the sessions it still holds (they survive a host restart)."""
        for key in [k for k in self._rows if k[0] == profile]:
            del self._rows[key]
        for data in live:
            if isinstance(data.get("tab_id"), int):
                row = _row_from(data, profile)
                row.started = float(data.get("started", row.started))
                self._rows[(profile, data["tab_id"])] = row
        self._emit("sessions_synced", {"profile_id": profile})
