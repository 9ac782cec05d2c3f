"""The Settings dialog. Values live in the store (the key in the keyring); saving never blocks the loop."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from PySide6.QtCore import Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.agent.settings import AgentSettings
from app.core.sessions import DEFAULT_IDLE_S
from app.files.policy import FOLDERS_SETTING
from app.safety.confirmations import DEFAULT_TIMEOUT_S, TIMEOUT_SETTING
from app.store.blocklist import InvalidEntry
from app.ui import autostart
from app.ui.aio import spawn
from app.ui.controller import AppController
from app.ui.icons import app_icon
from app.ui.settings.folders_field import FoldersField
from app.ui.settings.key_field import KeyField
from app.ui.settings.strict_field import StrictField
from app.ui.settings.tier_field import TierField
from app.ui.widgets import label, set_props

MODELS = ("claude-sonnet-4-6", "claude-opus-4-6", "claude-haiku-4-5")


def model_box(current: str) -> QComboBox:
    box = QComboBox()
    box.setEditable(True)
    box.addItems(list(dict.fromkeys([current, *MODELS])))
    box.setCurrentText(current)
    box.setMinimumWidth(260)
    return box


class SettingsDialog(QDialog):
    saved = Signal()

    def __init__(self, controller: AppController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setWindowTitle("Settings")
        self.setWindowIcon(app_icon())
        self.setMinimumWidth(560)
        defaults = AgentSettings()
        self.key = KeyField()
        self.main_model = model_box(defaults.main_model)
        self.main_model.setAccessibleName("Main agent model")
        self.sub_model = model_box(defaults.subagent_model)
        self.sub_model.setAccessibleName("Browser subagent model")
        self.base_url = QLineEdit()
        self.base_url.setPlaceholderText("https://api.anthropic.com (default)")
        self.tools = TierField()
        self.idle = QSpinBox()
        self.idle.setRange(1, 240)
        self.idle.setSuffix(" min")
        self.idle.setAccessibleName("Idle threshold in minutes")
        self.confirm_wait = QSpinBox()
        self.confirm_wait.setRange(10, 3600)
        self.confirm_wait.setSuffix(" s")
        self.confirm_wait.setAccessibleName("How long a confirmation waits for your answer, in seconds")
        self.budget = QSpinBox()
        self.budget.setRange(50, 5000)
        self.budget.setSingleStep(50)
        self.budget.setSuffix(" k tokens")
        self.budget.setAccessibleName("Browser budget per task in thousands of tokens")
        self.strict = StrictField()
        self.login = QCheckBox("Start bua when I log in")
        self.folders = FoldersField()
        self.message = label("", "muted", wrap=True)
        self.message.setVisible(False)
        form = QFormLayout()
        form.setVerticalSpacing(10)
        form.setHorizontalSpacing(14)
        form.addRow(label("API key", "section"), self.key)
        form.addRow("Main agent model", self.main_model)
        form.addRow("Browser subagent model", self.sub_model)
        form.addRow("API base URL", self.base_url)
        form.addRow("Tools", self.tools)
        form.addRow("End sessions when idle", self.idle)
        form.addRow("", label("When you are away from the keyboard this long, every session ends and the agent "
                              "loses its tabs.", "muted", wrap=True))
        form.addRow("Confirmations wait", self.confirm_wait)
        form.addRow("", label("How long a held action (paying, sending, deleting, one site's data to another) waits for "
                              "your answer before it counts as Deny.", "muted", wrap=True))
        form.addRow("Ask before acting", self.strict)
        form.addRow("Browser budget per task", self.budget)
        form.addRow("", label("A browser task stops when its work has used this many tokens (input as billed, "
                              "plus output), and says what it found so far.", "muted", wrap=True))
        form.addRow("Files", self.folders)
        form.addRow("Startup", self.login)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(lambda: spawn(self.save(), self._failed))
        buttons.rejected.connect(self.reject)
        self.save_button = buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setProperty("kind", "primary")
        for each in buttons.buttons():
            each.setIcon(QIcon())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(18, 16, 18, 14)
        self.fields = QWidget()
        self.fields.setLayout(form)
        form.setContentsMargins(0, 0, 0, 0)
        self._loads = 0
        layout.addWidget(self.fields)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    @property
    def loading(self) -> bool:
        """Whether stored values are still being read into the fields (they take no input until then)."""
        return self._loads > 0

    def load(self) -> None:
        """Read the stored settings into the fields. The fields and Save are disabled from now until they are read,
        so a choice made while the dialog opens again is not overwritten by the stored value a moment later."""
        self._loads += 1
        self.fields.setEnabled(False)
        self.save_button.setEnabled(False)
        spawn(self._load(), self._load_failed)

    async def _load(self) -> None:
        try:
            await self._read_stored()
        finally:
            self._loads -= 1
            if self._loads == 0:
                self.fields.setEnabled(True)
                self.save_button.setEnabled(True)
                self._say("")
        (self.key.edit if self.key.edit.isEnabled() else self.main_model).setFocus()
        line = self.main_model.lineEdit()
        if line is not None:
            line.deselect()

    async def _read_stored(self) -> None:
        c = self.controller
        defaults = AgentSettings()
        self.main_model.setCurrentText(await c.setting("main_model", defaults.main_model))
        self.sub_model.setCurrentText(await c.setting("subagent_model", defaults.subagent_model))
        self.base_url.setText(await c.setting("base_url", "") or "")
        self.tools.set_values(await c.setting("tier", "standard"), bool(await c.setting("tier_browser", True)))
        self.idle.setValue(max(1, int(await c.setting("idle_threshold_s", DEFAULT_IDLE_S)) // 60))
        self.budget.setValue(int(await c.setting("subagent_token_budget", defaults.subagent_token_budget)) // 1000)
        self.confirm_wait.setValue(int(await c.setting(TIMEOUT_SETTING, DEFAULT_TIMEOUT_S)))
        self.login.setChecked(await asyncio.to_thread(autostart.is_enabled))
        self.folders.set_values(await c.setting(FOLDERS_SETTING, []))
        self.strict.set_mode(await c.strict_mode())
        await self.key.load()
        self.adjustSize()

    def _say(self, text: str, role: str = "muted") -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        set_props(self.message, role=role)

    def _load_failed(self, err: BaseException) -> None:
        self._say(f"Could not read the stored settings: {err}. Close this window and open Settings again.", "error")

    def _failed(self, err: BaseException) -> None:
        self._say(f"Could not save: {err}", "error")
        self.save_button.setEnabled(True)

    def validate(self) -> str | None:
        url = self.base_url.text().strip()
        if url and (urlsplit(url).scheme not in ("http", "https") or not urlsplit(url).netloc):
            return "The base URL must start with http:// or https://, e.g. https://api.anthropic.com"
        if not self.main_model.currentText().strip() or not self.sub_model.currentText().strip():
            return "Choose a model for the main agent and for the browser subagent."
        return None

    async def save(self) -> bool:
        if self.loading:
            self._say("The stored settings are still being read; save again in a moment.", "error")
            return False
        problem = self.validate()
        if problem:
            self._say(problem, "error")
            return False
        self.save_button.setEnabled(False)
        try:
            if self.strict.changed():
                await self.controller.apply_strict_mode(*self.strict.values())
                self.strict.mark_saved()
        except InvalidEntry as err:
            self._say(f"Ask before acting: {err}", "error")
            self.save_button.setEnabled(True)
            return False
        key_error = await self.key.save()
        if key_error:
            self._say(key_error, "error")
            self.save_button.setEnabled(True)
            return False
        idle_s = self.idle.value() * 60
        await self.controller.set_settings({
            "main_model": self.main_model.currentText().strip(),
            "subagent_model": self.sub_model.currentText().strip(),
            "base_url": self.base_url.text().strip() or None,
            **self.tools.values(),
            "idle_threshold_s": idle_s,
            "subagent_token_budget": self.budget.value() * 1000,
            TIMEOUT_SETTING: self.confirm_wait.value(),
            "start_at_login": self.login.isChecked(),
            FOLDERS_SETTING: self.folders.values(),
        })
        if self.login.isChecked() != await asyncio.to_thread(autostart.is_enabled):
            await asyncio.to_thread(autostart.set_enabled, self.login.isChecked(), self.controller.home)
        await self.controller.apply_idle_threshold(idle_s)
        self.save_button.setEnabled(True)
        self.saved.emit()
        self.accept()
        return True
