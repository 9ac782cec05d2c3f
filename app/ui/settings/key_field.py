"""The API key field: masked, saved only through keyring; says where the key comes from, or why it cannot be saved."""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from app.agent import keys
from app.ui.widgets import button, label, row, set_props


@dataclass(frozen=True)
class KeyState:
    backend: str | None
    """The secure keyring backend's name, or None when there is none."""
    stored: bool
    from_env: bool


def read_state() -> KeyState:
    """Blocking (keyring may talk to D-Bus): call through asyncio.to_thread."""
    backend = keys.keyring_backend_name()
    stored = backend is not None and keys.stored_in_keyring()
    return KeyState(backend, stored, bool(os.environ.get("ANTHROPIC_API_KEY")))


def describe(state: KeyState) -> tuple[str, str]:
    """(text, role) for the status line."""
    if state.from_env:
        return "Using ANTHROPIC_API_KEY from the environment (it overrides a saved key).", "ok"
    if state.backend is None:
        return ("No secure keyring on this system, so bua cannot save a key. Set ANTHROPIC_API_KEY in the "
                "environment before starting bua — bua never writes the key to a file."), "error"
    short = state.backend.rsplit(".", 1)[-1]
    if state.stored:
        return f"A key is saved in the system keyring ({short}). Type a new one to replace it.", "ok"
    return f"No key yet. It will be kept in the system keyring ({short}).", "muted"


class KeyField(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.state: KeyState | None = None
        self.edit = QLineEdit()
        self.edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.edit.setPlaceholderText("sk-ant-…")
        self.edit.setAccessibleName("Anthropic API key")
        self.reveal = button("Show", self._toggle_reveal, tip="Show what you typed")
        self.reveal.setCheckable(True)
        self.remove = button("Remove saved key", self._remove)
        self.status = label("Checking the keyring…", "muted", wrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(row(self.edit, self.reveal, self.remove))
        layout.addWidget(self.status)

    async def load(self) -> None:
        self.show_state(await asyncio.to_thread(read_state))

    def show_state(self, state: KeyState) -> None:
        self.state = state
        text, role = describe(state)
        self.status.setText(text)
        set_props(self.status, role=role)
        usable = state.backend is not None
        self.edit.setEnabled(usable)
        self.reveal.setEnabled(usable)
        self.remove.setVisible(usable and state.stored)

    def _toggle_reveal(self) -> None:
        shown = self.reveal.isChecked()
        self.edit.setEchoMode(QLineEdit.EchoMode.Normal if shown else QLineEdit.EchoMode.Password)
        self.reveal.setText("Hide" if shown else "Show")

    def _remove(self) -> None:
        from app.ui.aio import spawn

        async def go() -> None:
            await asyncio.to_thread(keys.delete_api_key)
            await self.load()
        spawn(go())

    async def save(self) -> str | None:
        """Store the typed key (if any) in the keyring; an error message, or None."""
        value = self.edit.text().strip()
        if not value:
            return None
        try:
            await asyncio.to_thread(keys.set_api_key, value)
        except keys.KeyringUnavailable as err:
            return str(err)
        self.edit.clear()
        await self.load()
        return None
