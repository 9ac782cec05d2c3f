"""BrowserBridgePool: the app's single entry point to every connected browser profile."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable

from app.bridge.abort import AbortSignal
from app.bridge.bridge import ACTION_MARGIN_S, DEFAULT_TIMEOUT_S, BrowserBridge
from app.bridge.file_hooks import FileHooks
from app.protocol.actions.registry import default_wait_ms
from app.protocol.envelope import Event, Response
from app.protocol.errors import ErrorCode

if TYPE_CHECKING:
    from app.safety.guard import SafetyGuard

log = logging.getLogger(__name__)

PoolListener = Callable[[BrowserBridge, Event], None]


class BrowserBridgePool:
    """One BrowserBridge per connected browser profile (keyed by the extension's profile_id)."""

    def __init__(self, timeout: float = DEFAULT_TIMEOUT_S) -> None:
        self.timeout = timeout
        self.safety: SafetyGuard | None = None
        """Set by the core: confirmations and the data-flow policy around every action (app/safety/guard.py)."""
        self.files = FileHooks()
        """Replaced by the core with one reading the person's allowed folders: upload checks, read_download's text."""
        self._bridges: list[BrowserBridge] = []
        self._listeners: list[PoolListener] = []
        self._changed = asyncio.Event()

    # -- membership -------------------------------------------------------
    def add(self, bridge: BrowserBridge) -> None:
        self._bridges.append(bridge)
        self._notify()

    def remove(self, bridge: BrowserBridge, reason: str) -> None:
        bridge.close(reason)
        if bridge in self._bridges:
            self._bridges.remove(bridge)
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def bridges(self) -> list[BrowserBridge]:
        """Connected bridges that said hello, newest first."""
        return [b for b in reversed(self._bridges) if b.ready.is_set() and not b.closed]

    def subscribe(self, listener: PoolListener) -> Callable[[], None]:
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def dispatch_event(self, bridge: BrowserBridge, event: Event) -> None:
        if event.type == "hello":
            self._replace_same_profile(bridge)
            self._notify()
        for listener in list(self._listeners):
            try:
                listener(bridge, event)
            except Exception:  # a broken listener must not break the pipe
                log.exception("event listener failed")

    def _replace_same_profile(self, bridge: BrowserBridge) -> None:
        """A reconnecting profile supersedes its old connection."""
        for other in list(self._bridges):
            if other is not bridge and other.info.profile_id == bridge.info.profile_id:
                self.remove(other, "superseded by a new connection from the same profile")

    async def wait_for_bridge(self, timeout: float, *, exclude: BrowserBridge | None = None) -> BrowserBridge:
        """The newest ready bridge (other than `exclude`), waiting up to `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            ready = [b for b in self.bridges if b is not exclude]
            if ready:
                return ready[0]
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError("no browser connected")
            changed = self._changed
            try:
                await asyncio.wait_for(changed.wait(), remaining)
            except TimeoutError:
                pass

    def select(self, browser: str | None = None) -> BrowserBridge | None:
        for bridge in self.bridges:
            if browser is None or browser in (bridge.info.profile_id, bridge.info.browser):
                return bridge
        return None

    # -- requests ---------------------------------------------------------
    async def request(
        self,
        action: Any,
        task_id: str,
        abort: AbortSignal | None = None,
        timeout: float | None = None,
        browser: str | None = None,
        label: str | None = None,
    ) -> Response:
        bridge = self.select(browser)
        if bridge is None:
            return Response.failure(
                "r0", ErrorCode.EXTENSION_DISCONNECTED,
                "no browser is connected to bua: start Chrome with the bua extension loaded "
                "(`bua install`, then Load unpacked), or run `bua browser`",
            )
        if timeout is None:
            timeout = self.deadline_for(action)
        action = await self.files.before(action)
        if isinstance(action, Response):
            return action
        if self.safety is None:
            return await self.files.after(action, await bridge.request(action, task_id, abort, timeout, label))
        chosen, wait = bridge, timeout

        async def send(act: Any, approval: str | None) -> Response:
            return await chosen.request(act, task_id, abort, wait, label, approval=approval)
        return await self.files.after(action, await self.safety.request(send, action, task_id, abort))

    def deadline_for(self, action: Any) -> float:
        """How long the app waits for an action's answer: longer than the extension's own wait for it (the
        action's `timeout_ms`, or its declared default when left out) by a margin, so that the extension's
        answer — with what it saw — arrives before the app gives up."""
        waits = action.get("timeout_ms") if isinstance(action, dict) else None
        if not isinstance(waits, int):
            waits = default_wait_ms(action.get("type") if isinstance(action, dict) else None)
        return max(self.timeout, waits / 1000 + ACTION_MARGIN_S) if isinstance(waits, int) else self.timeout

    def note_task_words(self, task_id: str, text: str) -> None:
        """The person's own words for a task (exempt from the data-flow check)."""
        if self.safety is not None:
            self.safety.note_task_words(task_id, text)

    def status(self) -> list[dict[str, Any]]:
        return [
            {
                "profile_id": b.info.profile_id,
                "browser": b.info.browser,
                "extension_version": b.info.extension_version,
                "host_pid": b.info.host_pid,
                "pending": b.pending_count,
            }
            for b in self.bridges
        ]

    def close_all(self, reason: str) -> None:
        for bridge in list(self._bridges):
            self.remove(bridge, reason)
