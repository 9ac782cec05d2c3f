"""A small abort signal (like the web's AbortSignal) for loops, model calls, questions to the person and bridge
requests.

It sits at the top of `app`, beside app.events, because every layer passes it down (the UI and the core create
it, the agent loop, the safety broker and the bridge wait on it) and it needs nothing but asyncio: in any one
layer the others would import upwards or sideways into it (the bridge and the safety checks must not depend on
the core, nor the agent on the bridge)."""

from __future__ import annotations

import asyncio
from typing import Callable

Callback = Callable[[str], object]
"""Called with the abort reason; what it returns is ignored."""


class AbortSignal:
    """Set once; callbacks run synchronously at abort time, so waiters settle at once."""

    def __init__(self) -> None:
        self._reason: str | None = None
        self._callbacks: list[Callback] = []

    @property
    def aborted(self) -> bool:
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        return self._reason

    def abort(self, reason: str = "aborted by caller") -> None:
        if self._reason is not None:
            return
        self._reason = reason
        callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(reason)

    def add_callback(self, callback: Callback) -> Callable[[], None]:
        """Register; returns a function that unregisters. Runs at once if already aborted."""
        if self._reason is not None:
            callback(self._reason)
            return lambda: None
        self._callbacks.append(callback)

        def remove() -> None:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

        return remove

    def child(self) -> "AbortSignal":
        """A signal aborted with this one (but which can also be aborted on its own)."""
        child = AbortSignal()
        remove = self.add_callback(child.abort)
        child.add_callback(lambda _reason: remove())
        return child

    async def wait(self) -> str:
        if self._reason is not None:
            return self._reason
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        def settle(reason: str) -> None:
            if not future.done():
                future.set_result(reason)

        remove = self.add_callback(settle)
        try:
            return await future
        finally:
            remove()
