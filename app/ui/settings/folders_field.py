"""Settings → Files: the folders the agent may upload files from. Empty means no uploads at all; the agent then
asks the person (needs_user) naming the folder to allow."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QListWidget, QPushButton, QVBoxLayout, QWidget

from app.ui.widgets import label

NONE_ALLOWED = "No folder is allowed: the agent cannot upload files."


class FoldersField(QWidget):
    """A list of folders with Add folder… (a non-modal-blocking folder picker) and Remove."""

    def __init__(self) -> None:
        super().__init__()
        self.list = QListWidget()
        self.list.setAccessibleName("Folders the agent may upload from")
        self.list.setMaximumHeight(96)
        self.add = QPushButton("Add folder…")
        self.remove = QPushButton("Remove")
        self.remove.setEnabled(False)
        self.status = label(NONE_ALLOWED, "muted", wrap=True)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.add)
        buttons.addWidget(self.remove)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        self.add.clicked.connect(self._pick)
        self.remove.clicked.connect(self._remove_selected)
        self.list.itemSelectionChanged.connect(lambda: self.remove.setEnabled(bool(self.list.selectedItems())))
        self._picker: QFileDialog | None = None

    def set_values(self, folders: object) -> None:
        self.list.clear()
        for folder in folders if isinstance(folders, list) else []:
            if isinstance(folder, str) and folder:
                self.add_folder(folder)
        self._refresh()

    def values(self) -> list[str]:
        return [self.list.item(i).text() for i in range(self.list.count())]

    def add_folder(self, folder: str) -> None:
        """Add a folder (absolute, resolved; once)."""
        path = str(Path(folder).expanduser().resolve())
        if path not in self.values():
            self.list.addItem(path)
        self._refresh()

    def _pick(self) -> None:
        # open() rather than the static getExistingDirectory: no nested event loop in the app's loop.
        self._picker = QFileDialog(self, "Allow uploads from this folder")
        self._picker.setFileMode(QFileDialog.FileMode.Directory)
        self._picker.setOption(QFileDialog.Option.ShowDirsOnly, True)
        self._picker.fileSelected.connect(self.add_folder)
        self._picker.open()

    def _remove_selected(self) -> None:
        for item in self.list.selectedItems():
            self.list.takeItem(self.list.row(item))
        self._refresh()

    def _refresh(self) -> None:
        count = self.list.count()
        self.status.setText(NONE_ALLOWED if count == 0 else
                            f"The agent may upload files from {'this folder' if count == 1 else 'these folders'} "
                            "and their subfolders, at most 50 MB each.")
