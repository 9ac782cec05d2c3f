"""Light and dark follow the system's colour scheme; every control of the main windows is reachable by keyboard
and named for screen readers."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import QAbstractButton, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from app.ui import theme
from tests.qt.conftest import make_core, until


def test_the_palette_follows_the_system_scheme(qapp, monkeypatch):
    # The offscreen platform has no colour scheme of its own (setColorScheme is ignored there), so the system's
    # answer is stood in for and its change signal emitted as a desktop would.
    hints = QGuiApplication.styleHints()
    dark = [False]
    monkeypatch.setattr(theme, "system_is_dark", lambda: dark[0])
    theme.follow_system(qapp)
    try:
        dark[0] = True
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Dark)
        assert qapp.palette().color(QPalette.ColorRole.Window).name() == theme.DARK.window
        dark[0] = False
        hints.colorSchemeChanged.emit(Qt.ColorScheme.Light)
        assert qapp.palette().color(QPalette.ColorRole.Window).name() == theme.LIGHT.window
    finally:
        theme.apply(qapp, dark=False)


def controls(window) -> list:
    kinds = (QAbstractButton, QComboBox, QLineEdit, QPlainTextEdit, QTextEdit)
    return [w for w in window.findChildren(QWidget)
            if isinstance(w, kinds) and w.window() is window and w.isVisibleTo(window)]


def test_every_visible_control_takes_the_keyboard_and_has_a_name(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_popup()
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        for window in (app.chat, app.popup, app.settings):
            found = controls(window)
            assert found, window
            for control in found:
                assert control.focusPolicy() & Qt.FocusPolicy.TabFocus, (window.windowTitle(), control)
                name = control.accessibleName() or getattr(control, "text", lambda: "")() \
                    or getattr(control, "placeholderText", lambda: "")() or control.toolTip()
                assert name, (window.windowTitle(), type(control).__name__, control.objectName())
        assert app.chat.minimumWidth() >= 360 and app.chat.width() >= 480, "a sensible chat size"
        assert app.chat.header.stop_all.isVisible(), "Stop all is there before any browser connects"
        for window in (app.chat, app.popup, app.settings):
            # Qt adds the application's display name ("… — bua") itself: a title that says it too reads twice.
            assert window.windowTitle() and "bua" not in window.windowTitle().lower(), window.windowTitle()
    run(body())
