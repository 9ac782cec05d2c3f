"""The app's mirror of one browser's tab state, so that `get_tabs` is answered here instead of by a round trip
to the extension (docs/architecture.md, "Wire protocol"; the cheap call of issue 21).

The extension pushes the state `get_tabs` reads as `tab_state` events (extension/src/tabs/tab-feed.js): on each
connection one `full` frame, then numbered deltas, each the result of the same `chrome.tabs.query` get_tabs
runs, so the answer built here is the one the extension would give: the task's own tabs (its live sessions) in
query order with url, title, active and current, every other tab only counted. The extension sends the state
an action caused before that action's answer, so an answer never overtakes its tab changes.

The mirror answers only when it can be trusted: it has a full frame of this connection and every delta since
(a gap leaves it untrusted until the next full frame), and the task is not stopped (the extension answers a
stopped task's get_tabs with its own error). Otherwise `answer` says None and the request goes to the
extension. A mirror lives and dies with its connection (BrowserBridge): a host or service-worker restart is a
new connection, which starts empty.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger(__name__)


@dataclass
class TabRow:
    tab_id: int
    window_id: int
    url: str
    title: str
    active: bool
    task_id: str | None


def _row(data: Any) -> TabRow | None:
    if not isinstance(data, dict) or not isinstance(data.get("tab_id"), int):
        return None
    task = data.get("task_id")
    window = data.get("window_id")
    return TabRow(data["tab_id"], window if isinstance(window, int) else -1, str(data.get("url") or ""),
                  str(data.get("title") or ""), bool(data.get("active")), task if isinstance(task, str) else None)


class TabMirror:
    def __init__(self, on_change: Callable[[], None] = lambda: None) -> None:
        self._on_change = on_change
        """Told after each frame and when the mirror stops being trusted (the pool tells the lanes)."""
        self.trusted = False
        self._seq = 0
        self._rows: dict[int, TabRow] = {}
        self._order: list[int] = []
        self._unnamed = 0
        self._current: dict[str, int] = {}
        self._stopped: frozenset[str] = frozenset()
        self.answered = 0
        """How many get_tabs this mirror answered (the rest went to the extension)."""

    def apply(self, data: dict[str, Any]) -> None:
        """One `tab_state` frame. A full frame replaces everything; a delta must follow the last frame seen."""
        seq = data.get("seq")
        full = data.get("full") is True
        if not isinstance(seq, int) or (not full and (not self.trusted or seq != self._seq + 1)):
            if self.trusted:
                log.warning("tab_state %r after %d: the mirror waits for a full frame; get_tabs asks the extension",
                            seq, self._seq)
            self.distrust()
            return
        if full:
            self._rows, self._order, self._unnamed, self._current, self._stopped = {}, [], 0, {}, frozenset()
        for raw in data.get("tabs") or []:
            row = _row(raw)
            if row is not None:
                self._rows[row.tab_id] = row
        order = data.get("order")
        if isinstance(order, list):
            self._order = [i for i in order if isinstance(i, int) and i in self._rows]
            kept = set(self._order)
            self._rows = {i: r for i, r in self._rows.items() if i in kept}
        if isinstance(data.get("unnamed"), int):
            self._unnamed = data["unnamed"]
        current = data.get("current")
        if isinstance(current, dict):
            self._current = {str(k): v for k, v in current.items() if isinstance(v, int)}
        stopped = data.get("stopped")
        if isinstance(stopped, list):
            self._stopped = frozenset(str(t) for t in stopped)
        self._seq = seq
        self.trusted = True
        self._on_change()

    def distrust(self) -> None:
        """Until the next full frame, only the extension answers (a gap; the connection closed)."""
        if self.trusted:
            self.trusted = False
            self._on_change()

    def answer(self, task_id: str) -> dict[str, Any] | None:
        """get_tabs' result for the task, as the extension builds it (extension/src/actions/get-tabs.js), or None
        when only the extension can answer (no trustworthy mirror, or the task is stopped)."""
        result = self.peek(task_id)
        if result is not None:
            self.answered += 1
        return result

    def peek(self, task_id: str) -> dict[str, Any] | None:
        """What `answer` would say, not counted as answered (what the lanes push to their MCP servers)."""
        if not self.trusted or task_id in self._stopped:
            return None
        current = self._current.get(task_id)
        own = [self._rows[i] for i in self._order if self._rows[i].task_id == task_id]
        return {
            "tabs": [{"tab_id": r.tab_id, "window_id": r.window_id, "url": r.url, "title": r.title,
                      "active": r.active, "in_task": True, "current": r.tab_id == current} for r in own],
            "other_tabs": len(self._order) + self._unnamed - len(own),
        }
