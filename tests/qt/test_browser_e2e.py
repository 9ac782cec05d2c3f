"""The app with every real part: "Try the demo" in the chat window runs the seed scenario in real headless
Chromium (started by the app, real extension and native host), and the popup's blocklist reaches the extension."""

from __future__ import annotations

import json

import pytest

from app.browser.launch import BrowserNotFound, find_binary
from app.demo.site_server import SITE
from app.protocol.errors import ErrorCode
from app.ui.chat.bubble import MarkdownBlock
from tests.harness.actions import pool_request
from tests.qt.conftest import make_core, until

try:
    find_binary()
except BrowserNotFound:
    pytest.skip("no Chromium/Chrome here (make browser-deps installs it)", allow_module_level=True)

CANDIDATES = json.loads((SITE / "candidates.json").read_text())


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)


def test_try_the_demo_runs_the_seed_scenario_from_the_chat_window(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        window = app.chat
        await until(lambda: "missing_key" in window.notices.cards, message="the key card")
        card = window.notices.cards["missing_key"]
        card.buttons["Try the demo"].click()
        await until(lambda: window.session.running, timeout=60, message="the demo turn started")
        await until(lambda: window.transcript.current.cards, timeout=60, message="the task card appeared")
        task_card = next(iter(window.transcript.current.cards.values()))
        await until(lambda: task_card.task.steps >= 3, timeout=60, message="live milestones")
        assert task_card.status.text() == "Working…"
        await until(lambda: not window.session.running, timeout=120, message="the demo finished")
        turn = window.transcript.current
        assert turn.error.text() == "", turn.error.text()
        assert task_card.task.status == "completed"
        assert 8 <= task_card.task.steps <= 16, "navigate, extract, then View, wait (its change list) and Close each"
        text = "\n".join(block.source for block in turn.findChildren(MarkdownBlock))
        for candidate in CANDIDATES[:3]:
            assert candidate["email"] in text
        assert app.controller.browser_count == 1, "the app's own browser connected"
        assert app.controller.launched, "and the app will stop it at quit"
        assert len(app.core.board.tasks[window.session.conversation_id].milestones) >= task_card.task.steps
    run(body(), timeout=240)


def test_blocklist_from_the_popup_reaches_the_extension(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        await app.controller.start_bua_browser()
        await app.core.pool.wait_for_bridge(45)
        bridge = app.core.pool.bridges[0]
        probe = await bridge.control("set_blocklist", {"patterns": []})
        if not probe.ok and "not implemented" in (probe.error.message if probe.error else ""):
            pytest.skip("this extension version does not apply set_blocklist yet")
        app.open_popup()
        editor = app.popup.blocklist
        editor.entry.setText("blocked.example")
        editor.add()
        await until(lambda: app.core.store.blocklist() == ["blocked.example"], message="stored")
        await until(lambda: "Blocked" in editor.message.text(), message="pushed")
        answer = await pool_request(app.core.pool, {"type": "navigate", "url": "https://www.blocked.example/"}, "t-block")
        assert not answer.ok and answer.error.code == ErrorCode.BLOCKED
        editor.list.setCurrentRow(0)
        editor.remove_selected()
        await until(lambda: app.core.store.blocklist() == [], message="removed")
        await until(lambda: "Unblocked" in editor.message.text(), message="pushed again")
        answer = await pool_request(app.core.pool, {"type": "navigate", "url": "https://www.blocked.example/"}, "t-block")
        assert answer.ok or answer.error.code != ErrorCode.BLOCKED
    run(body(), timeout=120)
