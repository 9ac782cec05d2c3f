"""BrowserBridgePool: the app's single entry point to every connected browser profile."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any, Callable

from app.abort import AbortSignal
from app.bridge.bridge import ACTION_MARGIN_S, DEFAULT_TIMEOUT_S, BrowserBridge
from app.bridge.file_hooks import FileHooks
from app.protocol.actions import ActionModel
from app.protocol.envelope import ErrorBody, Event, Response
from app.protocol.errors import ErrorCode

if TYPE_CHECKING:
    from app.safety.guard import SafetyGuard

log = logging.getLogger(__name__)

RECONNECT_GRACE_S = 10.0
"""A browser that left this recently is expected back (a service-worker restart, a host Chrome restarted)."""
NO_BROWSER_STEP = ("no browser has connected to bua: do not retry; report that the person must open Chrome with "
                   "the bua extension loaded (`bua install` shows how) or run `bua browser`, then try again")
"""The next step when no browser is connected and none is on its way (a setup step, not a dropped connection)."""

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
        self._tab_listeners: list[Callable[[], None]] = []
        self._changed = asyncio.Event()
        self._lost_at: float | None = None
        self._expected_until = 0.0

    # -- membership -------------------------------------------------------
    def add(self, bridge: BrowserBridge) -> None:
        self._bridges.append(bridge)
        self._notify()
        self.tabs_changed()

    def remove(self, bridge: BrowserBridge, reason: str) -> None:
        bridge.close(reason)
        if bridge in self._bridges:
            self._bridges.remove(bridge)
            if bridge.ready.is_set():
                self._lost_at = time.monotonic()
        self._notify()
        self.tabs_changed()

    def subscribe_tabs(self, listener: Callable[[], None]) -> Callable[[], None]:
        """`listener()` after any bridge's tab mirror changed, or the browsers did (MCP lanes push get_tabs)."""
        self._tab_listeners.append(listener)
        return lambda: self._tab_listeners.remove(listener) if listener in self._tab_listeners else None

    def tabs_changed(self) -> None:
        for listener in list(self._tab_listeners):
            try:
                listener()
            except Exception:  # a broken listener must not break the pipe
                log.exception("tab listener failed")

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

    def expect(self, seconds: float) -> None:
        """A browser is starting (`bua browser`, the demo, the app's own launch): actions wait for it to connect."""
        self._expected_until = max(self._expected_until, time.monotonic() + seconds)

    def expected_for(self) -> float:
        """How long a browser is still expected: a connection that has not said hello yet, one that left within
        RECONNECT_GRACE_S, or a launch announced with `expect` (0 when none is on its way: an action fails at
        once with the setup step instead of waiting)."""
        now = time.monotonic()
        pending = any(not b.ready.is_set() and not b.closed for b in self._bridges)
        grace = self._lost_at + RECONNECT_GRACE_S - now if self._lost_at is not None else 0.0
        return max(RECONNECT_GRACE_S if pending else 0.0, grace, self._expected_until - now, 0.0)

    async def wait_if_expected(self, limit: float) -> None:
        """With no browser connected, wait up to `limit` seconds, but only while one is expected."""
        if not self.bridges:
            await self.wait_up_to(min(limit, self.expected_for()))

    async def wait_up_to(self, seconds: float) -> None:
        """Wait up to `seconds` for a browser; none by then is not an error here: the request that follows answers
        extension_disconnected with the next step."""
        if seconds > 0 and not self.bridges:
            try:
                await self.wait_for_bridge(seconds)
            except TimeoutError:
                pass

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
        action: ActionModel,
        task_id: str,
        abort: AbortSignal | None = None,
        timeout: float | None = None,
        browser: str | None = None,
        label: str | None = None,
    ) -> Response:
        """One parsed action (app.protocol.actions.parse_action, called once by the edge that took it: the browser
        tool, `bua act`) through the file hooks and the safety guard to a browser."""
        if not isinstance(action, ActionModel):  # a caller's mistake, not input: mypy holds app/ to it
            raise TypeError("BrowserBridgePool.request takes a parsed action: parse it where it comes in "
                            "(app.protocol.actions.parse_action; tests and benches: tests/harness/actions.pool_request)")
        bridge = self.select(browser)
        if bridge is None:
            return Response(id="r0", ok=False, error=ErrorBody(
                code=ErrorCode.EXTENSION_DISCONNECTED, next_step=NO_BROWSER_STEP,
                message="no browser is connected to bua: start Chrome with the bua extension loaded "
                        "(`bua install`, then Load unpacked), or run `bua browser`"))
        if timeout is None:
            timeout = self.deadline_for(action)
        ready = await self.files.before(action)
        if isinstance(ready, Response):
            return ready
        if self.safety is None:
            return await self.files.after(ready, await bridge.request(ready, task_id, abort, timeout, label))
        chosen, wait = bridge, timeout

        async def send(act: ActionModel, approval: str | None) -> Response:
            return await chosen.request(act, task_id, abort, wait, label, approval=approval)
        return await self.files.after(ready, await self.safety.request(send, ready, task_id, abort))

    def deadline_for(self, action: ActionModel) -> float:
        """How long the app waits for an action's answer: longer than the extension's own wait for it (the
        action's `timeout_ms`, its declared default filled in when left out) by a margin, so that the extension's
        answer — with what it saw — arrives before the app gives up."""
        waits = getattr(action, "timeout_ms", None)
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
