"""The core: bridge pool behind the local socket, store, task board, sessions, controls, chat, CLI service.

The tray app, `bua serve` and the tests all run this same object.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from app.agent.model import ModelClient
from app.agent.task_board import TaskBoard
from app.bridge.bridge import BrowserBridge
from app.bridge.file_hooks import FileHooks
from app.bridge.pool import BrowserBridgePool
from app.bridge.server import BridgeServer
from app.core.chat import ChatService, ClientFactory
from app.core.cli_service import CliService
from app.core.control import Controls
from app.core.lanes import LaneService
from app.core.safety_wiring import install_safety
from app.core.sessions import DEFAULT_IDLE_S, SessionsTable
from app.core.verbs import CoreVerbs
from app.files.policy import FOLDERS_SETTING
from app.protocol.envelope import Event
from app.safety.strict_mode import STRICT_SETTING
from app.store.db import Store
from app.store.recovery import restore_blocklist, restore_pending
from app.store.screenshots import ScreenshotArchive

log = logging.getLogger(__name__)


class Core(CoreVerbs):
    """Builds and runs the parts; what callers may ask of it are the verbs (app.core.verbs)."""

    def __init__(self, home: Path, request_timeout: float = 30.0,
                 client_factory: ClientFactory = ModelClient.from_settings) -> None:
        super().__init__()
        self.home = home
        self.pool = BrowserBridgePool(timeout=request_timeout)
        self.store = Store(home)
        self.pool.files = FileHooks(lambda: self.store.get_setting(FOLDERS_SETTING, []))
        self.board = TaskBoard(ScreenshotArchive(home / "screenshots"), self.store.save_task)
        self.sessions = SessionsTable()
        self.controls = Controls(self.pool, self.store)
        self.confirmations = install_safety(self.pool, self.board, self.sessions, self.store)
        self.chat_service = ChatService(self.pool, self.store, self.board, self.controls, self.agent_settings,
                                        client_factory)
        self.cli = CliService(self)
        self.lanes = LaneService(self)
        self.server = BridgeServer(home, self.pool, self.cli.handle, self.lanes.handle)
        self.pool.subscribe(self._on_browser_event)
        self._background: set[asyncio.Task[Any]] = set()

    async def start(self) -> None:
        await self.server.start()

    async def close(self) -> None:
        for task in list(self._background):
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)  # settled, so nothing is printed at exit
        await self.server.close()
        self.store.close()

    def _on_browser_event(self, bridge: BrowserBridge, event: Event) -> None:
        self.sessions.on_event(bridge, event)
        if event.type == "hello":
            self._spawn(self._send_blocklist(bridge, event.data.get("blocklist")))
            self.notify("browser_connected", {"profile_id": bridge.info.profile_id, "browser": bridge.info.browser})
        elif event.type == "host_error":
            self.notify("host_error", {"message": str(event.data.get("message") or
                                                      "the native host reported an error")})

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _send_blocklist(self, bridge: BrowserBridge, held: object = None) -> None:
        """A browser that (re)connects gets the store's blocklist, idle threshold and strict mode at once; after a store
        recovery, the extension's copy (`held`, from its hello) is taken into the store first."""
        restored = await asyncio.to_thread(restore_blocklist, self.store, held)
        answers: list[dict[str, Any]] = []
        if restored is not None:
            log.warning("blocklist restored from %s's copy: %s", bridge.info.browser, ", ".join(restored) or "(empty)")
            answers = (await self.set_blocklist_changed()).browsers  # the stored list changed: everyone hears it
        elif not await asyncio.to_thread(restore_pending, self.store):
            answers = await self.controls.push_blocklist([bridge])
        for answer in answers:
            if not answer["ok"]:
                log.warning("could not send the blocklist to a browser: %s", answer.get("error"))
        idle = await asyncio.to_thread(self.store.get_setting, "idle_threshold_s", DEFAULT_IDLE_S)
        await self.controls.broadcast("configure", {"idle_threshold_s": idle or DEFAULT_IDLE_S}, [bridge])
        if await asyncio.to_thread(self.store.get_setting, STRICT_SETTING, None) is not None:  # never set: off there too
            await self.controls.broadcast("set_strict_mode", (await self.strict_mode()).as_args(), [bridge])


async def serve_forever(home: Path) -> None:
    core = Core(home)
    await core.start()
    recovery = core.store.last_recovery()
    if recovery is not None:
        print(f"bua: {recovery.message()}", file=sys.stderr, flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    print(f"bua core listening on {core.server.address}", flush=True)
    try:
        await stop.wait()
    finally:
        await core.close()
