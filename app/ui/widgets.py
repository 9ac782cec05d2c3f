"""Small helpers for styled labels and buttons (styles live in theme.stylesheet, keyed by properties)."""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget


def repolish(widget: QWidget) -> None:
    widget.style().unpolish(widget)
    widget.style().polish(widget)


def set_props(widget: QWidget, **props: str | None) -> QWidget:
    for key, value in props.items():
        widget.setProperty(key, value)
    repolish(widget)
    return widget


def label(text: str = "", role: str | None = None, *, wrap: bool = False, rich: bool = False,
          selectable: bool = False) -> QLabel:
    widget = QLabel(text)
    if role:
        widget.setProperty("role", role)
    widget.setWordWrap(wrap)
    widget.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    if rich:
        widget.setOpenExternalLinks(True)
    if selectable:
        widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return widget


def chip(text: str, tone: str | None = None) -> QLabel:
    widget = label(text, "chip")
    if tone:
        widget.setProperty("tone", tone)
    return widget


def button(text: str, on_click: Callable[[], object] | None = None, kind: str | None = None,
           tip: str | None = None) -> QPushButton:
    widget = QPushButton(text)
    if kind:
        widget.setProperty("kind", kind)
    if tip:
        widget.setToolTip(tip)
    if on_click is not None:
        widget.clicked.connect(lambda _checked=False: on_click())
    widget.setCursor(Qt.CursorShape.PointingHandCursor)
    return widget


def row(*items: QWidget | None, stretch_first: bool = False, stretch_last: bool = False,
        spacing: int = 8) -> QHBoxLayout:
    layout = QHBoxLayout()
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(spacing)
    if stretch_first:
        layout.addStretch(1)
    for item in items:
        if item is not None:
            layout.addWidget(item)
    if stretch_last:
        layout.addStretch(1)
    return layout


def shortcut(keys: QKeySequence | QKeySequence.StandardKey | str, parent: QWidget, slot: Callable[[], object]) -> QShortcut:
    """A keyboard shortcut on `parent` that calls `slot`."""
    sequence = keys if isinstance(keys, QKeySequence) else QKeySequence(keys)
    made = QShortcut(sequence, parent)
    made.activated.connect(slot)
    return made
