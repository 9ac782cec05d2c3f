"""The confirmation card in the app, with every real part: the chat's agent (scripted model) clicks "Delete
account" on a fixture page in real headless Chromium (started by the app); the extension holds the click; the
task card, the popup and the tray show what, where, which element and the task's words; **Allow once** resumes the
held click (the page changes), **Deny** answers confirmation_required and the page stays as it was."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.browser.launch import BrowserNotFound, find_binary
from app.demo.scripted_model.conversation import first_user_text, steps, text, tool_use
from app.demo.scripted_model.server import Reply
from app.ui.chat.confirm_card import ConfirmCard
from tests.qt.conftest import make_core, until

try:
    find_binary()
except BrowserNotFound:
    pytest.skip("no Chromium/Chrome here (make browser-deps installs it)", allow_module_level=True)


@pytest.fixture(autouse=True)
def headless(monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")


def delete_account(body: dict[str, Any]) -> Reply:
    """Main: one task. Subagent: open the page in the prompt, click Delete account, read the status, report."""
    names = {t["name"] for t in body.get("tools") or []}
    done = steps(body)
    if "complete" in names:
        url = first_user_text(body).split()[-1]
        plan = [{"type": "navigate", "url": url}, {"type": "click", "selector": "#delete"}, {"type": "extract"}]
        if len(done) < len(plan):
            return Reply([tool_use("browser", plan[len(done)])], "tool_use")
        click = done[1].result
        status = next(line for line in done[2].result["result"]["markdown"].splitlines() if "Status:" in line)
        if not click.get("ok"):
            return Reply([tool_use("complete", {"status": "needs_user", "needs": "Confirm deleting the account",
                                                "summary": f"held: {click['error']['code']}; {status}"})], "tool_use")
        return Reply([tool_use("complete", {"status": "completed", "summary": status})], "tool_use")
    if not done:
        return Reply([text("On it."), tool_use("task", {"subagent_type": "browser", "description": "Close my old account",
                                                        "prompt": first_user_text(body)})], "tool_use")
    return Reply([text(f"Task: {done[-1].result.get('status')} — {done[-1].result.get('summary')}")])


@pytest.mark.parametrize("answer", ["Allow once", "Deny"])
def test_the_confirmation_card_resumes_or_refuses_the_held_click(make_app, scripted, home, run, fixture_server, answer):
    server = scripted(delete_account)
    core = make_core(home, server)
    url = fixture_server.url("/safety/account.html")

    async def body() -> None:
        app = await make_app(core)
        await app.controller.start_bua_browser()
        await app.core.pool.wait_for_bridge(45)
        window = app.chat
        window.composer.edit.setFocus()
        QTest.keyClicks(window.composer.edit, f"Close my old account at {url}")
        QTest.keyClick(window.composer.edit, Qt.Key.Key_Return)
        await until(lambda: window.findChildren(ConfirmCard), timeout=60, message="the card in the task card")
        card = window.findChildren(ConfirmCard)[0]
        assert "Click on 127.0.0.1" in card.title.text()
        assert "Delete account" in card.element.text() and "delete" in card.element.text()
        assert "Close my old account" in card.task_words.text()
        assert app.controller.state.value == "needs_user"
        app.open_popup()
        assert [c.request_id for c in app.popup.findChildren(ConfirmCard)] == [card.request_id], "the popup asks too"
        assert app.tray.status_text() == "Waiting for you: confirm — Click on 127.0.0.1?", "the tray says so"
        button = {"Allow once": card.allow_once, "Deny": card.deny}[answer]
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)
        await until(lambda: not window.session.running, timeout=60, message="the turn finished")
        assert not card.allow_once.isEnabled() and card.outcome.isVisibleTo(card)
        await until(lambda: not app.popup.findChildren(ConfirmCard), message="the popup's card went")
        task = next(iter(window.transcript.current.cards.values())).task
        if answer == "Allow once":
            assert "Allowed once" in card.outcome.text()
            assert task.status == "completed" and "account deleted" in (task.summary or ""), task.summary
        else:
            assert "Denied" in card.outcome.text()
            assert task.status == "needs_user" and "confirmation_required" in (task.summary or ""), task.summary
            assert "nothing done" in (task.summary or ""), "the page was not clicked"
        assert app.controller.state.value != "needs_user" or app.controller.needs_user
    run(body(), timeout=180)
