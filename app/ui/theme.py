"""Light and dark palettes that follow the system colour scheme, and the app's one stylesheet."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Colors:
    dark: bool
    window: str
    base: str
    text: str
    muted: str
    border: str
    accent: str
    accent_text: str
    accent_soft: str
    danger: str
    warning: str
    warning_soft: str
    success: str
    code: str


LIGHT = Colors(False, "#f6f7f9", "#ffffff", "#1d2330", "#667085", "#d9dde5", "#2f6fed", "#ffffff", "#e8efff",
               "#c7362f", "#b45f06", "#fff4e5", "#1f8a4c", "#f1f3f6")
DARK = Colors(True, "#1c1f26", "#252932", "#e7eaf0", "#9aa3b2", "#3a404c", "#6f9bff", "#0d1526", "#263555",
              "#ff6b61", "#f0a84b", "#3a2e1c", "#4cc38a", "#2d323d")


def system_is_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def current(dark: bool | None = None) -> Colors:
    return DARK if (system_is_dark() if dark is None else dark) else LIGHT


def palette_for(c: Colors) -> QPalette:
    p = QPalette()
    role = QPalette.ColorRole
    for r, value in ((role.Window, c.window), (role.Base, c.base), (role.AlternateBase, c.code),
                     (role.WindowText, c.text), (role.Text, c.text), (role.Button, c.base),
                     (role.ButtonText, c.text), (role.Highlight, c.accent), (role.HighlightedText, c.accent_text),
                     (role.ToolTipBase, c.base), (role.ToolTipText, c.text), (role.PlaceholderText, c.muted),
                     (role.Link, c.accent), (role.Mid, c.border), (role.Midlight, c.border)):
        p.setColor(r, QColor(value))
    for r in (role.WindowText, role.Text, role.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, r, QColor(c.muted))
    return p


def stylesheet(c: Colors) -> str:
    return f"""
QFrame#card, QFrame#taskCard {{ background: {c.base}; border: 1px solid {c.border}; border-radius: 8px; }}
QFrame#userBubble {{ background: {c.accent_soft}; border-radius: 10px; }}
QFrame#notice {{ background: {c.warning_soft}; border: 1px solid {c.warning}; border-radius: 8px; }}
QFrame#notice[tone="info"] {{ background: {c.accent_soft}; border-color: {c.accent}; }}
QFrame#notice[tone="error"] {{ border-color: {c.danger}; }}
QFrame#handoff {{ background: {c.warning_soft}; border: 1px solid {c.warning}; border-radius: 8px; }}
QFrame#composer {{ background: {c.base}; border: 1px solid {c.border}; border-radius: 10px; }}
QFrame#composer QPlainTextEdit {{ border: none; background: transparent; }}
QFrame#header {{ background: {c.base}; border-bottom: 1px solid {c.border}; }}
QLabel[role="muted"] {{ color: {c.muted}; }}
QLabel[role="title"] {{ font-size: 15px; font-weight: 600; }}
QLabel[role="section"] {{ font-weight: 600; }}
QLabel[role="code"] {{ font-family: monospace; background: {c.code}; border-radius: 4px; padding: 3px 6px; }}
QLabel[role="error"] {{ color: {c.danger}; }}
QLabel[role="ok"] {{ color: {c.success}; }}
QLabel[role="chip"] {{ border-radius: 9px; padding: 1px 8px; background: {c.code}; color: {c.muted}; }}
QLabel[role="chip"][tone="ok"] {{ background: {c.success}; color: {c.base}; }}
QLabel[role="chip"][tone="warn"] {{ background: {c.warning}; color: {c.base}; }}
QLabel[role="chip"][tone="error"] {{ background: {c.danger}; color: {c.base}; }}
QLabel[role="chip"][tone="busy"] {{ background: {c.accent}; color: {c.accent_text}; }}
QPushButton {{ padding: 5px 12px; border-radius: 6px; border: 1px solid {c.border}; background: {c.base}; }}
QPushButton:hover {{ border-color: {c.accent}; }}
QPushButton:focus {{ border: 1px solid {c.accent}; }}
QPushButton:disabled {{ color: {c.muted}; }}
QPushButton[kind="primary"] {{ background: {c.accent}; color: {c.accent_text}; border-color: {c.accent}; }}
QPushButton[kind="danger"] {{ background: {c.danger}; color: {c.base}; border-color: {c.danger}; }}
QPushButton[kind="flat"] {{ border: none; background: transparent; padding: 2px 4px; text-align: left; }}
QPushButton[kind="link"] {{ border: none; background: transparent; color: {c.accent}; padding: 0; }}
QScrollArea#transcript, QScrollArea#transcript > QWidget > QWidget {{ background: {c.window}; border: none; }}
QLineEdit, QPlainTextEdit {{ padding: 4px 6px; border: 1px solid {c.border}; border-radius: 6px;
    background: {c.base}; }}
QLineEdit:focus {{ border-color: {c.accent}; }}
QTreeWidget, QTableWidget, QListWidget {{ border: 1px solid {c.border}; border-radius: 6px; background: {c.base}; }}
QListWidget::item {{ padding: 5px 6px; }}
QListWidget::item:selected, QTreeWidget::item:selected, QTableWidget::item:selected {{
    background: {c.accent_soft}; color: {c.text}; }}
QHeaderView::section {{ background: {c.window}; border: none; border-bottom: 1px solid {c.border};
    padding: 4px 6px; color: {c.muted}; }}
QTabWidget::pane {{ border: none; }}
QTabBar::tab {{ padding: 6px 14px; border: none; border-bottom: 2px solid transparent; color: {c.muted}; }}
QTabBar::tab:selected {{ color: {c.text}; border-bottom-color: {c.accent}; }}
QMenu {{ background: {c.base}; border: 1px solid {c.border}; padding: 4px; }}
QMenu::item {{ padding: 6px 24px 6px 12px; border-radius: 4px; }}
QMenu::item:selected {{ background: {c.accent_soft}; }}
QMenu::item:disabled {{ color: {c.muted}; }}
QMenu::separator {{ height: 1px; background: {c.border}; margin: 4px 6px; }}
"""


def apply(app: QApplication, dark: bool | None = None) -> Colors:
    """Fusion with our palette for the system scheme (or the one asked for); again when the scheme changes."""
    colors = current(dark)
    app.setStyle("Fusion")
    app.setPalette(palette_for(colors))
    app.setStyleSheet(stylesheet(colors))
    return colors


def follow_system(app: QApplication) -> None:
    apply(app)
    QGuiApplication.styleHints().colorSchemeChanged.connect(lambda _scheme: apply(app))
