"""Where each task's tabs are, as far as the app knows: the sessions table's URL (fed by the extension's session
events) and the last URL an action of the task reported for the tab. Either can lag behind the other (chrome.tabs
lags a navigation; a page can move on its own), so the data-flow check asks when either would carry data to another
site (app.safety.guard). Also which tab an action that names none works on: the task's current one, as the last
result that named a tab said."""

from __future__ import annotations

from typing import Any, Callable

TabUrl = Callable[[str, int], "str | None"]
"""The sessions table's URL of a task's tab (None: not in the table)."""


class TabUrls:
    def __init__(self, table: TabUrl) -> None:
        self._table = table
        self._current_tab: dict[str, int] = {}
        self._last_url: dict[tuple[str, int], str] = {}

    def urls_of(self, task_id: str, tab_id: int | None) -> list[str]:
        """What the app knows of the tab's URL (the task's current tab when `tab_id` is None): the sessions
        table's, then the last one an action reported; none for a tab it never heard of."""
        tab = tab_id if tab_id is not None else self._current_tab.get(task_id)
        if tab is None:
            return []
        known = [self._table(task_id, tab), self._last_url.get((task_id, tab))]
        return list(dict.fromkeys(u for u in known if u))

    def url_of(self, task_id: str, tab_id: int | None) -> str | None:
        urls = self.urls_of(task_id, tab_id)
        return urls[0] if urls else None

    def note_result(self, task_id: str, tab_id: int | None, result: dict[str, Any]) -> str | None:
        """Learn from a result of an action on `tab_id` (None: the current tab) which tab is current and where it
        is; answers the URL of the page the result came from (None: unknown)."""
        named = result.get("tab_id") if isinstance(result.get("tab_id"), int) else result.get("current_tab_id")
        tab: int | None
        if isinstance(named, int):
            tab = self._current_tab[task_id] = named
        else:
            tab = tab_id if tab_id is not None else self._current_tab.get(task_id)
        url = result.get("url") if isinstance(result.get("url"), str) else None
        if url and tab is not None:
            self._last_url[(task_id, tab)] = url
        return url or self.url_of(task_id, tab)

    def forget(self, task_id: str) -> None:
        self._current_tab.pop(task_id, None)
        for key in [k for k in self._last_url if k[0] == task_id]:
            del self._last_url[key]
