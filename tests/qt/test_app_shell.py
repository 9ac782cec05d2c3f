"""The app as a whole: one instance per BUA_HOME, no-tray fallback, when `bua` can open a window."""

from __future__ import annotations

from app.ui.controller import AppState
from app.ui.platform_check import why_no_ui
from app.ui.single_instance import InstanceServer, forward_to_running
from installer.record import InstallRecord, save_record
from tests.qt.conftest import make_core, until


def test_a_second_launch_brings_the_first_forward(loop, run, home):
    server = InstanceServer(home)
    assert server.listen()
    activated: list[bool] = []
    server.activated.connect(lambda: activated.append(True))

    async def body() -> None:
        assert await loop.run_in_executor(None, forward_to_running, home)
        await until(lambda: activated, message="the first instance heard the second")
    run(body())
    server.close()
    assert not forward_to_running(home), "nobody answers once the first instance is gone"


def test_without_a_tray_the_chat_window_opens_and_says_so(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        assert not app.tray_available
        assert app.chat.isVisible() and app.chat.quit_on_close
        assert "no_tray" in app.chat.notices.cards
        app.chat.close()
        assert app.finished.done(), "closing the only window quits"
    run(body())


def test_first_run_guide_opens_when_the_host_is_not_registered(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        assert app.first_run is not None and app.first_run.isVisible()
        await until(lambda: app.first_run.facts is not None, message="facts read")
        assert app.first_run.ext_path.text() == str(app.first_run.facts.extension_dir)
        assert "Waiting for the extension" in app.first_run.connected.text()
    run(body())


def test_first_run_guide_opens_when_no_extension_says_hello_though_the_host_is_registered(make_app, home, run,
                                                                                       monkeypatch, tmp_path):
    manifest = tmp_path / "com.bua.native_host.json"
    manifest.write_text("{}")
    save_record(home, InstallRecord(manifests=[str(manifest)]))
    monkeypatch.setattr("app.ui.shell.HELLO_GRACE_S", 0.3)

    async def body() -> None:
        app = await make_app(make_core(home))
        assert app.first_run is None, "a running browser gets a moment to connect first"
        await until(lambda: app.first_run is not None and app.first_run.isVisible(), message="guide opened")
        await until(lambda: app.first_run.facts is not None, message="facts read")
        assert app.first_run.register.text() == "Register again" and "Done: registered" in app.first_run.host_status.text()
    run(body())


def test_why_no_ui_names_the_missing_display(monkeypatch):
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert "no display" in why_no_ui()
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    assert why_no_ui() is None


def test_the_tray_menu_opens_each_window_and_quits(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home), show=False)
        tray = app.tray
        assert not app.chat.isVisible()
        tray.open_chat_action.trigger()
        assert app.chat.isVisible()
        tray.popup_action.trigger()
        assert app.popup is not None and app.popup.isVisible()
        tray.settings_action.trigger()
        assert app.settings is not None and app.settings.isVisible()
        assert not app.finished.done()
        tray.quit_action.trigger()
        await until(lambda: app.finished.done(), message="Quit ends the app")
    run(body())


def test_the_tray_shows_a_problem_with_its_own_icon_and_text(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home), show=False)
        tray = app.tray
        before = tray.icon.icon().pixmap(22, 22).toImage()
        app.controller.set_error("cannot open the local socket: address in use")
        assert app.controller.state == AppState.ERROR
        assert tray.status_action.text() == "Problem: cannot open the local socket: address in use"
        assert tray.icon.icon().pixmap(22, 22).toImage() != before, "the icon changes with the state"
        app.controller.set_error(None)
        assert app.controller.state == AppState.NO_EXTENSION
        assert tray.icon.icon().pixmap(22, 22).toImage() == before
    run(body())
