"""The popup opens next to the tray icon, inside the screen, wherever the panel is."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize
from PySide6.QtWidgets import QAbstractButton

from app.ui.popup.placement import next_to_tray
from tests.qt.conftest import make_core, until

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


def test_beside_a_window_right_then_left_then_inside_the_screen():
    from app.ui.popup.placement import beside

    guide = QSize(600, 470)
    assert beside(QRect(100, 50, 700, 800), guide, SCREEN) == QPoint(100 + 699 + 8, 50)
    assert beside(QRect(1200, 50, 700, 800), guide, SCREEN) == QPoint(1200 - 8 - 600, 50)
    wide = beside(QRect(0, 700, 1900, 500), guide, SCREEN)
    assert wide.x() + guide.width() <= SCREEN.right() and wide.y() + guide.height() <= SCREEN.bottom(), wide


def test_the_first_run_guide_opens_beside_the_chat_and_grows_instead_of_squeezing(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.chat.show()
        app.open_first_run()
        guide = app.first_run
        await until(lambda: guide.facts is not None, message="the guide read the set-up facts")
        screen = guide.screen().availableGeometry()
        assert screen.contains(guide.frameGeometry()), (guide.frameGeometry(), screen)
        if screen.width() >= app.chat.frameGeometry().width() + guide.frameGeometry().width() + 24:
            assert not guide.frameGeometry().intersects(app.chat.frameGeometry()), "beside the chat, not over it"
        guide._ext_say("A status line of some length that appears under the buttons of step two, as a real one does.")
        await until(lambda: all(b.height() >= b.sizeHint().height() for b in guide.findChildren(QAbstractButton)
                                if b.isVisibleTo(guide)),
                    message="no button squeezed below its height")
    run(body())
