"""Settings → Tools: the active tier and the tools it allows, `browser` only when ticked."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QVBoxLayout, QWidget

from app.ui.widgets import label

TIERS = {"standard": "Standard: the agent may use the tools ticked below",
         "chat_only": "Chat only: answers from the model, no tools"}


class TierField(QWidget):
    """A tier picker over per-tool check boxes. In the standard tier `task` is always on and `browser` is on
    only when ticked; chat only allows no tool (and never implies `browser`)."""

    def __init__(self) -> None:
        super().__init__()
        self.tier = QComboBox()
        self.tier.setAccessibleName("Tier")
        for name, text in TIERS.items():
            self.tier.addItem(text, name)
        self.task_tool = QCheckBox("task: hand work to a subagent, which returns one summary")
        self.task_tool.setChecked(True)
        self.task_tool.setEnabled(False)
        self.browser_tool = QCheckBox("browser: let the agent use my browser (the browser subagent)")
        self.allowed = label("", "muted", wrap=True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.tier, self.task_tool, self.browser_tool, self.allowed):
            layout.addWidget(widget)
        self.tier.currentIndexChanged.connect(lambda _i: self._refresh())
        self.browser_tool.toggled.connect(lambda _on: self._refresh())
        self._refresh()

    def set_values(self, tier: str, browser: bool) -> None:
        self.tier.setCurrentIndex(max(0, self.tier.findData(tier)))
        self.browser_tool.setChecked(browser)
        self._refresh()

    def values(self) -> dict[str, object]:
        return {"tier": self.tier.currentData(), "tier_browser": self.browser_tool.isChecked()}

    def allowed_tools(self) -> list[str]:
        if self.tier.currentData() == "chat_only":
            return []
        return ["task", "browser"] if self.browser_tool.isChecked() else ["task"]

    def _refresh(self) -> None:
        standard = self.tier.currentData() == "standard"
        for box in (self.task_tool, self.browser_tool):
            box.setVisible(standard)
        tools = self.allowed_tools()
        self.allowed.setText("Allowed: " + (", ".join(tools) if tools else "no tools") + "."
                             + ("" if "browser" in tools else " The browser stays off unless ticked."))
