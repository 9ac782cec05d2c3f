"""The popup opens next to the tray icon, inside the screen, wherever the panel is."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize

from app.ui.popup.placement import next_to_tray

SCREEN = QRect(0, 0, 1920, 1080)
SIZE = QSize(720, 520)


def test_above_an_icon_in_a_bottom_panel_and_kept_on_screen():
    spot = next_to_tray(QRect(1880, 1050, 24, 24), SIZE, SCREEN)
    assert spot == QPoint(1920 - 1 - 720 - 8, 1050 - 520 - 8)


def test_below_an_icon_in_a_top_panel():
    spot = next_to_tray(QRect(900, 2, 24, 24), SIZE, SCREEN)
    assert spot == QPoint(911 - 360, 2 + 23 + 8)  # QRect(900, 2, 24, 24): centre x 911, bottom 25


def test_the_left_edge_and_an_unknown_icon_position():
    assert next_to_tray(QRect(2, 1050, 24, 24), SIZE, SCREEN).x() == 8
    assert next_to_tray(QRect(), SIZE, SCREEN) is None, "where the platform does not say, the popup opens as usual"


def test_a_tray_click_opens_the_popup_next_to_the_icon(make_app, home, run):
    from PySide6.QtGui import QGuiApplication

    from tests.qt.conftest import make_core

    async def body() -> None:
        app = await make_app(make_core(home), show=False)
        screen = QGuiApplication.primaryScreen().availableGeometry()
        icon = QRect(screen.right() - 30, screen.bottom() - 26, 24, 24)
        app.tray.clicked_at = icon
        app.open_popup()
        assert app.popup.pos() == next_to_tray(icon, app.popup.size(), screen)
        assert app.tray.clicked_at.isEmpty(), "used once"
    run(body())
