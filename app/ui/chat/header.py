"""The chat window's top bar: name, live browser status, and the ways to the popup, settings and a new chat."""

from __future__ import annotations

from typing import Callable

from PySide6.QtWidgets import QFrame, QHBoxLayout

from app.ui.aio import spawn
from app.ui.controller import AppController, AppState
from app.ui.format import plural
from app.ui.widgets import button, chip, label, repolish

STATUS = {
    AppState.IDLE: "ok",
    AppState.WORKING: "busy",
    AppState.NEEDS_USER: "warn",
    AppState.NO_EXTENSION: "warn",
    AppState.ERROR: "error",
}


class Header(QFrame):
    def __init__(self, controller: AppController, on_new_chat: Callable[[], object],
                 on_demo: Callable[[], object]) -> None:
        super().__init__()
        self.setObjectName("header")
        self.controller = controller
        self.status = chip("")
        self.status.setAccessibleName("Browser status")
        self.new_chat = button("New chat", on_new_chat, tip="Start a new conversation (Ctrl+N)")
        self.demo = button("Try the demo", on_demo, tip="Watch bua work on a demo site, offline, without a key")
        self.activity = button("Sessions && blocklist", controller.open_popup_requested.emit,
                               tip="Milestones, live sessions, Stop all, blocklist (Ctrl+J)")
        self.settings = button("Settings", controller.open_settings_requested.emit, tip="Settings (Ctrl+,)")
        # Always shown, as in the tray and the popup: with or without a browser, a person looking for Stop all must
        # never have to wait for something to run first (pressing it with nothing running stops nothing).
        self.stop_all = button("Stop all", lambda: spawn(controller.stop_all()), kind="danger",
                               tip="Stop every task and end every session now (Ctrl+Shift+X)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(16, 8, 12, 8)
        layout.setSpacing(8)
        layout.addWidget(label("bua", "title"))
        layout.addWidget(self.status)
        layout.addStretch(1)
        for widget in (self.stop_all, self.demo, self.new_chat, self.activity, self.settings):
            layout.addWidget(widget)
        controller.state_changed.connect(self.refresh)
        controller.browsers_changed.connect(self.refresh)
        controller.sessions_event.connect(self.refresh)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        c = self.controller
        if c.state == AppState.ERROR:
            text = "Problem — see above"
        elif c.state == AppState.WORKING:
            text = "Working…"
        elif c.state == AppState.NEEDS_USER:
            text = "Waiting for you"
        elif c.browser_count:
            text = plural(c.browser_count, "browser") + " connected"
        else:
            text = "Browser not connected"
        self.status.setText(text)
        self.status.setProperty("tone", STATUS[c.state])
        repolish(self.status)
