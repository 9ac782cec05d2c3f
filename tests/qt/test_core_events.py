"""The tray follows the core, whoever used the verb: a `bua blocklist add` (the core's `block` verb) shows in the
open popup, and a `bua stop` clears what waited on the person, as the popup's own buttons do."""

from __future__ import annotations

from app.ui.controller import AppState
from tests.qt.conftest import make_core, until


def test_a_blocklist_change_made_outside_the_popup_shows_in_it(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_popup()
        popup = app.popup
        await until(lambda: popup.blocklist.count.text(), message="blocklist loaded")
        await app.core.block("news.example")
        await until(lambda: popup.blocklist.patterns() == ["news.example"], message="the popup shows the entry")
        assert popup.tabs.tabText(2) == "Blocklist (1)"
        await app.core.unblock("news.example")
        await until(lambda: popup.blocklist.patterns() == [], message="and its removal")
    run(body())


def test_stop_all_from_anywhere_clears_what_waits_on_the_person(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        controller = app.controller
        controller.set_needs_user("conv-1", {"needs": "Log in", "tab_id": 7})
        assert controller.state == AppState.NEEDS_USER
        heard: list[bool] = []
        controller.needs_user_changed.connect(lambda: heard.append(True))
        await app.core.stop(None)
        assert controller.needs_user == {} and heard == [True]
        assert controller.state != AppState.NEEDS_USER
        controller.set_needs_user("conv-2", {"needs": "Log in", "tab_id": 8})
        await app.core.stop("another-task")
        assert list(controller.needs_user) == ["conv-2"], "stopping one other task leaves it"
    run(body())
