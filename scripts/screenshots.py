"""Screenshots of the real app for the README: `make screenshots` (runs this under Xvfb with trayer as tray host).

Everything shown is real: the core, the offline demo (scripted model, demo site, headless Chromium with the
extension), the store. Writes docs/screenshots/*.png.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))


def start_tray_host() -> subprocess.Popen[bytes] | None:
    if not shutil.which("trayer"):
        print("trayer not found: the tray-menu shot will show the menu alone", file=sys.stderr)
        return None
    host = subprocess.Popen(["trayer", "--edge", "top", "--align", "right", "--widthtype", "request",
                             "--height", "30", "--transparent", "false", "--tint", "0x2b2f38", "--SetDockType",
                             "true", "--margin", "8"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)
    return host


async def settle(seconds: float = 0.4) -> None:
    await asyncio.sleep(seconds)


async def shoot(home: Path) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication, QWidget

    from app.browser.launch import launch_browser
    from app.ui import theme
    from app.ui.shell import BuaApp

    app = BuaApp(home)
    try:
        await app.start(show=False)
        browser = await asyncio.to_thread(launch_browser, home, headless=True)
        app.controller.launched.append(browser)
        await app.core.pool.wait_for_bridge(45)
        for entry in ("mybank.example", "*.payroll.example"):
            await app.controller.block(entry)
        chat = app.chat
        chat.resize(820, 900)
        app.open_chat()
        chat.try_demo()
        await wait_for(lambda: chat.session.running, 30)
        await wait_for(lambda: not chat.session.running, 180)
        card = next(iter(chat.transcript.current.cards.values()))
        readme_steps(card.task.steps)
        card.set_expanded(True)
        await settle(0.6)
        chat.transcript.scroll_to_end()
        await settle()
        save(chat.grab(), "chat")
        card.set_expanded(False)

        app.open_popup()
        popup = app.popup
        popup.move(60, 60)
        await settle(0.6)
        save(popup.grab(), "popup")
        popup.tabs.setCurrentWidget(popup.blocklist)
        await settle()
        save(popup.grab(), "popup-blocklist")
        popup.hide()

        app.open_settings()
        await settle(0.8)
        save(app.settings.grab(), "settings")
        app.settings.hide()
        app.open_first_run()
        await settle(0.8)
        save(app.first_run.grab(), "first-run")
        app.first_run.hide()
        chat.hide()

        if app.tray_available:
            backdrop = QWidget(None, Qt.WindowType.FramelessWindowHint)
            backdrop.setStyleSheet("background: #cdd5e0;")
            backdrop.setGeometry(QGuiApplication.primaryScreen().geometry())
            backdrop.show()
            backdrop.lower()
            await settle(0.5)
            geometry = app.tray.icon.geometry()
            menu = app.tray.menu
            menu.popup(QPoint(geometry.right() - menu.sizeHint().width(), geometry.bottom() + 4))
            await settle(0.8)
            screen = QGuiApplication.primaryScreen()
            left = min(menu.x(), geometry.x()) - 28
            region = screen.grabWindow(0, left, 0, screen.geometry().width() - left, menu.y() + menu.height() + 28)
            save(region, "tray-menu")
            menu.hide()
            backdrop.close()
        else:
            print("no system tray (is trayer running?): tray-menu.png not written", file=sys.stderr)

        theme.apply(QApplication.instance(), dark=True)
        await settle(0.5)
        app.open_chat()
        await settle(0.6)
        save(chat.grab(), "chat-dark")
    finally:
        await app.close()


def readme_steps(steps: int) -> None:
    """The README's step counts are the demo's own (tests/e2e/test_cli.py checks them against `bua demo`)."""
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    updated = re.sub(r"\d+ browser steps", f"{steps} browser steps", text)
    if updated != text:
        readme.write_text(updated, encoding="utf-8")
        print(f"README: {steps} browser steps")


def save(pixmap, name: str) -> None:
    path = OUT / f"{name}.png"
    pixmap.save(str(path))
    print(f"wrote {path.relative_to(ROOT)} ({pixmap.width()}x{pixmap.height()})")


async def wait_for(predicate, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the screenshot scenario got stuck")
        await asyncio.sleep(0.05)


def main() -> int:
    if not os.environ.get("DISPLAY"):
        print("run this under X (make screenshots uses xvfb-run)", file=sys.stderr)
        return 2
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    os.environ["ANTHROPIC_API_KEY"] = "shown-as-set-only"  # hides the "add a key" notice; the demo needs none
    OUT.mkdir(parents=True, exist_ok=True)
    tray = start_tray_host()
    home = Path(tempfile.mkdtemp(prefix="bua-shots-"))
    os.environ["BUA_HOME"] = str(home)
    os.environ["XDG_CONFIG_HOME"] = str(home / "xdg")

    import qasync

    from app.ui.app import make_application

    qt_app = make_application(["bua"])
    loop = qasync.QEventLoop(qt_app)
    asyncio.set_event_loop(loop)
    try:
        loop.run_until_complete(shoot(home))
    finally:
        loop.close()
        if tray is not None:
            tray.terminate()
        shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
