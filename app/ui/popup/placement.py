"""Where the popup opens when the tray icon is clicked: next to the icon, inside the screen (no Qt widgets here,
only geometry, so it is testable on its own)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize

MARGIN = 8


def next_to_tray(tray: QRect, size: QSize, screen: QRect) -> QPoint | None:
    """Top-left of a popup of `size` beside the tray icon at `tray`: above it when the icon is in the lower half
    of the screen (a bottom panel), below it otherwise, centred on it and kept inside `screen`. None when the
    platform does not say where the icon is (an empty rect)."""
    if tray.isEmpty() or screen.isEmpty():
        return None
    x = tray.center().x() - size.width() // 2
    if tray.center().y() > screen.center().y():
        y = tray.top() - size.height() - MARGIN
    else:
        y = tray.bottom() + MARGIN
    x = max(screen.left() + MARGIN, min(x, screen.right() - size.width() - MARGIN))
    y = max(screen.top() + MARGIN, min(y, screen.bottom() - size.height() - MARGIN))
    return QPoint(x, y)
