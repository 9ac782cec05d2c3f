"""get_tabs answered by `bua mcp` itself, from what the core pushes ahead (docs/architecture.md, "MCP lanes").

An MCP call that reaches the core crosses two processes (client → `bua mcp` → core); the cheapest call needs
neither the core's round trip nor the browser's. So the core pushes each lane the get_tabs output it would give
now, `{kind: "lane_tabs", output}` (`output` None when only the core can answer: no trusted tab mirror, no
browser, the lane stopped), whenever it changes; `bua mcp` answers a bare `get_tabs` from it (app/mcp/server.py)
and tells the core, `{kind: "lane_seen"}`. The core then runs that get_tabs through the pool as if asked
(app/core/lanes.py), before it reads the lane's next frame: the safety guard's data-flow memory sees what the
model saw, and the board gets the milestone.

Ordering: the push is written while the bridge applies the extension's tab_state frame (app/bridge/tab_mirror.py),
which the extension sends before the answer of the action that caused it; so on the lane's socket the push is
ahead of that action's lane_result, and open_tab then get_tabs shows the new tab.
"""

from __future__ import annotations

from typing import Any, Callable

from app.agent.tools.browser import output_of
from app.bridge.pool import BrowserBridgePool
from app.core.lane_ops import output_frame
from app.protocol.envelope import Response

GET_TABS: dict[str, Any] = {"type": "get_tabs"}
"""The only call `bua mcp` answers itself: get_tabs with no other field (anything else goes to the core)."""
_NOTHING_SENT = object()


class LaneTabs:
    """One lane's pushed get_tabs output, kept current from the pool's tab mirrors."""

    def __init__(self, pool: BrowserBridgePool, task_id: str, write: Callable[[dict[str, Any]], None],
                 answerable: Callable[[], bool], change_lists: bool) -> None:
        self._pool = pool
        self._task_id = task_id
        self._write = write
        self._answerable = answerable
        self._change_lists = change_lists
        self._sent: Any = _NOTHING_SENT
        self._unsubscribe = pool.subscribe_tabs(self.push)

    def output(self) -> dict[str, Any] | None:
        """The get_tabs output the core would give now, as it crosses the socket; None: ask the core."""
        bridge = self._pool.select()
        result = bridge.tabs.peek(self._task_id) if bridge is not None and self._answerable() else None
        if result is None:
            return None
        response = Response(id="pushed", ok=True, result=result)
        return output_frame(output_of(GET_TABS["type"], response, self._task_id, change_lists=self._change_lists))

    def push(self) -> None:
        output = self.output()
        if output == self._sent:
            return
        self._sent = output
        self._write({"v": 1, "kind": "lane_tabs", "output": output})

    def close(self) -> None:
        self._unsubscribe()
