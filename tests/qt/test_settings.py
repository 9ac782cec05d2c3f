"""Settings: the key goes to the keyring (never to disk), the rest to the store; no keyring is said plainly."""

from __future__ import annotations

from pathlib import Path

import keyring
from keyring.backends import fail
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit

from app.agent import keys
from tests.qt.conftest import make_core, until

SECRET = "sk-ant-test-0123456789-SECRET"


def files_containing(root: Path, needle: bytes) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]


def test_the_key_is_saved_through_keyring_and_never_to_disk(make_app, home, run, memory_keyring):
    async def body() -> None:
        app = await make_app(make_core(home))
        sent: list[tuple] = []
        broadcast = app.core.controls.broadcast

        async def recording(op, args, *rest):
            sent.append((op, args))
            return await broadcast(op, args, *rest)
        app.core.controls.broadcast = recording
        await until(lambda: "missing_key" in app.chat.notices.cards, message="the key card")
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        assert dialog.key.edit.echoMode() == QLineEdit.EchoMode.Password, "the key is masked"
        assert "No key yet" in dialog.key.status.text()
        QTest.keyClicks(dialog.key.edit, SECRET)
        dialog.main_model.setCurrentText("claude-opus-4-6")
        dialog.sub_model.setCurrentText("claude-haiku-4-5")
        dialog.base_url.setText("https://proxy.example/anthropic")
        assert dialog.tools.allowed.text() == "Allowed: task, browser."
        dialog.tools.browser_tool.setChecked(False)
        assert dialog.tools.allowed.text() == "Allowed: task. The browser stays off unless ticked."
        dialog.idle.setValue(10)
        assert dialog.confirm_wait.value() == 120, "the confirmation timeout's default"
        dialog.confirm_wait.setValue(45)
        assert dialog.budget.value() == 600, "the browser budget's default, in thousands of tokens"
        dialog.budget.setValue(250)
        assert await dialog.save()
        assert app.core.store.get_setting("confirmation_timeout_s") == 45
        assert memory_keyring.secrets == {(keys.SERVICE, keys.ACCOUNT): SECRET}
        assert keys.get_api_key() == SECRET
        store = app.core.store
        assert store.get_setting("main_model") == "claude-opus-4-6"
        assert store.get_setting("base_url") == "https://proxy.example/anthropic"
        assert store.get_setting("tier_browser") is False and store.get_setting("idle_threshold_s") == 600
        settings = app.core.agent_settings()
        assert settings.main_model == "claude-opus-4-6" and not settings.tier.allows("browser")
        assert settings.subagent_model == "claude-haiku-4-5"
        assert settings.subagent_token_budget == 250_000, "the browser budget reaches the agent"
        assert sent == [("configure", {"idle_threshold_s": 600})], "the idle threshold goes to the browsers at once"
        assert settings.tier.allows("task")
        await until(lambda: "missing_key" not in app.chat.notices.cards, message="the key notice goes away")
        assert dialog.key.edit.text() == ""
        assert "saved in the system keyring" in dialog.key.status.text()
        app.core.store.close()
        assert files_containing(home, SECRET.encode()) == [], "the key is in no file under BUA_HOME"
    run(body())


def test_the_chat_only_tier_allows_no_tool(make_app, home, run, memory_keyring):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        dialog.tools.tier.setCurrentIndex(dialog.tools.tier.findData("chat_only"))
        assert not dialog.tools.browser_tool.isVisible() and dialog.tools.allowed.text().startswith("Allowed: no tools.")
        assert await dialog.save()
        tier = app.core.agent_settings().tier
        assert not tier.allows("browser") and not tier.allows("task")
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        assert app.settings.tools.tier.currentData() == "chat_only", "the tier is loaded back"
    run(body())


def test_invalid_base_url_is_refused_with_a_reason(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        dialog.base_url.setText("proxy.example")
        assert not await dialog.save()
        assert "http://" in dialog.message.text() and dialog.isVisible()
        assert app.core.store.get_setting("base_url") is None
    run(body())


def test_without_a_keyring_it_says_so_and_points_to_the_env_variable(make_app, home, run):
    keyring.set_keyring(fail.Keyring())

    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        assert "No secure keyring" in dialog.key.status.text()
        assert "ANTHROPIC_API_KEY" in dialog.key.status.text()
        assert not dialog.key.edit.isEnabled()
    run(body())


def test_env_variable_is_reported_as_the_source(make_app, home, run, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")

    async def body() -> None:
        app = await make_app(make_core(home))
        assert "missing_key" not in app.chat.notices.cards
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        assert "environment" in app.settings.key.status.text()
    run(body())


def test_start_at_login_writes_an_autostart_entry(make_app, home, run):
    async def body() -> None:
        app = await make_app(make_core(home))
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        dialog.login.setFocus()
        QTest.keyClick(dialog.login, Qt.Key.Key_Space)
        assert await dialog.save()
        entry = home / "xdg-config" / "autostart" / "bua.desktop"
        assert entry.exists() and "Exec=" in entry.read_text() and f"BUA_HOME={home}" in entry.read_text()
        app.open_settings()
        assert dialog.loading and not dialog.login.isEnabled(), "no input until the stored values are read"
        assert not await dialog.save() and "still being read" in dialog.message.text(), "nor a save"
        await until(lambda: not dialog.loading, message="the stored settings are read")
        assert dialog.login.isChecked() and dialog.login.isEnabled()
        dialog.login.setFocus()
        QTest.keyClick(dialog.login, Qt.Key.Key_Space)
        assert await dialog.save()
        assert not entry.exists()
    run(body())


def test_ask_before_acting_is_stored_and_sent_to_the_browsers(make_app, home, run, memory_keyring):
    async def body() -> None:
        app = await make_app(make_core(home))
        sent: list[tuple] = []
        broadcast = app.core.controls.broadcast

        async def recording(op, args, *rest):
            sent.append((op, args))
            return await broadcast(op, args, *rest)
        app.core.controls.broadcast = recording
        app.open_settings()
        dialog = app.settings
        await until(lambda: not dialog.loading, message="the stored settings are read")
        assert dialog.strict.choice.currentData() == "off", "strict mode is off by default"
        assert not dialog.strict.sites.isVisible()
        dialog.strict.choice.setCurrentIndex(dialog.strict.choice.findData("sites"))
        assert dialog.strict.sites.isVisible()
        dialog.strict.sites.setText("not a domain!")
        assert not await dialog.save()
        assert "not a domain" in dialog.message.text() and app.core.store.get_setting("strict_mode") is None
        dialog.strict.sites.setText("Shop.Example, https://bank.example/login")
        assert await dialog.save()
        assert app.core.store.get_setting("strict_mode") == {"all": False, "sites": ["shop.example", "bank.example"]}
        assert ("set_strict_mode", {"all": False, "sites": ["shop.example", "bank.example"]}) in sent
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        assert app.settings.strict.sites.text() == "shop.example, bank.example", "strict mode loads back"
        assert app.settings.strict.choice.currentData() == "sites"
        sent.clear()
        app.settings.strict.choice.setCurrentIndex(app.settings.strict.choice.findData("all"))
        assert await app.settings.save()
        assert [s for s in sent if s[0] == "set_strict_mode"] == [("set_strict_mode", {"all": True, "sites": []})]
        sent.clear()
        app.open_settings()
        await until(lambda: not app.settings.loading, message="the stored settings are read")
        assert app.settings.strict.choice.currentData() == "all", "loaded back"
        assert await app.settings.save()
        assert [s for s in sent if s[0] == "set_strict_mode"] == [], "an unchanged choice is not sent again"
    run(body())
