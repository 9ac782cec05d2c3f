"""The first-run guide: register the native host, load the extension, watch it connect, add a key."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QRect, QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from app.ui import setup_check
from app.ui.aio import spawn
from app.ui.controller import AppController
from app.ui.icons import app_icon
from app.ui.popup.placement import beside
from app.ui.widgets import button, label, row, set_props


def step(number: int, title: str) -> tuple[QFrame, QVBoxLayout]:
    card = QFrame()
    card.setObjectName("card")
    layout = QVBoxLayout(card)
    layout.setContentsMargins(14, 10, 14, 12)
    layout.setSpacing(6)
    layout.addWidget(label(f"{number}.  {title}", "section"))
    return card, layout


class FirstRunWindow(QWidget):
    def __init__(self, controller: AppController) -> None:
        super().__init__()
        self.controller = controller
        self.setWindowTitle("Set up")
        self.setWindowIcon(app_icon())
        self.setMinimumWidth(600)
        self.facts: setup_check.SetupFacts | None = None
        self.host_status = label("Checking…", "muted", wrap=True)
        self.register = button("Register bua with my browsers", self._register, kind="primary")
        self.ext_text = label("In Chrome, open <b>chrome://extensions</b>, switch on <b>Developer mode</b> (top right), "
                              "click <b>Load unpacked</b> and choose this folder:", wrap=True, rich=True)
        self.ext_path = label("", selectable=True)
        self.ext_path.setProperty("role", "code")
        self.ext_id = label("", "muted", wrap=True)
        self.ext_status = label("", "muted", wrap=True)
        self.ext_status.setVisible(False)
        self.connected = label("", wrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(20, 18, 20, 18)
        layout.setSpacing(12)
        layout.addWidget(label("Set up bua", "title"))
        layout.addWidget(label("Three steps, once. bua then works in your own browser, in tabs it opens for each "
                               "task, and only while you let it.", "muted", wrap=True))
        card, inner = step(1, "Let your browsers talk to bua")
        inner.addWidget(self.host_status)
        inner.addLayout(row(self.register, stretch_last=True))
        layout.addWidget(card)
        card, inner = step(2, "Load the bua extension")
        inner.addWidget(self.ext_text)
        inner.addWidget(self.ext_path)
        inner.addWidget(self.ext_id)
        inner.addLayout(row(button("Open extensions page", self._open_extensions),
                            button("Copy folder path", self._copy_path),
                            button("Or: start a bua browser", self._start_browser,
                                   tip="A separate browser window with the extension already loaded"),
                            stretch_last=True))
        inner.addWidget(self.ext_status)
        layout.addWidget(card)
        card, inner = step(3, "Check the connection")
        inner.addWidget(self.connected)
        layout.addWidget(card)
        layout.addLayout(row(button("Add API key…", controller.open_settings_requested.emit),
                             button("Open chat", self._done, kind="primary"), stretch_first=True))
        layout.addStretch(1)
        controller.browsers_changed.connect(lambda _n: self._refresh_connected())
        self._refresh_connected()

    async def start(self) -> None:
        self.facts = await asyncio.to_thread(setup_check.facts, self.controller.home)
        facts = self.facts
        if facts.host_registered:
            self.host_status.setText(f"Done: registered ({len(facts.manifests)} host manifest"
                                     f"{'s' if len(facts.manifests) != 1 else ''}).")
            set_props(self.host_status, role="ok")
            self.register.setText("Register again")
        else:
            found = ", ".join(facts.browsers) or "none found yet"
            self.host_status.setText(f"Not yet. Browsers on this computer: {found}.")
        self.ext_path.setText(str(facts.extension_dir))
        self.ext_id.setText(f"Its ID must then read {facts.extension_id}." if facts.extension_id else "")
        self.adjustSize()
        self.fit()

    def _register(self) -> None:
        async def go() -> None:
            self.register.setEnabled(False)
            try:
                report = await asyncio.to_thread(setup_check.register_host, self.controller.home)
            except setup_check.InstallError as err:
                self.host_status.setText(str(err))
                set_props(self.host_status, role="error")
                return
            finally:
                self.register.setEnabled(True)
            names = ", ".join(report.browsers) or "the chosen profile"
            self.host_status.setText(f"Done: registered for {names}.")
            set_props(self.host_status, role="ok")
        spawn(go())

    def _open_extensions(self) -> None:
        async def go() -> None:
            try:
                opened = await asyncio.to_thread(setup_check.open_extensions_page)
                self._ext_say(f"Opened {opened}.")
            except setup_check.UsageError as err:
                self._ext_say(str(err))
        spawn(go())

    def _copy_path(self) -> None:
        if self.facts is not None:
            QGuiApplication.clipboard().setText(str(self.facts.extension_dir))
            self._ext_say("Folder path copied.")

    def _start_browser(self) -> None:
        self._ext_say("Starting a browser with the extension…")
        spawn(self.controller.start_bua_browser(), lambda err: self._ext_say(f"Could not start it: {err}"))

    def _ext_say(self, text: str) -> None:
        self.ext_status.setText(text)
        self.ext_status.setVisible(bool(text))
        self.fit()

    def fit(self) -> None:
        """Grow to the height the content needs at the current width. Wrapped labels have a height for a width,
        which a top-level window does not follow by itself: a status line appearing in step 2 squeezed the
        buttons to half their height."""
        layout = self.layout()
        if layout is None:
            return
        layout.activate()
        need = layout.totalHeightForWidth(self.width()) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
        if self.height() < need:
            self.resize(self.width(), need)

    def _refresh_connected(self) -> None:
        browsers = self.controller.core.browsers()
        if browsers:
            first = browsers[0]
            self.connected.setText(f"● Connected: {first['browser'] or 'browser'}, extension "
                                   f"{first['extension_version']}.")
            set_props(self.connected, role="ok")
        else:
            self.connected.setText("○ Waiting for the extension to say hello… (this updates by itself)")
            set_props(self.connected, role="muted")

    def _done(self) -> None:
        self.close()
        self.controller.open_chat_requested.emit()

    def bring_forward(self, beside_window: QWidget | None = None) -> None:
        """Shown beside `beside_window` (the chat), never over it, and inside the screen it is on."""
        self.adjustSize()
        screen = (beside_window.screen() if beside_window is not None else None) or QGuiApplication.primaryScreen()
        if screen is not None:
            anchor = beside_window.frameGeometry() if beside_window is not None and beside_window.isVisible() \
                else QRect(screen.availableGeometry().center(), QSize(0, 0))
            self.move(beside(anchor, self.frameGeometry().size(), screen.availableGeometry()))
        self.show()
        self.raise_()
        self.activateWindow()
