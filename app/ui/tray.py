"""The tray icon and its menu. Where the platform has no tray, the menu still exists (the chat window
offers the same actions) and the app says so."""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import QObject, QRect
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenu, QSystemTrayIcon

from app.ui.aio import spawn
from app.ui.chat.confirm_card import title_of
from app.ui.controller import AppController, AppState
from app.ui.format import plural
from app.ui.icons import state_icon

STATE_TEXT = {
    AppState.IDLE: "Ready",
    AppState.WORKING: "Working…",
    AppState.NEEDS_USER: "Waiting for you",
    AppState.NO_EXTENSION: "Browser not connected",
    AppState.ERROR: "Problem",
}


class Tray(QObject):
    def __init__(self, controller: AppController) -> None:
        super().__init__()
        self.controller = controller
        self.available = QSystemTrayIcon.isSystemTrayAvailable()
        self.menu = QMenu()
        self.status_action = self.menu.addAction("")
        self.status_action.setEnabled(False)
        self.menu.addSeparator()
        self.open_chat_action = self._action("Open chat", controller.open_chat_requested.emit)
        self.stop_all_action = self._action("Stop all", self.stop_all)
        self.popup_action = self._action("Sessions && blocklist", controller.open_popup_requested.emit)
        self.settings_action = self._action("Settings…", controller.open_settings_requested.emit)
        self.menu.addSeparator()
        self.quit_action = self._action("Quit bua", controller.quit_requested.emit, QKeySequence.StandardKey.Quit)
        self.icon = QSystemTrayIcon(state_icon(controller.state.value))
        self.icon.setContextMenu(self.menu)
        self.icon.activated.connect(self._activated)
        controller.state_changed.connect(self._update)
        controller.browsers_changed.connect(self._update)
        controller.needs_user_changed.connect(self._update)
        controller.needs_user_changed.connect(self._announce_needs_user)
        controller.confirmation_asked.connect(self._announce_confirmation)
        controller.confirmation_settled.connect(self._update)
        self.icon.messageClicked.connect(controller.open_popup_requested.emit)
        self._announced: set[str] = set()
        self.clicked_at = QRect()
        """Where the icon was when it was last clicked (empty where the platform does not say): the popup opens
        next to it."""
        self._update()
        if self.available:
            self.icon.show()

    def _action(self, text: str, slot: Callable[[], object], shortcut: str | QKeySequence.StandardKey | None = None) -> QAction:
        action = self.menu.addAction(text)
        action.triggered.connect(lambda _checked=False: slot())
        if shortcut is not None:
            action.setShortcut(QKeySequence(shortcut))
        return action

    def stop_all(self) -> None:
        spawn(self.controller.stop_all())

    def _activated(self, reason: QSystemTrayIcon.ActivationReason) -> None:
        if reason == QSystemTrayIcon.ActivationReason.Trigger:
            self.clicked_at = self.icon.geometry()
            self.controller.open_popup_requested.emit()
        elif reason == QSystemTrayIcon.ActivationReason.DoubleClick:
            self.controller.open_chat_requested.emit()

    def status_text(self) -> str:
        c = self.controller
        state = c.state
        if state == AppState.ERROR:
            return f"Problem: {c.error}"
        if state == AppState.NEEDS_USER and c.confirmations:
            return f"Waiting for you: confirm — {title_of(next(iter(c.confirmations.values())))}"
        if state == AppState.NEEDS_USER:
            needs = next(iter(c.needs_user.values()), {})
            return f"Waiting for you: {needs.get('needs') or 'a task needs your help'}"
        browsers = plural(c.browser_count, "browser") + " connected" if c.browser_count else "no browser connected"
        return f"{STATE_TEXT[state]} · {browsers}"

    def _update(self, *_args: object) -> None:
        text = self.status_text()
        self.status_action.setText(text if len(text) < 70 else text[:67] + "…")
        self.icon.setIcon(state_icon(self.controller.state.value))
        self.icon.setToolTip(f"bua — {text}")

    def _announce_needs_user(self) -> None:
        """A balloon for each new hand-off: the person may not be looking at the chat."""
        waiting = self.controller.needs_user
        for task_id, details in waiting.items():
            if task_id not in self._announced and self.available:
                self.icon.showMessage("bua needs you", str(details.get("needs") or "A task needs your help."),
                                      QSystemTrayIcon.MessageIcon.Information, 15000)
        self._announced = set(waiting)

    def _announce_confirmation(self, request: dict[str, Any]) -> None:
        """A held action: the balloon says what and where; clicking it opens the popup with the three answers."""
        self._update()
        if self.available:
            self.icon.showMessage(f"bua asks you — {title_of(request)}",
                                  f"{request.get('element') or ''}: {request.get('reason') or ''}\n"
                                  f"Task: {request.get('task_words') or '(no description)'}",
                                  QSystemTrayIcon.MessageIcon.Warning, 30000)

    def announce(self, title: str, text: str) -> bool:
        """A balloon for something the person must know even with no window open; False without a tray."""
        if not self.available:
            return False
        self.icon.showMessage(title, text, QSystemTrayIcon.MessageIcon.Warning, 30000)
        return True

    def hide(self) -> None:
        self.icon.hide()
