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


def beside(anchor: QRect, size: QSize, screen: QRect) -> QPoint:
    """Top-left of a window of `size` next to the window at `anchor` (the chat), not over it: to its right where
    the screen has room, else to its left, else against the screen's right edge; top-aligned with it and kept
    inside `screen` (the first-run guide opened partly off-screen, over the chat)."""
    y = max(screen.top() + MARGIN, min(anchor.top(), screen.bottom() - size.height() - MARGIN))
    if anchor.right() + MARGIN + size.width() <= screen.right() - MARGIN:
        return QPoint(anchor.right() + MARGIN, y)
    if anchor.left() - MARGIN - size.width() >= screen.left() + MARGIN:
        return QPoint(anchor.left() - MARGIN - size.width(), y)
    return QPoint(max(screen.left() + MARGIN, screen.right() - size.width() - MARGIN), y)
