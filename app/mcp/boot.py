"""Find the core for this BUA_HOME, or start one inside the MCP server process (no window).

The lane always talks to the core over the local socket, also when the core runs in this process: one path,
and other MCP clients can share the core this one started.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from native_host.paths import socket_address, token_path

if TYPE_CHECKING:
    from app.core.service import Core


@dataclass
class CoreHandle:
    home: Path
    core: "Core | None" = None
    """The core this process started, or None when a tray app or `bua serve` already ran one."""

    @property
    def started_here(self) -> bool:
        return self.core is not None

    async def close(self) -> None:
        if self.core is not None:
            await self.core.close()


def _core_answers(home: Path) -> bool:
    """A live core: its token exists and its socket accepts a connection (a stale socket file does not).
    Windows has no cheap probe for a named pipe: there, starting a core finds out (AlreadyRunning)."""
    if sys.platform == "win32" or not token_path(home).exists():
        return False
    from app.bridge.server import _socket_in_use

    return _socket_in_use(socket_address(home))


STARTED_NOTE = ("No bua app or `bua serve` was running, so this MCP server started bua's core itself, without "
                "a window. It stops when this MCP client disconnects; the person can run the bua tray app (or "
                "`bua serve`) to keep one running with Stop and the popup at hand. Chrome with the bua extension "
                "connects to it by itself.")


async def find_or_start_core(home: Path) -> CoreHandle:
    if _core_answers(home):
        return CoreHandle(home)
    from app.bridge.server import AlreadyRunning
    from app.core.service import Core

    core = Core(home)
    try:
        await core.start()
    except AlreadyRunning:  # another `bua mcp` started one a moment ago
        core.store.close()
        return CoreHandle(home)
    print(f"bua mcp: {STARTED_NOTE} (BUA_HOME {home})", file=sys.stderr, flush=True)
    return CoreHandle(home, core)
