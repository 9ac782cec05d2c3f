"""Runs the app core (bridge server + pool) on its own asyncio loop in a background thread.

Synchronous callers (tests, the bench, `bua demo`) submit coroutines with `call()`; this keeps a long-lived core
independent of the caller's event loop.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any, Callable, Coroutine, TypeVar

from app.bridge.pool import BrowserBridgePool
from app.core.service import Core

T = TypeVar("T")


class CoreThread:
    def __init__(self, home: Path, request_timeout: float = 30.0) -> None:
        self.home = home
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="bua-core", daemon=True)
        self._thread.start()
        self.core: Core = self.call(self._start(home, request_timeout))

    @staticmethod
    async def _start(home: Path, request_timeout: float) -> Core:
        core = Core(home, request_timeout)
        await core.start()
        return core

    @property
    def pool(self) -> BrowserBridgePool:
        return self.core.pool

    def call(self, coro: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run a plain function on the core loop (for touching loop-bound state)."""
        async def wrapper() -> Any:
            return fn(*args)
        return self.call(wrapper())

    def stop(self) -> None:
        try:
            self.call(self.core.close(), timeout=10)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(5)
