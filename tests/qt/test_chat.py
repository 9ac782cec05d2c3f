"""The chat window against the real core and the real anthropic SDK, talking to the scripted Messages API."""

from __future__ import annotations

import base64

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest

from app.ui.chat.bubble import MarkdownBlock, UserBubble
from app.ui.chat.task_card import TaskCard, Thumbnail
from tests.qt import policies
from tests.qt.conftest import make_core, until
from tests.qt.doubles import HangingBridge
from tests.unit.agent.doubles import RecordingBridge

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="


def type_and_send(window, text: str) -> None:
    window.composer.edit.setFocus()
    QTest.keyClicks(window.composer.edit, text)
    QTest.keyClick(window.composer.edit, Qt.Key.Key_Return)


async def finished(window, timeout: float = 15.0) -> None:
    await until(lambda: not window.session.running, timeout, "the turn finished")


def test_enter_sends_and_the_answer_streams_in_as_markdown(make_app, scripted, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.echo)

    async def body() -> None:
        window = (await make_app(make_core(home, server))).chat
        deltas: list[str] = []
        window.session.text_delta.connect(deltas.append)
        edit = window.composer.edit
        edit.setFocus()
        QTest.keyClicks(edit, "first line")
        QTest.keyClick(edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        QTest.keyClicks(edit, "second line")
        assert edit.toPlainText() == "first line\nsecond line", "Shift+Enter is a new line"
        QTest.keyClick(edit, Qt.Key.Key_Return)
        assert edit.toPlainText() == "", "Enter sends"
        assert window.composer.action.text() == "Stop", "the Send button becomes Stop at once"
        await finished(window)
        assert len(deltas) > 1, "the text arrived in several streamed pieces"
        bubbles = window.transcript.container.findChildren(UserBubble)
        assert [b.text.text() for b in bubbles] == ["first line\nsecond line"]
        turn = window.transcript.current
        block = turn.findChildren(MarkdownBlock)[0]
        assert "**Hello!**" in block.source and "Hello!" in block.text()
        assert block.textFormat() == Qt.TextFormat.MarkdownText, "rendered as Markdown, not shown as source"
        assert "1 model call" in turn.footer.text() and "out" in turn.footer.text()
        assert "≈ $" in turn.footer.text(), "a cost for a known model"
        assert window.composer.action.text() == "Send"
    run(body())


def test_a_task_card_fills_with_milestones_and_screenshots(make_app, scripted, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.one_task)
    core = make_core(home, server)
    core.chat_service.pool = RecordingBridge({"screenshot": {"data": PNG, "format": "png", "width": 2, "height": 2},
                                              "extract": {"markdown": "# Page", "elements": "", "text": "Page"}})

    async def body() -> None:
        window = (await make_app(core)).chat
        seen_steps: list[int] = []
        window.session.task_updated.connect(lambda task: seen_steps.append(task.steps))
        type_and_send(window, "read the page")
        await until(lambda: window.transcript.current.cards, message="a task card")
        card: TaskCard = next(iter(window.transcript.current.cards.values()))
        assert not card.expanded and card.status.text() == "Working…"
        await finished(window)
        assert seen_steps == [1, 2, 3], "milestones arrived one by one while the task ran"
        assert card.task.status == "completed" and card.status.text() == "Done"
        assert [m.action for m in card.task.milestones] == ["navigate", "screenshot", "extract"]
        assert card.meta.text().startswith("3 steps")
        QTest.mouseClick(card.toggle, Qt.MouseButton.LeftButton)
        assert card.expanded and card.body.isVisibleTo(card)
        thumbs = card.findChildren(Thumbnail)
        assert len(thumbs) == 1 and not thumbs[0].pixmap().isNull()
        assert base64.b64decode(thumbs[0].data_url.split(",", 1)[1])[:3] == b"\xff\xd8\xff", "kept as a JPEG"
        texts = [b.source for b in window.transcript.current.findChildren(MarkdownBlock)]
        assert texts[0].startswith("Let me look.") and texts[-1].startswith("Finished: Read the page.")
        assert len(server.calls_by("main")) == 2 and len(server.calls_by("subagent")) == 4
        assert "6 model calls" in window.transcript.current.footer.text(), "main and subagent calls both count"
    run(body())


def test_history_survives_a_restart(make_app, scripted, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.one_task)

    async def body() -> None:
        core = make_core(home, server)
        core.chat_service.pool = RecordingBridge()
        first = await make_app(core)
        type_and_send(first.chat, "read the page")
        await finished(first.chat)
        conversation = first.chat.session.conversation_id
        await first.close()
        second = await make_app(make_core(home, server))
        assert second.chat.session.conversation_id == conversation
        transcript = second.chat.transcript
        assert [b.text.text() for b in transcript.container.findChildren(UserBubble)] == ["read the page"]
        turn = transcript.current
        texts = [b.source for b in turn.findChildren(MarkdownBlock)]
        assert texts[0].startswith("Let me look.") and texts[-1].startswith("Finished: Read the page.")
        card = next(iter(turn.cards.values()))
        assert card.task.status == "completed" and card.task.steps == 3
        assert "model calls" in turn.footer.text()
        second.core.chat_service.pool = RecordingBridge()
        type_and_send(second.chat, "and again")
        await finished(second.chat)
        sent = server.calls_by("main")[-1].body["messages"]
        assert any("read the page" in str(m["content"]) for m in sent), "the restored history reaches the model"
    run(body())


def test_missing_api_key_guides_to_settings_and_the_demo(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        window = app.chat
        await until(lambda: "missing_key" in window.notices.cards
                    and window.notices.cards["missing_key"].isVisibleTo(window), message="the key card shown")
        card = window.notices.cards["missing_key"]
        assert set(card.buttons) == {"Open Settings", "Try the demo"}
        assert "kept in your system keyring" in card.body.text(), "a keyring is there (in memory): as Settings says"
        type_and_send(window, "hello")
        await finished(window)
        assert "API key" in window.transcript.current.error.text()
        await until(lambda: "missing_key" in window.notices.cards, message="the key card")
        card = window.notices.cards["missing_key"]
        QTest.mouseClick(card.buttons["Open Settings"], Qt.MouseButton.LeftButton)
        await until(lambda: app.settings is not None and app.settings.isVisible(), message="settings open")
    run(body())


def test_without_a_keyring_the_key_card_says_what_settings_says(make_app, home, run, monkeypatch):
    from app.ui.chat import window as chat_window

    monkeypatch.setattr(chat_window, "keyring_backend_name", lambda: None)

    async def body() -> None:
        app = await make_app(make_core(home))
        await until(lambda: "missing_key" in app.chat.notices.cards, message="the key card")
        text = app.chat.notices.cards["missing_key"].body.text()
        assert "no secure keyring" in text and "ANTHROPIC_API_KEY" in text and "kept in your system keyring" not in text
    run(body())


def test_no_extension_connected_shows_how_to_load_it(make_app, home, run, monkeypatch):
    import app.ui.chat.window as chat_window

    monkeypatch.setattr(chat_window, "NO_EXTENSION_GRACE_MS", 50)

    async def body() -> None:
        app = await make_app(make_core(home))
        await until(lambda: "no_extension" in app.chat.notices.cards, message="the guide appears")
        card = app.chat.notices.cards["no_extension"]
        assert "Load unpacked" in card.body.text() and "extension" in card.body.text()
        assert {"Open extensions page", "Copy folder path", "Start a bua browser"} <= set(card.buttons)
        QTest.mouseClick(card.buttons["Copy folder path"], Qt.MouseButton.LeftButton)
        assert QGuiApplication.clipboard().text().endswith("extension")
        assert app.chat.header.status.text() == "Browser not connected"
    run(body())


def test_stop_button_cancels_the_running_turn(make_app, scripted, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    server = scripted(policies.one_task)
    core = make_core(home, server)
    bridge = core.chat_service.pool = HangingBridge()

    async def body() -> None:
        window = (await make_app(core)).chat
        type_and_send(window, "read the page")
        await until(lambda: bridge.requests, message="the subagent's first browser action is pending")
        QTest.keyClick(window.composer.edit, Qt.Key.Key_Escape)
        await finished(window, timeout=5)
        assert window.transcript.current.error.text() == "Stopped by you."
        card = next(iter(window.transcript.current.cards.values()))
        assert card.task.status == "cancelled" and card.status.text() == "Stopped"
    run(body())
