"""`bua` with no subcommand: the tray app (one Qt process, asyncio via qasync)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys

from app.core import service as _core  # noqa: F401  (the core and the model SDK load before Qt: see app.ui.qt)
from app.ui import qt as _qt  # noqa: F401

# isort: split
import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.ui import theme
from app.ui.icons import app_icon
from app.ui.shell import BuaApp
from app.ui.single_instance import InstanceServer, forward_to_running
from native_host.paths import bua_home


def make_application(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    app = existing if isinstance(existing, QApplication) else QApplication(argv)
    app.setApplicationName("bua")
    app.setApplicationDisplayName("bua")
    app.setDesktopFileName("bua")
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)
    theme.follow_system(app)
    return app


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    home = bua_home()
    app = make_application(list(argv if argv is not None else sys.argv[:1]))
    if forward_to_running(home):
        print("bua is already running; its window was brought forward.", flush=True)
        return 0
    instance = InstanceServer(home)
    instance.listen()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    shell = BuaApp(home)
    instance.activated.connect(shell.open_chat)
    signal.signal(signal.SIGINT, lambda *_: shell.request_quit())
    signal.signal(signal.SIGTERM, lambda *_: shell.request_quit())
    wake = QTimer()
    wake.start(300)
    wake.timeout.connect(lambda: None)
    def started() -> None:
        if not shell.tray_available:
            print("bua: no system tray here, so the chat window is the app (closing it quits).", flush=True)
        if os.environ.get("BUA_REPORT_READY") == "1":
            print("bua-ready tray" if shell.tray_available else "bua-ready chat", flush=True)

    try:
        loop.run_until_complete(shell.run(started))
    finally:
        wake.stop()
        instance.close()
        loop.close()
    return 0
