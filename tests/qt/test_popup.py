"""The popup: blocklist editor, live sessions table, milestones by task, hand-offs; and the tray's Stop all."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.agent.task_board import Milestone
from app.bridge.bridge import BridgeInfo
from app.protocol.envelope import Event
from app.ui.chat.handoff_card import HandoffCard
from app.ui.controller import AppState
from tests.qt import policies
from tests.qt.conftest import make_core, until
from tests.qt.doubles import HangingBridge


class FakeBrowser:
    """Stands in for a connected BrowserBridge as the source of session events."""

    info = BridgeInfo(profile_id="profile-1", browser="chromium", extension_version="0.1.0")


def session_event(core, kind: str, **data) -> None:
    core.pool.dispatch_event(FakeBrowser(), Event(type=kind, data=data))


def spy(monkeypatch, obj, name: str) -> list[tuple]:
    calls: list[tuple] = []
    original = getattr(obj, name)

    async def wrapper(*args):
        calls.append(args)
        return await original(*args)
    monkeypatch.setattr(obj, name, wrapper)
    return calls


def test_blocklist_add_and_remove_update_the_store_and_push_to_browsers(make_app, home, run, monkeypatch):
    async def body() -> None:
        app = await make_app(make_core(home))
        pushes = spy(monkeypatch, app.core, "set_blocklist_changed")
        app.open_popup()
        popup = app.popup
        await until(lambda: popup.blocklist.count.text(), message="blocklist loaded")
        editor = popup.blocklist
        popup.tabs.setCurrentWidget(editor)
        QTest.keyClicks(editor.entry, "not a domain")
        assert not editor.add_button.isEnabled() and "not" in editor.message.text()
        editor.entry.clear()
        QTest.keyClicks(editor.entry, "*.Bank.Example")
        assert editor.add_button.isEnabled() and editor.message.text() == "Will block *.bank.example."
        QTest.keyClick(editor.entry, Qt.Key.Key_Return)
        await until(lambda: editor.patterns() == ["*.bank.example"], message="the list shows the entry")
        assert app.core.store.blocklist() == ["*.bank.example"]
        assert len(pushes) == 1, "the new list went to every browser (ending sessions there)"
        assert popup.tabs.tabText(2) == "Blocklist (1)"
        editor.list.setCurrentRow(0)
        QTest.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
        await until(lambda: editor.patterns() == [], message="removed from the list")
        assert app.core.store.blocklist() == [] and len(pushes) == 2
        assert editor.count.text() == "Nothing blocked yet."
    run(body())


def test_sessions_table_follows_session_events_and_end_ends_one(make_app, home, run, monkeypatch):
    async def body() -> None:
        app = await make_app(make_core(home))
        ends = spy(monkeypatch, app.core, "end_session")
        app.open_popup()
        view = app.popup.sessions
        assert view.currentIndex() == 0, "the empty state explains what will appear"
        app.core.board.start("c-1", "Collect candidate contacts")
        session_event(app.core, "session_started", task_id="c-1", tab_id=11, url="https://jobs.example/list",
                      title="Candidates", domain="jobs.example")
        session_event(app.core, "session_started", task_id="c-1", tab_id=12, url="https://mail.example/",
                      title="Inbox", domain="mail.example")
        assert view.table.rowCount() == 2 and view.currentIndex() == 1
        assert [view.table.item(0, c).text() for c in range(3)] == [
            "Collect candidate contacts", "jobs.example", "Candidates"]
        assert view.table.item(0, 3).text() == "just now"
        assert app.popup.tabs.tabText(1) == "Sessions (2)"
        session_event(app.core, "navigated", task_id="c-1", tab_id=11, url="https://jobs.example/42",
                      title="Jane Doe")
        assert view.table.item(0, 2).text() == "Jane Doe"
        session_event(app.core, "action_done", task_id="c-1", tab_id=11, action="click", ok=True)
        session_event(app.core, "action_done", task_id="c-1", tab_id=12, action="type", ok=False)
        assert [view.table.item(r, 4).text() for r in range(2)] == ["click, just now", "type (failed), just now"]
        QTest.mouseClick(view.table.cellWidget(1, 5), Qt.MouseButton.LeftButton)
        await until(lambda: ends, message="End called the core")
        assert ends == [("c-1", 12)]
        session_event(app.core, "session_ended", task_id="c-1", tab_id=12, reason="ended_by_user")
        assert view.table.rowCount() == 1
        session_event(app.core, "tab_closed", task_id="c-1", tab_id=11)
        session_event(app.core, "session_ended", task_id="c-1", tab_id=11, reason="tab_closed")
        assert view.table.rowCount() == 0 and view.currentIndex() == 0
        assert [(e["tab_id"], e["reason"]) for e in app.core.sessions.ended] == [(12, "ended_by_user"), (11, "tab_closed")], \
            "a closed tab's two events end its session once"
        assert app.popup.tabs.tabText(1) == "Sessions"
    run(body())


def test_milestones_are_grouped_by_task_newest_first(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        board = app.core.board
        app.open_popup()
        tree = app.popup.activity.tree
        board.start("c-1", "Collect candidate contacts")
        board.post_milestone(Milestone("c-1", 1, "navigate", "Opened the candidates list", at=100.0))
        board.post_milestone(Milestone("c-1", 2, "extract", "Read 12 candidates", at=101.0))
        board.post_milestone(Milestone("c-1", 3, "click", "Could not click “Next”: covered", at=102.0, ok=False))
        board.finish("c-1", "completed")
        board.start("c-2", "Check the inbox")
        board.post_milestone(Milestone("c-2", 1, "navigate", "Opened the inbox"))
        assert tree.topLevelItemCount() == 2
        newest, older = tree.topLevelItem(0), tree.topLevelItem(1)
        assert newest.text(0) == "Check the inbox — working"
        assert older.text(0) == "Collect candidate contacts — done"
        assert older.text(1).startswith("3 steps · ")
        assert [(older.child(i).text(0), older.child(i).text(1)) for i in range(older.childCount())] == [
            ("3. Could not click “Next”: covered", "failed"), ("2. Read 12 candidates", "done"),
            ("1. Opened the candidates list", "done")]
    run(body())


def press_stop_all(app, how: str) -> None:
    if how == "tray menu":
        app.tray.stop_all_action.trigger()
    elif how == "popup button":
        app.open_popup()
        QTest.mouseClick(app.popup.stop_all, Qt.MouseButton.LeftButton)
    elif how == "chat header":
        assert app.chat.header.stop_all.isVisible(), "offered while something runs"
        QTest.mouseClick(app.chat.header.stop_all, Qt.MouseButton.LeftButton)
    else:
        app.chat.activateWindow()
        assert QTest.qWaitForWindowActive(app.chat, 2000), "the chat window takes the keyboard"
        QTest.keyClick(app.chat.composer.edit, Qt.Key.Key_X,
                       Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)


@pytest.mark.parametrize("how", ["tray menu", "popup button", "chat header", "Ctrl+Shift+X"])
def test_stop_all_cancels_a_running_task(make_app, scripted, home, run, monkeypatch, how):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.one_task)
    core = make_core(home, server)
    bridge = core.chat_service.pool = HangingBridge()

    async def body() -> None:
        app = await make_app(core)
        menu = [a.text() for a in app.tray.menu.actions() if a.text()]
        assert menu[1:] == ["Open chat", "Stop all", "Sessions && blocklist", "Settings…", "Quit bua"]
        assert app.controller.state == AppState.NO_EXTENSION
        app.chat.session.send("read the page")
        await until(lambda: bridge.requests, message="a browser action is pending")
        assert app.controller.state == AppState.WORKING and "Working" in app.tray.status_action.text()
        press_stop_all(app, how)
        await until(lambda: not app.chat.session.running, timeout=5, message="the turn ended")
        turn = app.chat.transcript.current
        assert turn.error.text() == "Stopped by you."
        assert next(iter(turn.cards.values())).task.status == "cancelled"
        assert not app.core.controls.running
        assert app.controller.state == AppState.NO_EXTENSION
    run(body())


def test_needs_user_hands_off_in_chat_popup_and_tray(make_app, scripted, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.needs_user)
    core = make_core(home, server)
    from tests.unit.agent.doubles import RecordingBridge

    core.chat_service.pool = RecordingBridge()

    async def body() -> None:
        app = await make_app(core)
        app.chat.session.send("read the page")
        await until(lambda: not app.chat.session.running, message="the turn ended")
        card = app.chat.transcript.current.findChildren(HandoffCard)[0]
        assert card.needs.text() == "Log in to the site"
        assert card.show_tab.isEnabled() and card.resume.isEnabled()
        assert app.controller.state == AppState.NEEDS_USER
        assert "Waiting for you: Log in to the site" in app.tray.status_action.text()
        app.open_popup()
        popup_cards = app.popup.handoffs.findChildren(HandoffCard)
        assert len(popup_cards) == 1 and app.popup.handoffs.isVisibleTo(app.popup)
        QTest.mouseClick(card.show_tab, Qt.MouseButton.LeftButton)
        await until(lambda: "Switch to the tab" in card.hint.text() or card.hint.text() == "",
                    message="Show tab answered")
        QTest.mouseClick(popup_cards[0].resume, Qt.MouseButton.LeftButton)
        await until(lambda: not app.controller.needs_user, message="the hand-off is cleared")
        await until(lambda: len(app.chat.transcript.turns) == 2, message="the follow-up turn started")
        assert not card.resume.isEnabled(), "the chat's card shows it was resumed"
        await until(lambda: not app.chat.session.running, message="the follow-up ended")
    run(body())
