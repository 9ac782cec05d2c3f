"""Running coroutines from Qt slots on the shared qasync loop, without losing their errors."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

_running: set[asyncio.Future[Any]] = set()


def spawn(coro: Awaitable[T], on_error: Callable[[BaseException], None] | None = None) -> asyncio.Future[T]:
    """Schedule `coro`; keep a reference until it ends; report an exception to `on_error` (or the log)."""
    task = asyncio.ensure_future(coro)
    _running.add(task)

    def done(finished: asyncio.Future[T]) -> None:
        _running.discard(finished)
        if finished.cancelled():
            return
        error = finished.exception()
        if error is None:
            return
        if on_error is not None:
            on_error(error)
        else:
            log.error("background task failed", exc_info=error)

    task.add_done_callback(done)
    return task


def pending() -> list[asyncio.Future[Any]]:
    return list(_running)


async def cancel_all() -> None:
    """Cancel everything spawned (at quit) and wait for it to unwind."""
    tasks = [t for t in _running if not t.done()]
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.gather(*tasks, return_exceptions=True)
