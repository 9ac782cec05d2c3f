"""Settings → Ask before acting: strict mode (app.safety.strict_mode) off, on every site, or on the sites listed."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QLineEdit, QVBoxLayout, QWidget

from app.safety.strict_mode import StrictMode
from app.ui.widgets import label

CHOICES = {"off": "Only before sensitive requests (paying, sending, deleting, one site's data to another)",
           "all": "Before every request that can change something, on every site",
           "sites": "Before every request that can change something, on these sites:"}


class StrictField(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.choice = QComboBox()
        self.choice.setAccessibleName("Ask before acting")
        for name, text in CHOICES.items():
            self.choice.addItem(text, name)
        self.sites = QLineEdit()
        self.sites.setAccessibleName("Sites where bua asks before every request that can change something")
        self.sites.setPlaceholderText("shop.example, bank.example")
        self.note = label("A request can change something when it is not a plain read: a form sent, a POST, PUT or "
                          "DELETE, a beacon. Reading pages never asks.", "muted", wrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.choice, self.sites, self.note):
            layout.addWidget(widget)
        self.choice.currentIndexChanged.connect(lambda _i: self._refresh())
        self.loaded = StrictMode()
        self._refresh()

    def set_mode(self, mode: StrictMode) -> None:
        self.loaded = mode
        name = "all" if mode.all else "sites" if mode.sites else "off"
        self.choice.setCurrentIndex(self.choice.findData(name))
        self.sites.setText(", ".join(mode.sites))
        self._refresh()

    def values(self) -> tuple[bool, list[str]]:
        """(all sites, the sites listed): what app.core.verbs.set_strict_mode takes."""
        name = self.choice.currentData()
        sites = [s.strip() for s in self.sites.text().replace(";", ",").split(",") if s.strip()]
        return name == "all", sites if name == "sites" else []

    def changed(self) -> bool:
        """Whether the choice differs from what was loaded (only a change is stored and sent to the browsers)."""
        all_sites, sites = self.values()
        return (all_sites, tuple(sites)) != (self.loaded.all, self.loaded.sites)

    def mark_saved(self) -> None:
        all_sites, sites = self.values()
        self.loaded = StrictMode(all_sites, tuple(sites))

    def _refresh(self) -> None:
        self.sites.setVisible(self.choice.currentData() == "sites")
