"""BuaApp: builds the core, the controller, the tray and the windows, and tears them down in order."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QObject, QRect
from PySide6.QtGui import QGuiApplication

from app.bridge.server import AlreadyRunning
from app.core.service import Core
from app.ui import aio, setup_check
from app.ui.chat.window import ChatWindow
from app.ui.controller import AppController
from app.ui.first_run import FirstRunWindow
from app.ui.gc_guard import GuiThreadCollector
from app.ui.popup.placement import next_to_tray
from app.ui.popup.window import PopupWindow
from app.ui.settings.dialog import SettingsDialog
from app.ui.tray import Tray

HELLO_GRACE_S = 8.0
"""How long a registered host's browser gets to say hello at start before the first-run guide opens."""

log = logging.getLogger(__name__)


class BuaApp(QObject):
    def __init__(self, home: Path, core: Core | None = None, use_tray: bool = True, warm_up: bool = True) -> None:
        super().__init__()
        self.collector = GuiThreadCollector(self)
        self.collector.start()
        self.home = home
        self.core = core or Core(home)
        self.use_tray = use_tray
        self.controller = AppController(self.core, home, warm_up=warm_up)
        self.tray = Tray(self.controller)
        self.tray_available = use_tray and self.tray.available
        if not self.tray_available:
            self.tray.hide()
        self.chat = ChatWindow(self.controller, quit_on_close=not self.tray_available)
        self.popup: PopupWindow | None = None
        self.settings: SettingsDialog | None = None
        self.first_run: FirstRunWindow | None = None
        self.closed = False
        self.finished: asyncio.Future[None] = asyncio.get_event_loop().create_future()
        c = self.controller
        c.open_chat_requested.connect(self.open_chat)
        c.open_popup_requested.connect(self.open_popup)
        c.open_settings_requested.connect(self.open_settings)
        c.open_first_run_requested.connect(self.open_first_run)
        c.quit_requested.connect(self.request_quit)

    async def start(self, show: bool = True, on_visible: Callable[[], None] = lambda: None) -> None:
        """Open the socket, show the tray (or the chat window) at once, then load what the windows show."""
        try:
            await self.core.start()
        except AlreadyRunning as err:
            self.controller.set_error(f"{err}. Stop the other one (`bua serve`?) and start bua again.")
        except OSError as err:
            self.controller.set_error(f"cannot open the local socket: {err}")
        if not self.tray_available:
            self.chat.show_no_tray()
        await self._tell_store_recovered()
        minimized = os.environ.get("BUA_START_MINIMIZED") == "1" and self.tray_available
        if show and not minimized:
            self.open_chat()
        on_visible()
        await self.chat.start()
        facts = await asyncio.to_thread(setup_check.facts, self.home)
        if show and not self.core.browser_count:
            if not facts.host_registered:
                self.open_first_run()
            else:
                aio.spawn(self._first_run_unless_a_browser_says_hello())

    async def _tell_store_recovered(self) -> None:
        """A damaged store was replaced (now or at an earlier start): say so in the tray and the chat until the
        person dismisses it."""
        message = await self.core.store_recovered()
        if message is None:
            return
        if self.tray_available:
            self.tray.announce("bua's store was damaged", message)
        self.chat.show_store_recovered(
            message, lambda: aio.spawn(self.core.dismiss_store_recovered()))

    async def _first_run_unless_a_browser_says_hello(self) -> None:
        """The host is registered, but no extension has said hello yet: give a running browser a moment to
        connect, then guide the person (the page's live check turns green once it does)."""
        try:
            await self.core.wait_for_browser(HELLO_GRACE_S)
        except TimeoutError:
            if not self.closed:
                self.open_first_run()

    async def run(self, on_visible: Callable[[], None] = lambda: None) -> None:
        """The app's whole life inside one loop run (qasync processes a last round of Qt events outside the
        running loop after each run_until_complete, so there must be only one)."""
        try:
            await self.start(on_visible=on_visible)
            await self.finished
        finally:
            await self.close()

    # -- windows ----------------------------------------------------------
    def open_chat(self) -> None:
        self.chat.bring_forward()

    def open_popup(self) -> None:
        if self.popup is None:
            self.popup = PopupWindow(self.controller)
            aio.spawn(self.popup.start())
        clicked, self.tray.clicked_at = self.tray.clicked_at, QRect()
        screen = QGuiApplication.screenAt(clicked.center()) if not clicked.isEmpty() else None
        spot = next_to_tray(clicked, self.popup.size(), screen.availableGeometry()) if screen else None
        if spot is not None:
            self.popup.move(spot)
        self.popup.bring_forward()

    def open_settings(self) -> None:
        if self.settings is None:
            self.settings = SettingsDialog(self.controller, self.chat if self.chat.isVisible() else None)
            self.settings.saved.connect(self._settings_saved)
        self.settings.load()
        self.settings.show()
        self.settings.raise_()
        self.settings.activateWindow()

    def _settings_saved(self) -> None:
        self.controller.clients.invalidate()
        aio.spawn(self.chat.refresh_key_notice())

    def open_first_run(self) -> None:
        if self.first_run is None:
            self.first_run = FirstRunWindow(self.controller)
        aio.spawn(self.first_run.start())
        self.first_run.bring_forward(self.chat)

    # -- quitting ---------------------------------------------------------
    def request_quit(self) -> None:
        if not self.finished.done():
            self.finished.set_result(None)

    async def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.tray.hide()
        for window in (self.chat, self.popup, self.settings, self.first_run):
            if window is not None:
                window.hide()
        self.chat.shutdown()
        if self.controller.busy:
            await self.core.stop_all()
        self.controller.close()
        await aio.cancel_all()
        await self.core.close()
        for window in (self.popup, self.settings, self.first_run, self.chat):
            if window is not None:
                window.deleteLater()
        self.collector.stop()
