"""The app and tray icons, painted (no image files): a rounded "b" tile with a status dot per state."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPen, QPixmap

STATE_DOT = {
    "idle": None,
    "working": "#2f6fed",
    "needs_user": "#f0a020",
    "no_extension": "#8a94a6",
    "error": "#d93a32",
}
TILE = {"no_extension": "#8a94a6"}


def _tile(size: int, state: str) -> QPixmap:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    inset = size * 0.06
    tile = QRectF(inset, inset, size - 2 * inset, size - 2 * inset)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(TILE.get(state, "#2f6fed")))
    painter.drawRoundedRect(tile, size * 0.22, size * 0.22)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.62))
    painter.setFont(font)
    painter.setPen(QColor("#ffffff"))
    painter.drawText(tile.adjusted(0, -size * 0.04, 0, 0), Qt.AlignmentFlag.AlignCenter, "b")
    dot = STATE_DOT.get(state)
    if dot:
        radius = size * 0.22
        centre = size - radius - inset * 0.2
        painter.setPen(QPen(QColor("#ffffff"), size * 0.06))
        painter.setBrush(QColor(dot))
        painter.drawEllipse(QRectF(centre - radius, centre - radius, 2 * radius, 2 * radius))
    if state == "no_extension":
        pen = QPen(QColor("#ffffff"), size * 0.08)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        painter.drawLine(int(size * 0.25), int(size * 0.75), int(size * 0.75), int(size * 0.25))
    painter.end()
    return pixmap


def state_icon(state: str) -> QIcon:
    icon = QIcon()
    for size in (16, 22, 24, 32, 48, 64, 128):
        icon.addPixmap(_tile(size, state))
    return icon


def app_icon() -> QIcon:
    return state_icon("idle")
