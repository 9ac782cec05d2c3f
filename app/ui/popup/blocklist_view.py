"""The per-site blocklist: add (validated as you type), remove, list. Changes reach every browser at once."""

from __future__ import annotations

from typing import Awaitable, Callable

from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QLineEdit, QListWidget, QVBoxLayout, QWidget

from app.store.blocklist import InvalidEntry, normalise_entry
from app.ui.aio import spawn
from app.ui.widgets import button, label, row, set_props, shortcut

Block = Callable[[str], Awaitable[str]]
Unblock = Callable[[str], Awaitable[None]]


class BlocklistEditor(QWidget):
    def __init__(self, block: Block, unblock: Unblock) -> None:
        super().__init__()
        self._block = block
        self._unblock = unblock
        self.entry = QLineEdit()
        self.entry.setPlaceholderText("bank.example  or  *.bank.example")
        self.entry.setAccessibleName("Site to block")
        self.entry.textChanged.connect(self._validate)
        self.entry.returnPressed.connect(self.add)
        self.add_button = button("Block", self.add, kind="primary")
        self.add_button.setEnabled(False)
        self.message = label("", "muted", wrap=True)
        self.list = QListWidget()
        self.list.setAccessibleName("Blocked sites")
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.remove_button = button("Remove", self.remove_selected, tip="Unblock the selected site (Delete)")
        self.remove_button.setEnabled(False)
        shortcut(QKeySequence.StandardKey.Delete, self.list, self.remove_selected)
        self.count = label("", "muted")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 8, 0, 0)
        layout.addWidget(label("bua never acts on a blocked site: it refuses to open it, and a session that lands "
                               "there ends at once. <b>bank.example</b> blocks the site and all its subdomains; "
                               "<b>*.bank.example</b> only the subdomains.", "muted", wrap=True, rich=True))
        layout.addLayout(row(self.entry, self.add_button))
        layout.addWidget(self.message)
        layout.addWidget(self.list, 1)
        footer = row(self.count)
        footer.addStretch(1)
        footer.addWidget(self.remove_button)
        layout.addLayout(footer)
        self.set_patterns([])

    def set_patterns(self, patterns: list[str]) -> None:
        self.list.clear()
        self.list.addItems(patterns)
        self.count.setText(f"{len(patterns)} blocked" if patterns else "Nothing blocked yet.")

    def patterns(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _say(self, text: str, role: str = "muted") -> None:
        self.message.setText(text)
        set_props(self.message, role=role)

    def _validate(self, text: str) -> str | None:
        if not text.strip():
            self._say("")
            self.add_button.setEnabled(False)
            return None
        try:
            pattern = normalise_entry(text)
        except InvalidEntry as err:
            self._say(str(err), "error")
            self.add_button.setEnabled(False)
            return None
        exists = pattern in self.patterns()
        self._say(f"{pattern} is already blocked." if exists else f"Will block {pattern}.")
        self.add_button.setEnabled(not exists)
        return None if exists else pattern

    def add(self) -> None:
        if self._validate(self.entry.text()) is None:
            return
        entry = self.entry.text()
        self.entry.clear()

        async def go() -> None:
            try:
                pattern = await self._block(entry)
            except InvalidEntry as err:
                self._say(str(err), "error")
                return
            self._say(f"Blocked {pattern}. Live sessions there have ended.", "ok")
        spawn(go(), lambda err: self._say(f"Could not block it: {err}", "error"))

    def remove_selected(self) -> None:
        items = self.list.selectedItems()
        if not items:
            return
        pattern = items[0].text()

        async def go() -> None:
            await self._unblock(pattern)
            self._say(f"Unblocked {pattern}.", "ok")
        spawn(go(), lambda err: self._say(f"Could not unblock it: {err}", "error"))

    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(bool(self.list.selectedItems()))
